package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// perflab import says, per page, how many result blocks became runs and
// how many figures it left for nobody to check.
func TestImportSaysWhatItRead(t *testing.T) {
	out := filepath.Join(t.TempDir(), "results")
	pages := filepath.Join("..", "..", "internal", "importer", "testdata")
	stdout, stderr, err := perflab(t, "import", "--out", out, filepath.Join(pages, "vllm_recipe.md"), filepath.Join(pages, "bare_block.md"))
	if err != nil {
		t.Fatalf("%v: %s", err, stderr)
	}
	for _, want := range []string{
		"imported vllm_recipe.md", "read 3 result blocks as 2 runs, 0 printed figures read as claims; no other figure in its tables and text\n",
		"imported bare_block.md", "read 1 result block as 1 run, 0 printed figures read as claims; 1 figure in tables and text was not read: check cannot verify them",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout does not say %q:\n%s", want, stdout)
		}
	}
}

// A study imported into a folder of its own, with no locales, templates
// or content beside it, is checked alone: run from outside a checkout (as
// this test is, in cmd/perflab), check neither fails for lack of the
// project's locales nor passes without saying how many figures it checked.
func TestCheckStudyImportedElsewhere(t *testing.T) {
	out := filepath.Join(t.TempDir(), "results")
	page := filepath.Join("..", "..", "internal", "importer", "testdata", "dcp_recipe.md")
	if _, stderr, err := perflab(t, "import", "--study", "dcp", "--out", out, page); err != nil {
		t.Fatalf("import: %v: %s", err, stderr)
	}
	stdout, stderr, err := perflab(t, "check", "--results", out)
	if err != nil {
		t.Fatalf("check of the imported study fails: %v\n%s%s", err, stdout, stderr)
	}
	if !strings.Contains(stderr, "checking the studies alone; perflab build needs --locales and --templates") {
		t.Errorf("check does not say it left the project's locales and templates out: %q", stderr)
	}
	if strings.Contains(stdout, "locales") || strings.Contains(stdout, "(project)") {
		t.Errorf("check reports the project's folders, not the study's:\n%s", stdout)
	}
	if !strings.Contains(stdout, "\ndcp\n") && !strings.HasPrefix(stdout, "dcp\n") {
		t.Errorf("check does not report on the imported study dcp:\n%s", stdout)
	}
	if !strings.Contains(stdout, "; 23 published figures recomputed, 0 could not be checked\n") {
		t.Errorf("check does not count the study's published figures:\n%s", stdout)
	}
}
