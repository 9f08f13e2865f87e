package pipeline

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/check"
)

// TestTreeNamesAndStrayFiles: names other systems cannot hold, anywhere
// under the four folders, and files under results/ that no loader reads
// are each an error on their path, saying what to do; with --study the
// studies given are still looked at.
func TestTreeNamesAndStrayFiles(t *testing.T) {
	t.Parallel()
	d, _ := oneStudyTree(t, seedStudy)
	write := func(file, data string) string {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return filepath.ToSlash(file)
	}
	en, err := os.ReadFile(filepath.Join(d.Locales, "en.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	run, err := os.ReadFile(filepath.Join(d.Results, seedStudy, "runs", "vllm", "run.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	study := filepath.Join(d.Results, seedStudy)
	want := []struct{ file, rule, says string }{
		// Beside EN.yaml: on the second of the two in name order.
		{filepath.ToSlash(filepath.Join(d.Locales, "en.yaml")), check.RulePortableName, "differ only by case"},
		{filepath.ToSlash(filepath.Join(study, "runs", "nul")), check.RulePortableName, "Windows device name"},
		{write(filepath.Join(study, "runs", "vllm", "aux.log"), "x\n"), check.RulePortableName, "Windows device name"},
		{write(filepath.Join(d.Templates, "a:b.css"), ""), check.RulePortableName, `holds ':'`},
		{write(filepath.Join(d.Content, "en", "notes."), ""), check.RulePortableName, "ends in a dot"},
		{write(filepath.Join(d.Results, "README.md"), "hello\n"), check.RuleSchema, "unexpected file in results/"},
		{filepath.ToSlash(filepath.Join(d.Results, ".hidden")), check.RuleSchema, "hidden folder in results/"},
		{write(filepath.Join(study, "notes.txt"), "x\n"), check.RuleSchema, "unexpected file in a study folder"},
		{filepath.ToSlash(filepath.Join(study, "extra")), check.RuleSchema, "unexpected file in a study folder"},
	}
	write(filepath.Join(d.Locales, "EN.yaml"), string(en))
	write(filepath.Join(study, "runs", "nul", "run.yaml"), string(run))
	write(filepath.Join(d.Results, ".hidden", "x.log"), "x\n")
	write(filepath.Join(study, "extra", "y.log"), "x\n")
	for _, only := range [][]string{nil, {seedStudy}} {
		d.Only = only
		p, err := Check(d, nil)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, diag := range p.Diagnostics() {
			got = append(got, diag.String())
		}
		for _, w := range want {
			if only != nil && (strings.Contains(w.file, ".hidden") || strings.HasSuffix(w.file, "/notes.")) {
				continue // --study reads the top of results/ for its files only, and the prose of the studies given
			}
			found := false
			for _, diag := range p.Diagnostics() {
				found = found || diag.File == w.file && diag.Rule == w.rule && diag.Severity == check.Error && strings.Contains(diag.Message, w.says)
			}
			if !found {
				t.Errorf("--study %v: no %s error on %s saying %q among:\n%s", only, w.rule, w.file, w.says, strings.Join(got, "\n"))
			}
		}
	}
}
