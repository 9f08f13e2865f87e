package render

import (
	"fmt"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/benchlog"
	"github.com/perflab/perflab/internal/check"
	"github.com/perflab/perflab/internal/report"
	"github.com/perflab/perflab/internal/study"
)

// sweepRepeatsCase is sweepCase with run base measured three times at 2
// req/s (chat.rps2.run-1.log ...): 500, 520.5 and 541 tok/s at 14, 14.25
// and 14.5 ms.
func sweepRepeatsCase() chartCase {
	c := sweepCase()
	s := c.rep.Study
	base := s.Run("base")
	var logs = base.Logs[:1:1]
	for i, p := range [][2]float64{{500, 14}, {520.5, 14.25}, {541, 14.5}} {
		lg := base.Logs[1]
		lg.Repeat = i + 1
		lg.File = fmt.Sprintf("runs/base/chat.rps2.run-%d.log", i+1)
		lg.Blocks = []benchlog.Block{metricBlock(lg.File, "output_throughput", p[0], "request_rate", 2.0, "median_tpot_ms", p[1], "p99_ttft_ms", 380.75)}
		logs = append(logs, lg)
	}
	base.Logs = append(logs, base.Logs[2])
	c.rep = report.Build(s, nil)
	return c
}

// A load measured several times is drawn at its mean with whiskers across
// both intervals, which the legend and the description name.
func TestChartsSweepRepeats(t *testing.T) {
	c := sweepRepeatsCase()
	p := c.rep.Sweeps[0].Curves[0].Points[1]
	if p.Output.Repeats != 3 || p.Output.Expr() != "520.50" {
		t.Fatalf("base at 2 req/s: %s from %d repeats", p.Output.Expr(), p.Output.Repeats)
	}
	r, err := chartRenderer()
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range Languages {
		loc := r.localizer(l.Code)
		for _, ch := range c.draw(t, l.Code) {
			if ch.Name != "sweep-chat" {
				continue
			}
			svg := string(ch.SVG)
			for _, key := range []string{"chart.sweep.interval", "chart.sweep.desc_interval"} {
				if want := loc.T(key, "Level", report.ConfidenceLevel); !strings.Contains(svg, want) {
					t.Errorf("%s: the chart lacks %q", l.Code, want)
				}
			}
			// One point with two whiskers of three strokes each, in its
			// configuration's colour; the legend's whisker in the text's.
			if n := strokes(svg, "stroke-width:1;stroke:rgba(0,114,178,1.0);fill:none"); n != 6 {
				t.Errorf("%s: %d whisker strokes, want 6", l.Code, n)
			}
		}
		// Without repeats, no whisker and no legend of them.
		for _, ch := range sweepCase().draw(t, l.Code) {
			if ch.Name == "sweep-chat" && strings.Contains(string(ch.SVG), loc.T("chart.sweep.interval", "Level", report.ConfidenceLevel)) {
				t.Errorf("%s: a sweep without repeats has an interval in its legend", l.Code)
			}
		}
	}
}

// The sweep's table writes a mean as "mean ± half-width", says so under
// the table, and shows the block of every repeat under its number.
func TestSweepRepeatsSection(t *testing.T) {
	c := sweepRepeatsCase()
	s := c.rep.Study
	s.Baseline, s.Recommended = study.Config{Runs: []string{"base"}}, study.Config{Runs: []string{"fp8"}}
	c.rep = report.Build(s, nil)
	p := c.rep.Sweeps[0].Curves[0].Points[1]
	r, err := chartRenderer()
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range Languages {
		page, err := r.Report(Input{Result: check.Result{Study: c.rep.Study, Report: c.rep}, Content: c.content}, l.Code)
		if err != nil {
			t.Fatal(err)
		}
		md := string(page.Markdown)
		loc := r.localizer(l.Code)
		wants := []string{
			") ± " + p.Output.HalfWidthExpr() + " |", // output tok/s, linked, then its half-width
			") ± " + p.TPOT.HalfWidthExpr() + " |",
			loc.T("sweep.repeats_note", "Level", report.ConfidenceLevel),
		}
		for n := 1; n <= 3; n++ {
			wants = append(wants, " · "+loc.T("run.repeat_title", "N", n, "Of", 3)+"**")
		}
		for _, want := range wants {
			if !strings.Contains(md, want) {
				t.Errorf("%s: the page lacks %q", l.Code, want)
			}
		}
		if strings.Count(md, ") ± ") != 4 { // output, per GPU, TPOT and P99 TTFT of one point
			t.Errorf("%s: %d figures with an interval, want 4", l.Code, strings.Count(md, ") ± "))
		}
	}
}
