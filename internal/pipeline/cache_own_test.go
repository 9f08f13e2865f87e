package pipeline

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/check"
)

// TestCachedBuildOwnChecks: a cached build takes the checks of a study's
// own files (drift, typography, link-spoof, invisible characters), and
// what the checks read of its study.yaml before the full loads, from the
// cache only while the study is as cached. After one study's prose, its
// study.yaml or a locale file changed, the site and the diagnostics are
// those of a full build:
// the study that changed is checked again, and the problems of the
// studies that did not are listed as the full build lists them.
func TestCachedBuildOwnChecks(t *testing.T) {
	t.Parallel()
	dir, d, ids := replicatedTree(t, 4, "https://example.org/perflab/")
	d.Locales = filepath.Join(dir, "locales")
	if err := os.CopyFS(d.Locales, os.DirFS(repoDirs.Locales)); err != nil {
		t.Fatal(err)
	}
	prose := func(lang, id string) string { return filepath.Join(d.Content, lang, id+".md") }
	// A study left as it is has problems of its own, which a cached build
	// lists from the cache.
	if err := appendTo(prose("ja", ids[2]), "\n手で\u200b調整した（[docs.vllm.ai](https://example.com/)）。\n"); err != nil {
		t.Fatal(err)
	}
	out, cache := filepath.Join(dir, "site"), filepath.Join(dir, ".perflab-cache")
	for range 2 {
		if _, err := BuildCached(d, out, cache); err != nil {
			t.Fatal(err)
		}
	}
	steps := []struct {
		name, file, text string
		incremental      bool
	}{
		// A figure the English does not state (drift), an invisible
		// character and a link whose text names another address, in one
		// study's Chinese prose.
		{"one study's prose", prose("zh", ids[1]), "\n吞吐量提高了 37 %，\u200b延迟不变（[docs.vllm.ai](https://example.com/)）。\n", true},
		// What the checks read of a study before any is loaded in full
		// (its study.yaml) is read again once it changed.
		{"one study's study.yaml", filepath.Join(d.Results, ids[3], "study.yaml"), "\n# tuned\u200b by hand\n", true},
		{"a locale file", filepath.Join(d.Locales, "ja.yaml"), "\n# 手で\u200b書いた注\n", false},
	}
	for _, step := range steps {
		if err := appendTo(step.file, step.text); err != nil {
			t.Fatal(err)
		}
		res, err := BuildCached(d, out, cache)
		if err != nil {
			t.Fatalf("%s: %v", step.name, err)
		}
		if res.Incremental != step.incremental || step.incremental && res.Rendered != 1 {
			t.Errorf("%s: %+v; want incremental %v, one study rendered when incremental", step.name, res, step.incremental)
		}
		full, files := buildRepo(t, d)
		sameTree(t, step.name, readTree(t, out), files)
		got, want := res.Project.Diagnostics(), full.Diagnostics()
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: diagnostics differ from a full build's:\n%v\nwant\n%v", step.name, got, want)
		}
		found := func(rule, file string) bool {
			return slices.ContainsFunc(want, func(dg check.Diagnostic) bool {
				return dg.Rule == rule && strings.HasPrefix(dg.File, filepath.ToSlash(file))
			})
		}
		for _, file := range []string{step.file, prose("ja", ids[2])} {
			if !found(check.RuleInvisible, file) {
				t.Errorf("%s: the full build finds no invisible character in %s: the test edits nothing it checks", step.name, file)
			}
		}
		if !found(check.RuleLinkSpoof, prose("ja", ids[2])) || strings.HasSuffix(step.file, ".md") && !found(check.RuleLinkSpoof, step.file) {
			t.Errorf("%s: the full build finds no link-spoof in the prose edited: the test edits nothing it checks", step.name)
		}
	}
}
