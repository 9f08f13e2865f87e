package check

import (
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/study"
	"github.com/perflab/perflab/internal/studytest"
)

// A study listing figures it could not recompute gets one warning saying
// how many, beside how many were recomputed; no claim-unproven for each.
func TestUncheckedFigures(t *testing.T) {
	s := studytest.Study(study.Throughput, 1, studytest.Run("total_token_throughput", "base", "base", 1, "sharegpt", "100.0"))
	s.Claims = []study.Claim{
		{Kind: study.ClaimTable, From: "1.25 req/s", To: "1.57 req/s", Printed: "+25.6%", Source: "page.md:9", Pos: study.Pos{File: "study.yaml", Line: 20}},
		{Kind: study.ClaimUnchecked, Printed: "2x speed-up", Source: "page.md:3", Pos: study.Pos{File: "study.yaml", Line: 24}},
		{Kind: study.ClaimUnchecked, Printed: "43 % faster", Source: "page.md:30", Pos: study.Pos{File: "study.yaml", Line: 27}},
	}
	res := assessed(s)
	var got []Diagnostic
	for _, d := range res.Diagnostics {
		if d.Rule == RuleUnchecked || d.Rule == RuleClaimUnproven || d.Rule == RuleClaim {
			got = append(got, d)
		}
	}
	if len(got) != 1 || got[0].Rule != RuleUnchecked || got[0].Severity != Warning || got[0].Line != 24 ||
		!strings.Contains(got[0].Message, "2 of the 3 published figures") || !strings.Contains(got[0].Message, `"2x speed-up" at page.md:3`) {
		t.Errorf("diagnostics %v, want one figures-unchecked warning at study.yaml:24 counting 2 of 3", got)
	}
	if n := CountFigures(res.Claims); n.Checked != 1 || n.Unchecked != 2 {
		t.Errorf("counted %+v, want 1 checked and 2 unchecked", n)
	}
}
