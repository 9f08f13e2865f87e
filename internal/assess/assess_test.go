package assess

import (
	"testing"

	"github.com/perflab/perflab/internal/check"
	"github.com/perflab/perflab/internal/report"
	"github.com/perflab/perflab/internal/study"
	"github.com/perflab/perflab/internal/studytest"
)

// claimStudy compares two runs on one workload and publishes the change.
func claimStudy(id, printed, model string) *study.Study {
	base := studytest.Run(report.TotalThroughput.Key, "base", "Base", 8, "random-32k", "1798.45")
	opt := studytest.Run(report.TotalThroughput.Key, "opt", "Opt", 8, "random-32k", "1580.36")
	opt.Command = "vllm serve " + model + " -tp 8"
	s := studytest.Study(study.Throughput, 8, base, opt)
	s.ID = id
	s.Baseline = study.Config{Runs: []string{"base"}}
	s.Recommended = study.Config{Runs: []string{"opt"}}
	s.Claims = []study.Claim{{Kind: study.ClaimConclusion, Workload: "random-32k", Printed: printed,
		Source: "report.md:23", Pos: study.Pos{File: "results/" + id + "/study.yaml", Line: 40}}}
	return s
}

// TestStagesInOrder: the report's exclusions reach the rules and the
// claims; each claim's result is kept and a wrong one is a diagnostic.
func TestStagesInOrder(t *testing.T) {
	res := All([]*study.Study{claimStudy("b", "-13.8%", "Qwen/Qwen3-32B"), claimStudy("a", "-12.1%", "Qwen/Qwen3-32B")})
	if len(res) != 2 || res[0].Study.ID != "a" || res[1].Study.ID != "b" {
		t.Fatalf("results not in order of id: %v", res)
	}
	for i, want := range []bool{true, false} {
		r := res[i]
		if len(r.Claims) != 1 || r.Claims[0].Match != want || r.Report == nil {
			t.Fatalf("%s: claims %+v, want one matching %t", r.Study.ID, r.Claims, want)
		}
		mismatches := 0
		for _, d := range r.Diagnostics {
			if d.Rule == check.RuleClaim {
				mismatches++
			}
		}
		if mismatches != map[bool]int{true: 0, false: 1}[want] {
			t.Errorf("%s: %d claim-mismatch diagnostics", r.Study.ID, mismatches)
		}
	}
	// A run of another model is left out by the report, and the rule
	// says why.
	other := Study(claimStudy("c", "-12.1%", "Qwen/Qwen3-14B"))
	reported := false
	for _, d := range other.Diagnostics {
		reported = reported || d.Rule == check.RuleModel && d.Subject == "opt"
	}
	if other.Report.Excluded["opt"] != check.RuleModel || !reported {
		t.Errorf("excluded %v, model-mismatch reported %t", other.Report.Excluded, reported)
	}
}
