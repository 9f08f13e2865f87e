package render

import (
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/check"
	"github.com/perflab/perflab/internal/study"
)

// TestProblemNamesAWorkloadAsAWorkload: a same-data tie blames no run,
// its subject is the workload (workload/<id>), and the problem line must
// not call the workload a run; a run's own problem still names the run.
func TestProblemNamesAWorkloadAsAWorkload(t *testing.T) {
	r, err := chartRenderer()
	if err != nil {
		t.Fatal(err)
	}
	s := &study.Study{Model: "org/M", Runs: []*study.Run{{ID: "vllm", Name: "vLLM"}}}
	runWord := map[string]string{"en": "run ", "zh": "运行 ", "ja": "実行 "}
	for _, lang := range study.Languages {
		p := &reportPage{r: r, loc: r.localizer(lang), s: s, c: &study.Content{Workloads: map[string]string{"random-4k": "Long prompt"}}}
		tie := p.problem(problemGroup{First: check.Diagnostic{Rule: check.RuleSameData, Severity: check.Error, Subject: "workload/random-4k"}, Subjects: []string{"workload/random-4k"}}).MD
		if !strings.Contains(tie, "Long prompt") || strings.Contains(tie, runWord[lang]+"Long prompt") {
			t.Errorf("%s: the tie of a workload reads %q: it must name the workload, not call it a run", lang, tie)
		}
		own := p.problem(problemGroup{First: check.Diagnostic{Rule: check.RuleSameData, Severity: check.Error, Subject: "vllm/random-4k"}, Subjects: []string{"vllm/random-4k"}}).MD
		if !strings.Contains(own, "vLLM · Long prompt") {
			t.Errorf("%s: a run's problem reads %q: it must name the run and the workload", lang, own)
		}
	}
}
