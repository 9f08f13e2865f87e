package check

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/study"
)

// TestExclusionsAreReported: the report leaves out of comparisons exactly
// the runs and history versions that model-mismatch and gpu-fit report as
// errors, so that no page compares a run the check rejects, and no run is
// left out without a problem that says why. The report decides first
// (report.Exclusions); the rules word its decisions.
func TestExclusionsAreReported(t *testing.T) {
	studies, _ := repositoryStudies(t)
	older := study.History{Version: study.Version{Raw: "0.9.0"}, Command: "vllm serve Qwen/Qwen3-14B -tp 8",
		Pos: study.Pos{File: "results/test/runs/h/history.yaml", Line: 2}}
	wide := study.History{Version: study.Version{Raw: "0.8.0"}, Command: "export A=1\n\nvllm serve Qwen/Qwen3-32B \\\n  -tp 16",
		Pos: study.Pos{File: "results/test/runs/h/history.yaml", Line: 5}}
	withHistory := newRun("h", "vllm serve Qwen/Qwen3-32B -tp 8", 8, "100.0")
	withHistory.History = []study.History{older, wide}
	studies = append(studies,
		newStudy("Qwen/Qwen3-32B", 8, newRun("other", "vllm serve Qwen/Qwen3-14B -tp 8", 8, "100.0"), newRun("ok", "vllm serve Qwen/Qwen3-32B -tp 8", 8, "90.0")),
		newStudy("Qwen/Qwen3-32B", 2, newRun("big", "vllm serve Qwen/Qwen3-32B -tp 4", 4, "100.0")),
		newStudy("Qwen/Qwen3-32B", 8, newRun("says", "vllm serve Qwen/Qwen3-32B", 16, "100.0")),
		newStudy("Qwen/Qwen3-32B", 8, newRun("differs", "vllm serve Qwen/Qwen3-32B -tp 4", 8, "100.0")),
		newStudy("Qwen/Qwen3-32B", 8, newRun("uneven", "vllm serve Qwen/Qwen3-32B -tp 3", 3, "100.0")),
		newStudy("Qwen/Qwen3-32B", 8, withHistory),
	)
	excludedSome := 0
	for _, s := range studies {
		res := assessed(s)
		reported := map[string]string{}
		for _, d := range res.Diagnostics {
			if (d.Rule == RuleModel || d.Rule == RuleGPUFit) && d.Severity == Error && !strings.Contains(d.Subject, "/") {
				reported[d.Subject] = d.Rule
			}
		}
		if !maps.Equal(reported, res.Report.Excluded) {
			t.Errorf("%s: reported %v, excluded %v", s.ID, reported, res.Report.Excluded)
		}
		if len(reported) > 0 {
			excludedSome++
		}
	}
	// other, big, says, differs and both versions of h; uneven is a warning.
	if excludedSome < 5 {
		t.Errorf("%d studies with an exclusion, want at least 5", excludedSome)
	}
	h := assessed(studies[len(studies)-1]).Report.Excluded
	if got := slices.Sorted(maps.Keys(h)); !slices.Equal(got, []string{"h@0.8.0", "h@0.9.0"}) {
		t.Errorf("history exclusions %v, want both versions", got)
	}
}
