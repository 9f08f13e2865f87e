package claims

import (
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/study"
)

// TestSummaryDirection: "is faster by" must name the better run; a word
// swapped while the figures stay is caught.
func TestSummaryDirection(t *testing.T) {
	tests := []struct {
		printed string
		match   bool
	}{
		{"`SGLang` Total TPS = 4635.31, `vLLM` Total TPS = 3792.50. `SGLang` is faster by 842.81 tok/s (22.22%)", true},
		{"`SGLang` Total TPS = 4635.31, `vLLM` Total TPS = 3792.50. `SGLang` is slower by 842.81 tok/s (22.22%)", false},
		{"`SGLang` Total TPS = 4635.31, `vLLM` Total TPS = 3792.50. `vLLM` is slower by 842.81 tok/s (22.22%)", true},
		{"`SGLang` Total TPS = 4635.31, `vLLM` Total TPS = 3792.50. `vLLM` is faster by 842.81 tok/s (22.22%)", false},
	}
	for _, tt := range tests {
		s := engineStudy()
		s.Claims = []study.Claim{{Kind: study.ClaimSummary, Step: "engine", Printed: tt.printed}}
		c := build(s, nil).Claims[0]
		if !c.Checked || c.Match != tt.match {
			t.Errorf("%q: checked %v, match %v (%s), want match %v", tt.printed, c.Checked, c.Match, c.Detail, tt.match)
		}
		if !tt.match && !strings.Contains(c.Detail, "but the logs give") {
			t.Errorf("%q: detail %q", tt.printed, c.Detail)
		}
	}
}
