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
