package study_test

import (
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/study"
)

// kind: example loads like a study of runs and says so; an unknown kind is
// a problem that names the kinds there are.
func TestStudyKinds(t *testing.T) {
	for _, tt := range []struct {
		kind, problem string
		example       bool
	}{
		{"", "", false},
		{"kind: example\n", "", true},
		{"kind: demo\n", `study: kind "demo" is not known; leave it out for a study of runs, or use "article" or "example"`, false},
	} {
		files := validFiles()
		files["study.yaml"] = tt.kind + files["study.yaml"]
		s, problems, err := study.Load(mapFS(files), "results/x", "x")
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, p := range problems {
			got = append(got, p.Msg)
		}
		if joined := strings.Join(got, "\n"); tt.problem == "" && joined != "" || tt.problem != "" && !strings.Contains(joined, tt.problem) {
			t.Errorf("%q: problems %q, want %q", tt.kind, joined, tt.problem)
		}
		if s.Example() != tt.example {
			t.Errorf("%q: Example() = %v", tt.kind, s.Example())
		}
	}
}
