package check

import (
	"os"
	"testing"

	"github.com/perflab/perflab/internal/study"
)

// repositoryStudies loads the repository's studies and their prose.
func repositoryStudies(tb testing.TB) ([]*study.Study, map[string]map[string]*study.Content) {
	tb.Helper()
	studies, _, err := study.LoadAll(os.DirFS("../../results"), "results")
	if err != nil {
		tb.Fatal(err)
	}
	content, _, err := study.LoadContent(os.DirFS("../../content"), "content")
	if err != nil {
		tb.Fatal(err)
	}
	return studies, content
}

// BenchmarkEvidenceRules times the rules that hold labels, workload
// settings, commands and prose against their evidence, over the
// repository's studies, apart from the rest of the check.
func BenchmarkEvidenceRules(b *testing.B) {
	studies, content := repositoryStudies(b)
	results := assessAll(studies)
	discard := func(Diagnostic) {}
	b.ResetTimer()
	for range b.N {
		for _, s := range studies {
			evidenceRules(s, discard)
		}
		Drift(content, "content")
		ProseFigures(results, content, "content")
	}
}

// BenchmarkCheckStudy times the whole check of the repository's studies.
func BenchmarkCheckStudy(b *testing.B) {
	studies, _, err := study.LoadAll(os.DirFS("../../results"), "results")
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		for _, s := range studies {
			assessed(s)
		}
	}
}
