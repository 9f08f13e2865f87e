package report

import (
	"math"
	"testing"

	"github.com/perflab/perflab/internal/study"
)

// TestAccuracyChanges: a drop of 0.0046 with standard errors of 0.0088 on
// each side is within the evaluations' noise (z = 0.37, p = 0.71); a drop
// of 0.05 with 0.01 on each side is beyond it (z = 3.54, p < 0.001); a
// score without a standard error is compared but not tested.
func TestAccuracyChanges(t *testing.T) {
	score := func(task string, v, se float64) study.Score {
		return study.Score{Task: task, Metric: "acc,none", Value: v, StdErr: se}
	}
	ref := &study.Run{ID: "bf16", Accuracy: []study.Score{score("gsm8k", 0.8848, 0.0088), score("mmlu", 0.80, 0.01), score("arc", 0.5, 0)}}
	run := &study.Run{ID: "fp8", Accuracy: []study.Score{score("gsm8k", 0.8802, 0.0088), score("mmlu", 0.75, 0.01), score("arc", 0.4, 0.01), score("new", 1, 0.1)}}
	got := AccuracyChanges(ref, run)
	if len(got) != 3 {
		t.Fatalf("%d changes, want 3 (the tasks both runs have)", len(got))
	}
	g := got[0]
	if !g.Tested || g.Beyond || !near(g.Diff, -0.0046) || !near(g.StdErr, 0.0088*math.Sqrt2) || math.Abs(g.P-0.7115) > 0.001 ||
		!near(g.Low, -0.0046-1.959963984540054*0.0088*math.Sqrt2) {
		t.Errorf("gsm8k: %+v, want a tested drop within noise, p = 0.71", g)
	}
	if m := got[1]; !m.Tested || !m.Beyond || m.P > 0.001 || m.High >= 0 {
		t.Errorf("mmlu: %+v, want a drop beyond noise, p < 0.001, its interval below 0", m)
	}
	if a := got[2]; a.Tested || a.Beyond || !near(a.Diff, -0.1) {
		t.Errorf("arc: %+v, want compared, not tested (no standard error on one side)", a)
	}
	if AccuracyChanges(ref, ref) != nil || AccuracyChanges(nil, run) != nil {
		t.Error("a run against itself, or without a reference, has changes")
	}
}

// TestAnalysisAccuracy: analysis.json lists each step run's scores against
// its reference, with the test's figures or "untested".
func TestAnalysisAccuracy(t *testing.T) {
	base := testRun("a", "A", 8, "sharegpt", "1000.00")
	opt := testRun("b", "B", 8, "sharegpt", "1100.00")
	base.Accuracy = []study.Score{{Task: "mmlu", Metric: "acc,none", Value: 0.80, StdErr: 0.01}, {Task: "arc", Metric: "acc,none", Value: 0.5}}
	opt.Accuracy = []study.Score{{Task: "mmlu", Metric: "acc,none", Value: 0.75, StdErr: 0.01}, {Task: "arc", Metric: "acc,none", Value: 0.5}}
	r, _ := stepChange(t, base, opt)
	got := r.Analysis().Accuracy
	if len(got) != 2 {
		t.Fatalf("%d accuracy entries, want 2: %+v", len(got), got)
	}
	if m := got[0]; m.Step != "x" || m.From != "a" || m.To != "b" || m.Task != "mmlu" || m.Verdict != "beyond noise" || m.P == nil || m.Interval == nil || !near(m.Diff, -0.05) {
		t.Errorf("mmlu: %+v", m)
	}
	if a := got[1]; a.Verdict != "untested" || a.P != nil || a.StdErr != nil {
		t.Errorf("arc: %+v, want untested", a)
	}
}
