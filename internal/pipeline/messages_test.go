package pipeline

import (
	"html"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/check"
	"github.com/perflab/perflab/internal/site"
)

// TestMessageMissingEverywhere: a message the pages need, removed from
// every locale, is a check error on each locale file at the line where
// its group of messages is; the build still succeeds, and the problem
// line shows check's own words for a rule without its message.
func TestMessageMissingEverywhere(t *testing.T) {
	t.Parallel()
	d := copyTree(t)
	dropped := []string{"rule.price-missing", "problems.intro"}
	for _, lang := range []string{"en", "zh", "ja"} {
		file := filepath.Join(d.Locales, lang+".yaml")
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var kept []string
		for _, line := range strings.Split(string(data), "\n") {
			if !strings.HasPrefix(line, dropped[0]+":") && !strings.HasPrefix(line, dropped[1]+":") {
				kept = append(kept, line)
			}
		}
		if err := os.WriteFile(file, []byte(strings.Join(kept, "\n")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	prices := "prices:\n  - gpu: NVIDIA H100 SXM 80GB\n    gpu_hour: 2.50\n    currency: USD\n"
	if err := os.WriteFile(filepath.Join(d.Results, "prices.yaml"), []byte(prices), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := loadHeld(d)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, dg := range p.Diagnostics() {
		if dg.Rule == check.RuleTranslation && dg.Severity == check.Error {
			got[filepath.Base(dg.File)+" "+strings.SplitN(dg.Message, `"`, 3)[1]] = true
			if dg.Line <= 1 && strings.Contains(dg.Message, "rule.") {
				t.Errorf("%s: not at the line of the other rule messages", dg)
			}
		}
	}
	for _, lang := range []string{"en", "zh", "ja"} {
		for _, id := range dropped {
			if !got[lang+".yaml "+id] {
				t.Errorf("no check error for %s missing in %s.yaml; got %v", id, lang, got)
			}
		}
	}
	files := site.Files{}
	if _, err := Build(d, &lockedFiles{files: files}); err != nil {
		t.Fatalf("build fails where check reports the locale: %v", err)
	}
	page := html.UnescapeString(string(files["zh/qwen3-32b-a100/index.html"]))
	if !strings.Contains(page, `prices no "NVIDIA A100 SXM 80GB"`) {
		t.Errorf("the price-missing problem is not shown in check's words")
	}
}

// TestMessageFieldNeverGiven: a translation that inserts a field its
// English message does not, or a rule message a field no problem gives,
// is a check error at the message's line.
func TestMessageFieldNeverGiven(t *testing.T) {
	t.Parallel()
	d := copyTree(t)
	edits := map[string][2]string{
		"zh": {"\nproblems.acknowledged: \"", "\nproblems.acknowledged: \"{{.Foo}}"},
		"en": {"\nrule.log-parse: \"", "\nrule.log-parse: \"{{.Workload}} "},
	}
	for lang, e := range edits {
		file := filepath.Join(d.Locales, lang+".yaml")
		data := readText(t, file)
		if !strings.Contains(data, e[0]) {
			t.Fatalf("%s has no %q", file, e[0])
		}
		writeText(t, file, strings.Replace(data, e[0], e[1], 1))
	}
	p, err := loadHeld(d)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, dg := range p.Diagnostics() {
		if dg.Rule == check.RuleTranslation && strings.Contains(dg.Message, "which it is never given") {
			line := strings.Split(readText(t, dg.File), "\n")[dg.Line-1]
			got = append(got, filepath.Base(dg.File)+" "+strings.SplitN(line, ":", 2)[0])
		}
	}
	if strings.Join(got, "|") != "zh.yaml problems.acknowledged|en.yaml rule.log-parse" && strings.Join(got, "|") != "en.yaml rule.log-parse|zh.yaml problems.acknowledged" {
		t.Errorf("field errors at %q, want zh.yaml problems.acknowledged and en.yaml rule.log-parse", got)
	}
}
