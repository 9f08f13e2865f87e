package check

import (
	"fmt"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/benchlog"
	"github.com/perflab/perflab/internal/study"
	"github.com/perflab/perflab/internal/studytest"
)

// Compared runs that generated different tokens per request are not like
// for like; the spread engines show on one dataset is harmless, and so
// are runs the report does not compare.
func TestOutputLengthRules(t *testing.T) {
	run := func(id, tokens string) *study.Run {
		r := studytest.Run("total_output_tokens", id, id, 1, "sharegpt", tokens)
		studytest.SetMetric(r, "sharegpt", "completed", "1000", 3)
		return r
	}
	s := studytest.Study(study.Throughput, 1, run("base", "441500"), run("same", "439000"), run("short", "389500"), run("alone", "300000"))
	s.Steps = []study.Step{{ID: "engine", Reference: "base", Runs: []string{"same", "short"}}}
	var got []string
	outputLengthRules(s, func(d Diagnostic) {
		got = append(got, d.Subject+" "+d.Printed+"/"+d.Computed)
		if d.Severity != Warning || !strings.Contains(d.Message, "389500 / 1000 at runs/short/sharegpt.log:10") {
			t.Errorf("%+v", d)
		}
	})
	if len(got) != 1 || got[0] != "short/sharegpt 389.5/441.5" {
		t.Errorf("got %q, want the short run only", got)
	}
	// Failed requests explain a difference: requests-failed says so.
	studytest.SetMetric(s.Run("short"), "sharegpt", "failed", "118", 4)
	got = nil
	outputLengthRules(s, func(d Diagnostic) { got = append(got, d.Subject) })
	if len(got) != 0 {
		t.Errorf("a run with failed requests: %q", got)
	}
}

// recipeRun is a run of a random 8000/4000 workload whose block completed
// 200 requests with these totals of input and generated tokens.
func recipeRun(id string, input, output float64) *study.Run {
	r := newRun(id, "vllm serve example-org/Example-Think-1T -tp 8", 8, "")
	file := "results/test/runs/" + id + "/random.log"
	metric := func(v float64, line int) benchlog.Metric {
		return benchlog.Metric{Value: v, Line: line, Raw: fmt.Sprint(v)}
	}
	r.Logs = []study.Log{{Workload: "random", File: file, Blocks: []benchlog.Block{{
		File: file, Line: 1, EndLine: 23, Format: benchlog.FormatVLLM, Definition: benchlog.CountOverDuration, Tool: benchlog.ToolVLLM,
		Metrics: map[string]benchlog.Metric{"completed": metric(200, 2), "total_input_tokens": metric(input, 5),
			"total_output_tokens": metric(output, 6), "output_throughput": metric(output/250, 9)},
	}}}}
	return r
}

// A recipe's two runs under one 4,000-token output limit stopped at their
// end-of-sequence tokens after 389.5 and 441.5 tokens per request: not a
// workload the study misstates but two runs that did different work, the
// output-length warning naming both. Runs that all generated the same
// short mean, runs told to --ignore-eos, and a wrong input length still
// contradict the study.
func TestOutputStoppedEarly(t *testing.T) {
	const bench = "vllm bench serve --dataset-name random --random-input-len 8000 --random-output-len 4000 --num-prompts 200"
	recipe := func(command string, runs ...*study.Run) *study.Study {
		s := newStudy("example-org/Example-Think-1T", 8, runs...)
		s.Workloads = []study.Workload{{ID: "random", Dataset: "random", InputLen: 8000, OutputLen: 4000, NumPrompts: 200, Main: true,
			Command: command, Lines: map[string]int{"input_len": 5, "output_len": 6}}}
		s.Baseline.Runs, s.Recommended.Runs = []string{"plain"}, []string{"eagle"}
		s.Steps = []study.Step{{ID: "runs", Reference: "plain", Runs: []string{"eagle"}}}
		return s
	}
	diags := assessed(recipe(bench, recipeRun("plain", 1600000, 77900), recipeRun("eagle", 1600000, 88300))).Diagnostics
	if got := byRule(diags, RuleWorkload); len(got) != 0 {
		t.Errorf("outputs stopped early are read as a misstated workload: %v", got)
	}
	like := byRule(diags, RuleOutputLength)
	if len(like) != 1 || like[0].Severity != Warning || !strings.Contains(like[0].Message, "389.5") || !strings.Contains(like[0].Message, "441.5") {
		t.Errorf("got %v, want one output-length warning naming 389.5 and 441.5", like)
	}
	mismatches := []struct {
		name, command string
		runs          []*study.Run
		field         string
	}{
		{"the same short mean in every run", bench, []*study.Run{recipeRun("plain", 1600000, 80000), recipeRun("eagle", 1600000, 80000)}, "output_len"},
		{"told to ignore end-of-sequence", bench + " --ignore-eos", []*study.Run{recipeRun("plain", 1600000, 77900), recipeRun("eagle", 1600000, 88300)}, "output_len"},
		{"another input length", bench, []*study.Run{recipeRun("plain", 200000, 77900), recipeRun("eagle", 200000, 88300)}, "input_len"},
	}
	for _, tt := range mismatches {
		got := byRule(assessed(recipe(tt.command, tt.runs...)).Diagnostics, RuleWorkload)
		if len(got) != 1 || got[0].Severity != Error || !strings.Contains(got[0].Message, tt.field+" is ") {
			t.Errorf("%s: %v, want one workload-mismatch error on %s", tt.name, got, tt.field)
		}
	}
}
