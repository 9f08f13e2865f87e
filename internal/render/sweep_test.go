package render

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/benchlog"
	"github.com/perflab/perflab/internal/chart"
	"github.com/perflab/perflab/internal/check"
	"github.com/perflab/perflab/internal/report"
	"github.com/perflab/perflab/internal/study"
)

// sweepCase is a study whose workload "chat" was swept over three request
// rates: three configurations, one with a name to escape, one point
// without a median TPOT (in the table, not on the chart), and an SLO.
func sweepCase() chartCase {
	pts := []study.SweepPoint{{Value: 0.5, Raw: "0.5"}, {Value: 2, Raw: "2"}, {Value: 8, Raw: "8"}}
	run := func(id, name string, gpus int, points ...[3]float64) *study.Run {
		r := &study.Run{ID: id, Name: name, GPUs: gpus}
		for i, p := range points {
			kv := []any{"output_throughput", p[0], "request_rate", pts[i].Value}
			if p[1] > 0 {
				kv = append(kv, "median_tpot_ms", p[1], "p99_ttft_ms", p[2])
			}
			file := "runs/" + id + "/chat.rps" + pts[i].Raw + ".log"
			r.Logs = append(r.Logs, study.Log{Workload: "chat", Point: &pts[i], File: file, Blocks: []benchlog.Block{metricBlock(file, kv...)}})
		}
		return r
	}
	s := &study.Study{
		ID: "sweep", Model: "org/Model-7B", Objective: study.Throughput,
		Hardware: study.Hardware{GPU: "GPU", GPUsPerNode: 4, Nodes: 1},
		SLO:      &study.SLO{Stat: "p99", TTFT: 800},
		Workloads: []study.Workload{{ID: "short", Dataset: "sharegpt", Main: true},
			{ID: "chat", Dataset: "sharegpt", Sweep: &study.Sweep{Key: study.SweepRate, Points: pts}}},
		Runs: []*study.Run{
			run("base", "Engine A", 1, [3]float64{150.25, 11.5, 210.5}, [3]float64{520.5, 14.25, 380.75}, [3]float64{900.75, 31.5, 1900.25}),
			run("fp8", "Engine A <fp8> & co", 1, [3]float64{160.5, 9.75, 190.5}, [3]float64{610.25, 12.5, 350.5}, [3]float64{1250.5, 0, 0}),
			run("tp2", "Engine B --tensor-parallel-size 2", 2, [3]float64{300.5, 7.25, 150.25}, [3]float64{1100.5, 9.5, 290.75}, [3]float64{2600.25, 22.75, 990.5}),
		},
	}
	names := map[string]*study.Content{
		"en": {Workloads: map[string]string{"chat": "Chat at three request rates"}},
		"zh": {Workloads: map[string]string{"chat": "三种请求速率下的对话"}},
		"ja": {Workloads: map[string]string{"chat": "三つのリクエストレートでの会話"}},
	}
	return chartCase{name: "sweep", rep: report.Build(s, nil), content: names}
}

var fontSize = regexp.MustCompile(`font-size:([0-9.]+)px`)

// TestChartsSweepGolden compares the sweep chart, in every language, with
// testdata/sweep-charts/<lang>/sweep-chat.svg, and checks what it says:
// every number of its description drawn, no text under 11 px, the
// frontier's and the best point's loads written.
func TestChartsSweepGolden(t *testing.T) {
	c := sweepCase()
	for _, l := range Languages {
		var sw *chart.Chart
		charts := c.draw(t, l.Code)
		for i := range charts {
			if charts[i].Name == "sweep-chat" {
				sw = &charts[i]
			}
		}
		if sw == nil {
			t.Fatalf("%s: no sweep-chat chart among %d", l.Code, len(charts))
		}
		file := filepath.Join("testdata", "sweep-charts", l.Code, sw.Name+".svg")
		if *updateCharts {
			if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(file, sw.SVG, 0o644); err != nil {
				t.Fatal(err)
			}
		} else if want, err := os.ReadFile(file); err != nil {
			t.Errorf("%s: no golden file (go test ./internal/render -run Charts -updateCharts writes it): %v", file, err)
		} else if !bytes.Equal(want, sw.SVG) {
			t.Errorf("%s differs from the chart drawn (go test ./internal/render -run Charts -updateCharts rewrites it):\n%s", file, firstDiff(want, sw.SVG))
		}
		doc, drawn := texts(t, sw.SVG)
		if doc.Title != sw.Title || doc.Desc != sw.Description {
			t.Errorf("%s: title %q, desc %q", l.Code, doc.Title, doc.Desc)
		}
		all := strings.Join(drawn, "\n")
		for _, n := range numberRE.FindAllString(sw.Description, -1) {
			if !containsNumber(all, n) {
				t.Errorf("%s: the description gives %s, the chart does not show it", l.Code, n)
			}
		}
		for _, m := range fontSize.FindAllStringSubmatch(string(sw.SVG), -1) {
			if size, _ := strconv.ParseFloat(m[1], 64); size < 11 {
				t.Errorf("%s: text of %s px", l.Code, m[1])
			}
		}
		if !contains(drawn, "Engine A <fp8> & co") || strings.Contains(all, "chart.") {
			t.Errorf("%s: names or message ids: %q", l.Code, drawn)
		}
	}
	// In English: per GPU, tp2 is 150.25, 550.25, 1300.125 at 7.25, 9.5,
	// 22.75 ms; base 150.25, 520.5, 900.75 at 11.5, 14.25, 31.5; fp8 160.5,
	// 610.25 at 9.75, 12.5 (no TPOT at 8 req/s). The frontier: tp2 at 0.5,
	// tp2 at 2 (550.25 at 9.5 ms), fp8 at 2 (610.25 at 12.5), tp2 at 8.
	// Within P99 TTFT 800 ms: tp2 at 8 prints 990.5, fp8 at 8 prints none:
	// the best is fp8 at 2 req/s, 610.25 per GPU. Loads are written as the
	// blocks print them (two decimals here).
	sw := c.draw(t, "en")
	var desc string
	var drawn []string
	for _, ch := range sw {
		if ch.Name == "sweep-chat" {
			desc = ch.Description
			_, drawn = texts(t, ch.SVG)
		}
	}
	for _, want := range []string{"The Pareto frontier runs through Engine B --tensor-parallel-size 2 at 0.50 req/s, Engine B --tensor-parallel-size 2 at 2.00 req/s, Engine A <fp8> & co at 2.00 req/s, Engine B --tensor-parallel-size 2 at 8.00 req/s.",
		"the best point is Engine A <fp8> & co at 2.00 req/s"} {
		if !strings.Contains(desc, want) {
			t.Errorf("description %q lacks %q", desc, want)
		}
	}
	if !contains(drawn, "★ 2.00 req/s") {
		t.Errorf("the best point is not starred: %q", drawn)
	}
}

// A sweep whose logs print no median TPOT has a table but nothing to draw:
// its chart says so rather than naming an empty frontier.
func TestChartsSweepWithoutLatency(t *testing.T) {
	c := sweepCase()
	for _, curve := range c.rep.Sweeps[0].Curves {
		for i := range curve.Points {
			curve.Points[i].TPOT, curve.Points[i].Frontier = nil, false
		}
	}
	c.rep.Sweeps[0].Frontier = nil
	for _, ch := range c.draw(t, "en") {
		if ch.Name == "sweep-chat" {
			if !strings.Contains(ch.Description, "No point prints a median TPOT") || strings.Contains(ch.Description, "frontier runs through") {
				t.Errorf("description: %s", ch.Description)
			}
			texts(t, ch.SVG) // well-formed
			return
		}
	}
	t.Fatal("no sweep chart")
}

// TestBestCost: the best point's sentence goes on with what tokens cost
// there, output and total, or output alone; nothing without a price.
func TestBestCost(t *testing.T) {
	r, err := chartRenderer()
	if err != nil {
		t.Fatal(err)
	}
	loc := r.localizer("en")
	price := &study.Price{PerGPUHour: 1, Raw: "1.00", Currency: "USD"}
	if got := bestCost(loc, price, &report.PointCost{Output: 0.08854, Total: 0.0147}).MD; got != " At 1.00 USD per GPU-hour, a million output tokens cost 0.089 USD there, and a million tokens in and out 0.015 USD." {
		t.Errorf("output and total: %q", got)
	}
	if got := bestCost(loc, price, &report.PointCost{Output: 0.08854}).MD; got != " At 1.00 USD per GPU-hour, a million output tokens cost 0.089 USD there." {
		t.Errorf("output only: %q", got)
	}
	if got := bestCost(loc, nil, nil).MD; got != "" {
		t.Errorf("no price: %q", got)
	}
}

// sweepPage renders the English page of sweepCase, with a baseline and a
// recommended run as a page needs them; change edits the report first.
func sweepPage(t *testing.T, change func(*report.Report)) string {
	t.Helper()
	r, err := chartRenderer()
	if err != nil {
		t.Fatal(err)
	}
	c := sweepCase()
	c.rep.Study.Baseline = study.Config{Runs: []string{"base"}}
	c.rep.Study.Recommended = study.Config{Runs: []string{"fp8"}}
	rep := report.Build(c.rep.Study, nil)
	change(rep)
	p, err := r.Report(Input{Result: check.Result{Study: rep.Study, Report: rep}, Content: c.content}, "en")
	if err != nil {
		t.Fatal(err)
	}
	return string(p.Markdown)
}

// TestSweepNearFrontierMark: a point the report finds near the frontier
// reads ≈ in the frontier column, and the section says what ≈ means; a
// page without such a point does not.
func TestSweepNearFrontierMark(t *testing.T) {
	const note = "≈ in the frontier column marks a point off the frontier"
	if md := sweepPage(t, func(*report.Report) {}); strings.Contains(md, note) {
		t.Fatal("no point is near the frontier, yet the note is written")
	}
	md := sweepPage(t, func(rep *report.Report) {
		pt := &rep.Sweeps[0].Curves[0].Points[1]
		pt.Frontier, pt.NearFrontier = false, true
	})
	row := regexp.MustCompile(`(?m)^\| Engine A \| \[2\.00\].*$`).FindString(md)
	if !strings.Contains(row, "| ≈ |") || !strings.Contains(md, note) {
		t.Errorf("row %q, note written: %v", row, strings.Contains(md, note))
	}
}

// TestSweepBestTiedNamed: the points tied with the best within the budget
// are named after it, each run with its load.
func TestSweepBestTiedNamed(t *testing.T) {
	md := sweepPage(t, func(rep *report.Report) {
		sr := &rep.Sweeps[0]
		if sr.Best == nil {
			t.Fatal("no best point within the budget")
		}
		sr.Tied = []*report.SweepPoint{&sr.Curves[0].Points[1]}
	})
	best := regexp.MustCompile(`(?m)^\*\*Best point within the latency budget.*$`).FindString(md)
	if !strings.HasSuffix(best, "Within noise of it, and as good a choice: Engine A · 2.00 req/s.") {
		t.Errorf("best line %q, want the tie with Engine A at 2.00 req/s named", best)
	}
}
