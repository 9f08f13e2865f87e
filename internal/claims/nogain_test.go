package claims

import (
	"testing"

	"github.com/perflab/perflab/internal/study"
)

// A dash printed for a step says it brought no gain: it holds when the best
// alternative is worse than the reference or within noise, and for a step
// the source lists without runs.
func TestNoGainClaim(t *testing.T) {
	tests := []struct {
		name, ref, alt string
		runs           []string
		match          bool
		computed       string
	}{
		{"alternative worse", "1000.00", "986.00", []string{"alt"}, true, "-"},
		{"within noise", "1000.00", "1005.00", []string{"alt"}, true, "-"},
		{"a real gain", "1000.00", "1100.00", []string{"alt"}, false, "+10.0 %"},
		{"no runs published", "1000.00", "1100.00", nil, true, "-"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := testStudy(study.Throughput, 1, testRun("ref", "Ref", 1, "sharegpt", tt.ref), testRun("alt", "Alt", 1, "sharegpt", tt.alt))
			st := study.Step{ID: "opt", Runs: tt.runs}
			if len(tt.runs) > 0 {
				st.Reference = "ref"
			}
			s.Steps = []study.Step{st}
			s.Claims = []study.Claim{{Kind: study.ClaimStep, Step: "opt", Printed: "-"}}
			got := onlyClaim(t, build(s, nil))
			if !got.Checked || got.Match != tt.match || got.Computed != tt.computed {
				t.Errorf("checked %v, match %v, computed %q (%s); want checked, match %v, computed %q",
					got.Checked, got.Match, got.Computed, got.Detail, tt.match, tt.computed)
			}
		})
	}
}

func TestNoGainMark(t *testing.T) {
	for in, want := range map[string]bool{"-": true, " — ": true, "–": true, "N/A": true, "+0.0%": false, "": false, "--": false} {
		if got := NoGainMark(in); got != want {
			t.Errorf("NoGainMark(%q) = %v, want %v", in, got, want)
		}
	}
}
