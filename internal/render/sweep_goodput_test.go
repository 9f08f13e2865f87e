package render

import (
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/report"
	"github.com/perflab/perflab/internal/study"
)

// One sentence per configuration with a goodput: its load, per GPU and the
// requests counted with their interval, and a warning when the load is
// borderline; when no load reaches the target, the lowest load's
// attainment; nothing for a configuration without per-request arrays.
func TestSweepGoodputLines(t *testing.T) {
	r, err := chartRenderer()
	if err != nil {
		t.Fatal(err)
	}
	slo := &study.SLO{Stat: "p99", TTFT: 200}
	point := func(run *study.Run, load float64, good int) report.SweepPoint {
		return report.SweepPoint{Run: run, Load: report.Value{Measured: load, Decimals: 0, Replicas: 1, GPUs: run.GPUs}, Attainment: &report.Attainment{Good: good, Total: 20}}
	}
	a, b, c := &study.Run{ID: "a", Name: "A", GPUs: 2}, &study.Run{ID: "b", Name: "B", GPUs: 1}, &study.Run{ID: "c", Name: "C", GPUs: 1}
	sr := &report.SweepResult{Workload: study.Workload{ID: "chat", Sweep: &study.Sweep{Key: study.SweepRate}},
		Curves: []report.SweepCurve{{Run: a, Points: []report.SweepPoint{point(a, 2, 20), point(a, 5, 19)}},
			{Run: b, Points: []report.SweepPoint{point(b, 2, 15)}}, {Run: c}}}
	sr.Curves[0].Goodput = &report.SweepGoodput{Point: &sr.Curves[0].Points[1], PerGPU: 2.5, Borderline: true}
	sr.Curves[1].Goodput = &report.SweepGoodput{}
	p := &reportPage{loc: r.localizer("en"), rep: &report.Report{Study: &study.Study{SLO: slo}}}
	introRich, lineRich := p.sweepGoodput(sr)
	intro, lines := introRich.MD, markdownOf(lineRich)
	want := []string{
		"A: up to 5 req/s, 2.5 req/s per GPU; at that load 19 of 20 requests (95.0 %, 95 % interval 76.4–99.1 %) kept every limit. " +
			"Borderline: at this load or a higher one the count could go either way (its 95 % interval reaches 90 %, or its repeats fall on both sides), so a neighbouring load may as well be the goodput.",
		"B: no load measured reaches 90 %; even at the lowest, 2 req/s, only 15 of 20 requests (75.0 %, 95 % interval 53.1–88.8 %) kept every limit.",
	}
	if !strings.Contains(intro, "p99 TTFT ≤ 200 ms") || strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("intro %q\nlines %q\nwant  %q", intro, lines, want)
	}
	// Chinese and Japanese put no space between two sentences.
	for _, lang := range []string{"zh", "ja"} {
		p := &reportPage{loc: r.localizer(lang), rep: p.rep}
		if _, lines := p.sweepGoodput(sr); !strings.Contains(lines[0].MD, "。"+p.loc.T("sweep.goodput_borderline", "Target", "90")) {
			t.Errorf("%s: %q", lang, lines[0])
		}
	}
	if intro, lines := p.sweepGoodput(&report.SweepResult{Workload: sr.Workload, Curves: sr.Curves[2:]}); intro.MD != "" || lines != nil {
		t.Errorf("no per-request arrays, yet %q %q", intro, lines)
	}
}

// markdownOf is the Markdown of each piece.
func markdownOf(rs []rich) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.MD
	}
	return out
}
