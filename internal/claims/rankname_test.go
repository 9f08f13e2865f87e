package claims

import (
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/study"
)

// TestRankingNames: a ranking that keeps its figures in place but swaps
// the names credits each engine with the other's result.
func TestRankingNames(t *testing.T) {
	tests := []struct {
		printed string
		match   bool
		detail  string
	}{
		{"SGLang (4635.31 tok/s) > vLLM (3792.50 tok/s)", true, ""},
		{"vLLM (4635.31 tok/s) > SGLang (3792.50 tok/s)", false, "credits it to \"vLLM\""},
		{"sglang (4635.31 tok/s) > vllm (3792.50 tok/s)", true, ""},
		// A name that names neither a run nor an engine is not judged.
		{"the new engine (4635.31 tok/s) > the old one (3792.50 tok/s)", true, ""},
	}
	for _, labelled := range []bool{false, true} {
		for _, tt := range tests {
			s := engineStudy()
			if labelled {
				// Names that are not engines: the engine label decides.
				s.Run("sglang-tp8").Engine, s.Run("sglang-tp8").Name = "sglang", "Challenger"
				s.Run("vllm-tp8").Name = "Baseline"
			}
			s.Claims = []study.Claim{{Kind: study.ClaimRanking, Step: "engine", Printed: tt.printed}}
			c := build(s, nil).Claims[0]
			if c.Match != tt.match || !strings.Contains(c.Detail, tt.detail) {
				t.Errorf("labelled=%v %q: Match %v (%s), want %v (%s)", labelled, tt.printed, c.Match, c.Detail, tt.match, tt.detail)
			}
		}
	}
}
