package render

import (
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/check"
	"github.com/perflab/perflab/internal/claims"
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
	if got := accuracyAgainst(loc, ref, run).MD; got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	if got := accuracyAgainst(loc, nil, run).MD; got != "" {
		t.Errorf("no reference: %q", got)
	}
	if got := stdErrText(loc, run.Accuracy[0]).MD; got != " (SE 0.0088)" {
		t.Errorf("standard error %q", got)
	}
	if got := stdErrText(loc, run.Accuracy[2]).MD; got != "" {
		t.Errorf("no standard error, yet %q", got)
	}
}

// TestAccuracyClaimLines: a published accuracy loss the evaluations cannot
// support says so with the drop, its interval and p; one they support
// gives the interval's upper bound.
func TestAccuracyClaimLines(t *testing.T) {
	r, err := chartRenderer()
	if err != nil {
		t.Fatal(err)
	}
	drop := report.AccuracyDrop{Change: report.AccuracyChange{To: study.Score{Task: "gsm8k", Metric: "exact_match,strict-match"}, Tested: true},
		Percent: 0.52, Low: -2.24, High: 3.28}
	claim := study.Claim{Kind: study.ClaimAccuracy, Printed: "1%", Source: "a.md:3"}
	test := &report.AccuracyClaimTest{Drop: drop, Limit: 1.5, P: 0.19}
	p := &reportPage{loc: r.localizer("en"), rep: &report.Report{}, res: check.Result{Claims: []claims.Result{
		{Claim: claim, Checked: true, Match: true, Unsupported: true, Computed: "0.5%", Accuracy: test},
		{Claim: claim, Checked: true, Match: true, Computed: "0.5%", Accuracy: test},
	}}}
	lines := p.accuracyClaims()
	if len(lines) != 2 {
		t.Fatalf("lines %q", lines)
	}
	for _, want := range []string{"0.5 %", "from -2.2 % to 3.3 %", "p = 0.19", "too few questions"} {
		if !strings.Contains(lines[0].MD, want) {
			t.Errorf("unsupported claim %q lacks %q", lines[0], want)
		}
	}
	if !strings.Contains(lines[1].MD, "no score loses more than 3.3 %") {
		t.Errorf("supported claim %q lacks the bound", lines[1])
	}
}
