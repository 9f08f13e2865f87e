package claims

import (
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/study"
)

// An accuracy claim is checked against the largest relative drop of a score
// the recommended run shares with the baseline, within printed rounding.
func TestAccuracyClaim(t *testing.T) {
	score := func(task string, v float64) study.Score {
		return study.Score{Task: task, Metric: "acc,none", Value: v, File: "accuracy.json", Line: 3}
	}
	tests := []struct {
		name           string
		base, quant    []study.Score
		printed        string
		checked, match bool
		computed       string
	}{
		// (0.80 - 0.796) / 0.80 = 0.5 %; (0.60 - 0.597) / 0.60 = 0.5 %
		{"holds", []study.Score{score("mmlu", 0.80), score("gsm8k", 0.60)}, []study.Score{score("mmlu", 0.796), score("gsm8k", 0.597)}, "1%", true, true, "0.5%"},
		// (0.60 - 0.57) / 0.60 = 5.0 %
		{"differs", []study.Score{score("mmlu", 0.80), score("gsm8k", 0.60)}, []study.Score{score("mmlu", 0.80), score("gsm8k", 0.57)}, "1%", true, false, "5.0%"},
		// 1.04 % prints as 1.0 %: within the printed rounding of "1.0%"
		{"rounding", []study.Score{score("mmlu", 0.50)}, []study.Score{score("mmlu", 0.4948)}, "1.0%", true, true, "1.0%"},
		{"no accuracy files", nil, nil, "1%", false, false, ""},
		{"no shared score", []study.Score{score("mmlu", 0.8)}, []study.Score{score("gsm8k", 0.6)}, "1%", false, false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base, quant := testRun("bf16", "BF16", 1, "sharegpt", "1000.00"), testRun("fp8", "FP8", 1, "sharegpt", "1200.00")
			base.Accuracy, quant.Accuracy = tt.base, tt.quant
			s := testStudy(study.Throughput, 1, base, quant)
			s.Baseline, s.Recommended = study.Config{Runs: []string{"bf16"}}, study.Config{Runs: []string{"fp8"}}
			s.Claims = []study.Claim{{Kind: study.ClaimAccuracy, Printed: tt.printed}}
			got := onlyClaim(t, build(s, nil))
			if got.Checked != tt.checked || got.Match != tt.match || got.Computed != tt.computed {
				t.Errorf("checked %v, match %v, computed %q (%s); want %v, %v, %q", got.Checked, got.Match, got.Computed, got.Detail, tt.checked, tt.match, tt.computed)
			}
			if !got.Checked && !strings.Contains(got.Detail, "accuracy") {
				t.Errorf("detail %q does not say what is missing", got.Detail)
			}
		})
	}
}

// With standard errors, an accuracy claim holds only when the 95 % interval
// of the drop stays under it; a drop under it whose interval reaches past
// it leaves the claim unsupported, and a drop past it is still wrong.
func TestAccuracyClaimTested(t *testing.T) {
	score := func(task string, v, se float64) study.Score {
		return study.Score{Task: task, Metric: "acc,none", Value: v, StdErr: se, StdErrRaw: "x", File: "accuracy.json", Line: 3}
	}
	tests := []struct {
		name               string
		base, quant        []study.Score
		match, unsupported bool
		computed           string
	}{
		// drop 0.25 %, SE sqrt(2) x 0.002 / 0.80 = 0.35 %: at most 0.94 % < 1.05 %
		{"supported", []study.Score{score("mmlu", 0.80, 0.002)}, []study.Score{score("mmlu", 0.798, 0.002)}, true, false, "0.3%"},
		// drop 0.52 %, SE sqrt(2) x 0.0088 / 0.8848 = 1.41 %: up to 3.28 %
		{"unsupported", []study.Score{score("gsm8k", 0.8848, 0.0088)}, []study.Score{score("gsm8k", 0.8802, 0.0088)}, true, true, "0.5%"},
		// drop 5.0 %: wrong whatever the interval
		{"wrong", []study.Score{score("mmlu", 0.80, 0.002)}, []study.Score{score("mmlu", 0.76, 0.002)}, false, false, "5.0%"},
		// an untested score under the limit does not hide a tested one
		{"mixed", []study.Score{score("mmlu", 0.80, 0), score("gsm8k", 0.8848, 0.0088)},
			[]study.Score{score("mmlu", 0.799, 0), score("gsm8k", 0.8802, 0.0088)}, true, true, "0.5%"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base, quant := testRun("bf16", "BF16", 1, "sharegpt", "1000.00"), testRun("fp8", "FP8", 1, "sharegpt", "1200.00")
			base.Accuracy, quant.Accuracy = tt.base, tt.quant
			s := testStudy(study.Throughput, 1, base, quant)
			s.Baseline, s.Recommended = study.Config{Runs: []string{"bf16"}}, study.Config{Runs: []string{"fp8"}}
			s.Claims = []study.Claim{{Kind: study.ClaimAccuracy, Printed: "1.0%"}}
			got := onlyClaim(t, build(s, nil))
			if !got.Checked || got.Match != tt.match || got.Unsupported != tt.unsupported || got.Computed != tt.computed {
				t.Fatalf("checked %v, match %v, unsupported %v, computed %q (%s); want checked, %v, %v, %q",
					got.Checked, got.Match, got.Unsupported, got.Computed, got.Detail, tt.match, tt.unsupported, tt.computed)
			}
			if got.Accuracy == nil {
				t.Fatal("no test attached")
			}
			if (got.Accuracy.P < 0.05) == tt.unsupported {
				t.Errorf("p = %g against %g: unsupported %v", got.Accuracy.P, got.Accuracy.Limit, tt.unsupported)
			}
			if (!tt.match || tt.unsupported) && (!strings.Contains(got.Detail, "interval") || !strings.Contains(got.Detail, "p ")) {
				t.Errorf("detail %q lacks the interval or p", got.Detail)
			}
		})
	}
}
