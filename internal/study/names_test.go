package study_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/study"
)

// TestTooManyWorkloads: past the bound, the first workload too many is an
// error on its line, and the rest is not read.
func TestTooManyWorkloads(t *testing.T) {
	var extra strings.Builder
	for i := range study.MaxWorkloads {
		fmt.Fprintf(&extra, "  - id: w%d\n    dataset: sharegpt\n", i)
	}
	files := validFiles()
	files["study.yaml"] = strings.Replace(studyYAML, "baseline:", extra.String()+"baseline:", 1)
	s, problems, err := study.Load(mapFS(files), "results/x", "x")
	if err != nil {
		t.Fatal(err)
	}
	// Two workloads before, so w998 is the 1,001st; w0 is on line 21.
	want := fmt.Sprintf("results/x/study.yaml:%d: a study has at most %d workloads", 21+2*(study.MaxWorkloads-2), study.MaxWorkloads)
	found := false
	for _, p := range problems {
		found = found || strings.HasPrefix(p.Error(), want)
	}
	if !found {
		t.Errorf("no problem %q among %v", want, problems[:min(len(problems), 5)])
	}
	if len(s.Workloads) != study.MaxWorkloads {
		t.Errorf("%d workloads read, want %d", len(s.Workloads), study.MaxWorkloads)
	}
}
