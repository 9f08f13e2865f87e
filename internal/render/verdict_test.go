package render

import (
	"regexp"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/benchlog"
	"github.com/perflab/perflab/internal/check"
	"github.com/perflab/perflab/internal/claims"
	"github.com/perflab/perflab/internal/report"
	"github.com/perflab/perflab/internal/study"
)

// tiesCase is a step of three single runs at 1000, 960 and 900 tok/s:
// one run a side cannot tell A from B (4 %, p = 0.26) nor B from C
// (6.3 %, p = 0.077) at the 2.5 % variation assumed for a throughput;
// A and C (10 %, p = 0.0047, 0.014 after Holm over the three pairs) it
// can.
func tiesCase() *report.Report {
	run := func(id, name string, v float64) *study.Run {
		r := &study.Run{ID: id, Name: name, GPUs: 1}
		r.Logs = append(r.Logs, study.Log{Workload: "chat", File: "runs/" + id + "/chat.log",
			Blocks: []benchlog.Block{metricBlock(id+"/chat", "total_token_throughput", v)}})
		return r
	}
	s := &study.Study{
		ID: "ties", Model: "org/Model-7B", Objective: study.Throughput,
		Hardware:    study.Hardware{GPU: "GPU", GPUsPerNode: 1, Nodes: 1},
		Workloads:   []study.Workload{{ID: "chat", Dataset: "sharegpt", Main: true}},
		Runs:        []*study.Run{run("a", "Engine A", 1000), run("b", "Engine B", 960), run("c", "Engine C", 900)},
		Baseline:    study.Config{Runs: []string{"c"}},
		Recommended: study.Config{Runs: []string{"a"}},
		Steps:       []study.Step{{ID: "engine", Runs: []string{"a", "b"}, Reference: "c"}},
	}
	return report.Build(s, nil)
}

var resultLine = regexp.MustCompile(`(?m)^\*\*Result:\*\* .*$`)

// TestRankingNamesTies: every run tied with the best is joined to it with
// ≈, and the first run measurably apart from the best starts a new group
// (not "A ≈ B ≈ C", which would tie A and C).
func TestRankingNamesTies(t *testing.T) {
	r, err := chartRenderer()
	if err != nil {
		t.Fatal(err)
	}
	rep := tiesCase()
	page, err := r.Report(Input{Result: check.Result{Study: rep.Study, Report: rep}, Content: map[string]*study.Content{}}, "en")
	if err != nil {
		t.Fatal(err)
	}
	line := resultLine.FindString(string(page.Markdown))
	a, b, c := strings.Index(line, "Engine A"), strings.Index(line, "Engine B"), strings.Index(line, "Engine C")
	if a < 0 || b < a || c < b || !strings.Contains(line[a:b], " ≈ ") || !strings.Contains(line[b:c], " > ") {
		t.Errorf("ranking %q, want Engine A ≈ Engine B > Engine C", line)
	}
	// The summary names the alternative tied with the best beside it.
	if row := regexp.MustCompile(`(?m)^\| \[engine\]\(#step-engine\) \|.*$`).FindString(string(page.Markdown)); !strings.Contains(row, "| Engine A (adopted) ≈ Engine B | Engine C |") {
		t.Errorf("summary row %q, want Engine A (adopted) ≈ Engine B beside Engine C", row)
	}
}

// TestChangeStats: a tested change prints its interval, p and n; an
// untested one its n and band.
func TestChangeStats(t *testing.T) {
	r, err := chartRenderer()
	if err != nil {
		t.Fatal(err)
	}
	loc := r.localizer("en")
	tested := &report.Change{Test: report.TestWelch, Lo: 1.26, Hi: 6.94, P: 0.0091, NFrom: 5, NTo: 5, Band: 1.9}
	if got, want := changeStats(loc, tested).MD, " [+1.3, +6.9] (p = 0.009, n = 5 + 5)"; got != want {
		t.Errorf("tested: %q, want %q", got, want)
	}
	assumed := &report.Change{Test: report.TestAssumed, P: 0.0004, NFrom: 1, NTo: 1, Band: 1, Sigma: 2.5, Level: 0.05}
	if got, want := changeStats(loc, assumed).MD, " (p < 0.001, n = 1 + 1, against an assumed run-to-run variation of 2.5 %)"; got != want {
		t.Errorf("assumed: %q, want %q", got, want)
	}
	if got, want := noiseStats(loc, assumed).MD, ": one run each cannot tell a change under 6.9 % from noise; add repeats"; got != want {
		t.Errorf("one run each, noise: %q, want %q", got, want)
	}
	assumed.NTo = 3
	if got, want := noiseStats(loc, assumed).MD, " (n = 1 + 3): these runs cannot tell a change under 5.7 % from noise; add repeats"; got != want {
		t.Errorf("no spread, noise: %q, want %q", got, want)
	}
	predicted := &report.Change{Test: report.TestPrediction, Lo: -2.1, Hi: 8.3, T: 1.8028, DF: 2, P: 0.2132, PAdjusted: 0.4264, Family: 2, NFrom: 3, NTo: 1}
	if got, want := changeStats(loc, predicted).MD, " [-2.1, +8.3] (t = 1.80, df 2, p = 0.21, Holm-adjusted p = 0.43, n = 3 + 1)"; got != want {
		t.Errorf("prediction: %q, want %q", got, want)
	}
}

// TestCostOrder: the cost order joins the runs the report cannot tell
// apart with "≈" and the others with "<"; without a tie the table's order
// says all, and no line is written.
func TestCostOrder(t *testing.T) {
	r, err := chartRenderer()
	if err != nil {
		t.Fatal(err)
	}
	loc := r.localizer("en")
	run := func(id, name string) *study.Run { return &study.Run{ID: id, Name: name} }
	res := &report.CostResult{Runs: []report.CostRun{
		{RunResult: report.RunResult{Run: run("b", "B")}},
		{RunResult: report.RunResult{Run: run("a", "A")}, TiedWith: "b"},
		{RunResult: report.RunResult{Run: run("c", "C <x>")}},
	}}
	got := costOrder(loc, res)
	if got == nil || !strings.Contains(got.MD, "B ≈ A < C \\<x\\>") || !strings.Contains(string(got.HTML), "B ≈ A &lt; C &lt;x&gt;") {
		t.Errorf("order %+v, want B ≈ A < C <x> in both formats", got)
	}
	res.Runs[1].TiedWith = ""
	if got := costOrder(loc, res); got != nil {
		t.Errorf("no tie, yet %+v", *got)
	}
}

// TestAllRunsUnjudged: an all-runs table too large for its pairs to be
// judged is shown without the data the page's script compares two
// columns with, and its intro says why.
func TestAllRunsUnjudged(t *testing.T) {
	r, err := chartRenderer()
	if err != nil {
		t.Fatal(err)
	}
	for _, judged := range []bool{true, false} {
		rep := tiesCase()
		rep.AllRuns().Judged = judged
		page, err := r.Report(Input{Result: check.Result{Study: rep.Study, Report: rep}, Content: map[string]*study.Content{}}, "en")
		if err != nil {
			t.Fatal(err)
		}
		compares := strings.Contains(string(page.HTML), "data-compare")
		says := strings.Contains(string(page.Markdown), "With 3 runs the table is too large")
		if compares != judged || says == judged {
			t.Errorf("judged %v: compare data %v, intro says too large %v", judged, compares, says)
		}
		// Without the script, the table stacks into cards on a phone
		// like every other table: each cell labelled by its column.
		table := allRunsTable(t, string(page.HTML))
		stacks := strings.Contains(table, `<table class="stack">`) && strings.Contains(table, `<td data-label="Metric">`)
		if stacks == judged {
			t.Errorf("judged %v: the table stacks %v", judged, stacks)
		}
	}
}

// TestOptionsPathNotOneAtATime: when the recommended configuration's run
// changes the weights as well as the parallelism against the baseline,
// and another step is about the weights, the summary says the steps were
// not measured one at a time, in every language.
func TestOptionsPathNotOneAtATime(t *testing.T) {
	run := func(id, name, command string, gpus int, v float64) *study.Run {
		r := &study.Run{ID: id, Name: name, GPUs: gpus, Command: command}
		r.Logs = append(r.Logs, study.Log{Workload: "chat", File: "runs/" + id + "/chat.log",
			Blocks: []benchlog.Block{metricBlock(id+"/chat", "total_token_throughput", v)}})
		return r
	}
	s := &study.Study{
		ID: "path", Model: "org/Model-7B", Objective: study.Throughput,
		Hardware:  study.Hardware{GPU: "GPU", GPUsPerNode: 1, Nodes: 1},
		Workloads: []study.Workload{{ID: "chat", Dataset: "sharegpt", Main: true}},
		Runs: []*study.Run{run("awq", "AWQ", "vllm serve org/Model-7B-AWQ -tp 2", 1, 1010), // in id order, as loaded
			run("base", "BF16 TP2", "vllm serve org/Model-7B -tp 2", 1, 1000),
			run("fp8tp1", "FP8 TP1", "vllm serve org/Model-7B-FP8 -tp 1", 1, 1500)},
		Baseline:    study.Config{Runs: []string{"base"}},
		Recommended: study.Config{Runs: []string{"fp8tp1"}},
		Steps: []study.Step{{ID: "quantization", Runs: []string{"awq"}, Reference: "base"},
			{ID: "parallelism", Runs: []string{"fp8tp1"}, Reference: "base"}},
	}
	rep := report.Build(s, nil)
	r, err := chartRenderer()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"en": "They were not measured one at a time", "zh": "并不是一次只改一项测出来的", "ja": "一度に一項目ずつ測定されたものではありません"}
	for lang, w := range want {
		page, err := r.Report(Input{Result: check.Result{Study: s, Report: rep}, Content: map[string]*study.Content{}}, lang)
		if err != nil {
			t.Fatal(err)
		}
		if md := string(page.Markdown); !strings.Contains(md, w) || !strings.Contains(md, "FP8 TP1") {
			t.Errorf("%s: the summary does not say the steps were not measured one at a time:\n%s", lang, md[strings.Index(md, "{#summary}")+1:])
		}
	}
}

// TestRankingErratumBothFormats: a published ranking the logs do not
// support is flagged under the step's ranking, with the printed text as
// text, in the Markdown and, as a blockquote, in the HTML.
func TestRankingErratumBothFormats(t *testing.T) {
	r, err := chartRenderer()
	if err != nil {
		t.Fatal(err)
	}
	rep := tiesCase()
	printed := "Engine C > *Engine A*"
	res := check.Result{Study: rep.Study, Report: rep, Claims: []claims.Result{
		{Claim: study.Claim{Kind: study.ClaimRanking, Step: "engine", Printed: printed}, Checked: true}}}
	page, err := r.Report(Input{Result: res, Content: map[string]*study.Content{}}, "en")
	if err != nil {
		t.Fatal(err)
	}
	md := "> **Erratum:** the published ranking reads “Engine C \\> \\*Engine A\\*”"
	if !strings.Contains(string(page.Markdown), md) {
		t.Errorf("no %q in the Markdown", md)
	}
	html := "<blockquote>\n<p><strong>Erratum:</strong> the published ranking reads “Engine C &gt; *Engine A*”"
	if !strings.Contains(string(page.HTML), html) {
		t.Errorf("no %q in the HTML", html)
	}
}
