package check

import (
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/study"
)

// An accuracy claim the drop meets but its interval does not is a warning
// that names the interval; a drop past the claim stays an error.
func TestAccuracyClaimSeverity(t *testing.T) {
	for _, tt := range []struct {
		quant    float64
		rule     string
		severity Severity
	}{{0.8802, RuleClaimUnproven, Warning}, {0.80, RuleClaim, Error}} {
		s := claimStudy(study.Claim{Kind: study.ClaimAccuracy, Printed: "1%", Pos: study.Pos{File: studyFile, Line: 50}})
		score := func(v float64) []study.Score {
			return []study.Score{{Task: "gsm8k", Metric: "exact_match,strict-match", Value: v, StdErr: 0.0088, StdErrRaw: "0.0088"}}
		}
		s.Run("vllm").Accuracy, s.Run("trtllm-chunked-prefill").Accuracy = score(0.8848), score(tt.quant)
		d := byRule(assessed(s).Diagnostics, tt.rule)
		if len(d) != 1 || d[0].Severity != tt.severity || d[0].Subject != "accuracy/recommended" || !strings.Contains(d[0].Message, "interval") {
			t.Errorf("score %v: %s diagnostics %+v, want one %v naming the interval", tt.quant, tt.rule, d, tt.severity)
		}
	}
}
