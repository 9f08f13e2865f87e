package render

import (
	"testing"

	"github.com/perflab/perflab/internal/report"
	"github.com/perflab/perflab/internal/study"
)

// TestAccuracyAgainst: a run's scores against its reference's, each with
// its interval, p and whether it exceeds the two evaluations' noise, or
// that it could not be tested; a score's standard error follows it.
func TestAccuracyAgainst(t *testing.T) {
	r, err := chartRenderer()
	if err != nil {
		t.Fatal(err)
	}
	loc := r.localizer("en")
	ref := &report.RunResult{Run: &study.Run{ID: "bf16", Name: "vLLM BF16", Accuracy: []study.Score{
		{Task: "gsm8k", Metric: "exact_match,strict-match", Value: 0.8848, Raw: "0.8848", StdErr: 0.0088, StdErrRaw: "0.0088"},
		{Task: "mmlu", Metric: "acc,none", Value: 0.80, Raw: "0.80", StdErr: 0.01, StdErrRaw: "0.01"},
		{Task: "arc", Metric: "acc,none", Value: 0.5, Raw: "0.5"},
	}}}
	run := &study.Run{ID: "fp8", Accuracy: []study.Score{
		{Task: "gsm8k", Metric: "exact_match,strict-match", Value: 0.8802, Raw: "0.8802", StdErr: 0.0088, StdErrRaw: "0.0088"},
		{Task: "mmlu", Metric: "acc,none", Value: 0.75, Raw: "0.75", StdErr: 0.01, StdErrRaw: "0.01"},
		{Task: "arc", Metric: "acc,none", Value: 0.5, Raw: "0.5"},
	}}
	want := "Against vLLM BF16: gsm8k exact\\_match -0.0046 [-0.0290, +0.0198] (p = 0.71, within the two evaluations' noise); " +
		"mmlu acc -0.05 [-0.08, -0.02] (p < 0.001, larger than the two evaluations' noise); " +
		"arc acc 0.0 (not tested: an accuracy file gives no standard error)."
	if got := accuracyAgainst(loc, ref, run); got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	if got := accuracyAgainst(loc, nil, run); got != "" {
		t.Errorf("no reference: %q", got)
	}
	if got := stdErrText(loc, run.Accuracy[0]); got != " (SE 0.0088)" {
		t.Errorf("standard error %q", got)
	}
	if got := stdErrText(loc, run.Accuracy[2]); got != "" {
		t.Errorf("no standard error, yet %q", got)
	}
}
