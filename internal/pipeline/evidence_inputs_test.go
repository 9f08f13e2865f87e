package pipeline

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/site"
)

// evidenceOf reads the evidence of study id from a build's files.
func evidenceOf(t *testing.T, files site.Files, id string) Evidence {
	t.Helper()
	var ev Evidence
	if err := json.Unmarshal(files["data/"+id+".evidence.json"], &ev); err != nil {
		t.Fatalf("%s: %v", id, err)
	}
	return ev
}

// withSharedPrices copies the repository's tree and adds a
// results/prices.yaml that the studies' pages cite.
func withSharedPrices(t *testing.T) Dirs {
	t.Helper()
	d := copyTree(t)
	data := "prices:\n  - gpu: NVIDIA A100 SXM 80GB\n    gpu_hour: 1.80\n    currency: USD\n"
	if err := os.WriteFile(filepath.Join(d.Results, "prices.yaml"), []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return d
}

// Changing any file a study's evidence lists changes the evidence: after
// a line end is added to every listed file, each entry is the SHA-256 of
// the file's new bytes, none is what it was, and results/prices.yaml,
// the glossary, each locale and each template are among them.
func TestEvidenceFollowsEveryInput(t *testing.T) {
	t.Parallel()
	d := withSharedPrices(t)
	const id = "qwen3-32b-a100"
	_, files := buildRepo(t, d)
	before := evidenceOf(t, files, id)
	listed := append(slices.Clone(before.Logs), before.Inputs...)
	var paths []string
	for _, f := range listed {
		paths = append(paths, f.Path)
	}
	for _, want := range []string{"results/prices.yaml", "locales/glossary.yaml", "locales/en.yaml", "locales/zh.yaml", "locales/ja.yaml",
		"templates/report.md.tmpl", "templates/page.html.tmpl", "templates/style.css", "results/" + id + "/study.yaml", "content/zh/" + id + ".md"} {
		if !slices.Contains(paths, want) {
			t.Errorf("%s is not in the evidence of %s", want, id)
		}
	}
	root := filepath.Dir(d.Results)
	for _, p := range paths {
		if err := appendTo(filepath.Join(root, filepath.FromSlash(p)), "\n"); err != nil {
			t.Fatal(err)
		}
	}
	_, files = buildRepo(t, d)
	after := evidenceOf(t, files, id)
	now := map[string]string{}
	for _, f := range append(after.Logs, after.Inputs...) {
		now[f.Path] = f.SHA256
	}
	for _, f := range listed {
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f.Path)))
		if err != nil {
			t.Fatal(err)
		}
		switch got := now[f.Path]; {
		case got == f.SHA256:
			t.Errorf("%s changed, its entry in the evidence did not", f.Path)
		case got != hashOf(f.Path, data).SHA256:
			t.Errorf("%s: the evidence says %q, the file's SHA-256 is %s", f.Path, got, hashOf(f.Path, data).SHA256)
		}
	}
	if len(now) != len(listed) {
		t.Errorf("%d files listed after the change, %d before", len(now), len(listed))
	}
}

// belongsTo reports whether a file a build read is one study id's pages
// depend on: its own folder and prose, or a file of no study.
func belongsTo(repoPath, id string) bool {
	parts := strings.Split(repoPath, "/")
	switch {
	case parts[0] == "results" && len(parts) > 2:
		return parts[1] == id
	case parts[0] == "content" && len(parts) == 3:
		return parts[2] == id+".md"
	}
	return true
}
