package check

import (
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/study"
	"github.com/perflab/perflab/internal/studytest"
)

// Compared runs that generated different tokens per request are not like
// for like; the spread engines show on one dataset is harmless, and so
// are runs the report does not compare.
func TestOutputLengthRules(t *testing.T) {
	run := func(id, tokens string) *study.Run {
		r := studytest.Run("total_output_tokens", id, id, 1, "sharegpt", tokens)
		studytest.SetMetric(r, "sharegpt", "completed", "1000", 3)
		return r
	}
	s := studytest.Study(study.Throughput, 1, run("base", "441500"), run("same", "439000"), run("short", "389500"), run("alone", "300000"))
	s.Steps = []study.Step{{ID: "engine", Reference: "base", Runs: []string{"same", "short"}}}
	var got []string
	outputLengthRules(s, func(d Diagnostic) {
		got = append(got, d.Subject+" "+d.Printed+"/"+d.Computed)
		if d.Severity != Warning || !strings.Contains(d.Message, "389500 / 1000 at runs/short/sharegpt.log:10") {
			t.Errorf("%+v", d)
		}
	})
	if len(got) != 1 || got[0] != "short/sharegpt 389.5/441.5" {
		t.Errorf("got %q, want the short run only", got)
	}
	// Failed requests explain a difference: requests-failed says so.
	studytest.SetMetric(s.Run("short"), "sharegpt", "failed", "118", 4)
	got = nil
	outputLengthRules(s, func(d Diagnostic) { got = append(got, d.Subject) })
	if len(got) != 0 {
		t.Errorf("a run with failed requests: %q", got)
	}
}
