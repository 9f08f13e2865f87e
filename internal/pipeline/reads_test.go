package pipeline

import (
	"strings"
	"testing"
)

// The ledger gives a study its own files and those of no study, never
// another study's; a file read twice with other bytes fails the build.
func TestReadLedger(t *testing.T) {
	l := newReadLedger()
	for _, p := range []string{"results/prices.yaml", "locales/en.yaml", "templates/page.html.tmpl",
		"results/a/study.yaml", "results/a/runs/r/w.log", "content/zh/a.md",
		"results/b/study.yaml", "content/zh/b.md"} {
		l.put(p, "sum of "+p)
	}
	l.put("results/a/study.yaml", "sum of results/a/study.yaml") // read again, the same bytes
	got, err := l.take("a")
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, f := range got {
		paths = append(paths, f.Path)
		if f.SHA256 != "sum of "+f.Path {
			t.Errorf("%s: sum %q", f.Path, f.SHA256)
		}
	}
	want := "content/zh/a.md locales/en.yaml results/a/runs/r/w.log results/a/study.yaml results/prices.yaml templates/page.html.tmpl"
	if strings.Join(paths, " ") != want {
		t.Errorf("study a: %v\nwant %s", paths, want)
	}
	l.put("results/b/study.yaml", "other bytes")
	if _, err := l.take("b"); err == nil || !strings.Contains(err.Error(), "results/b/study.yaml changed while the site was built") {
		t.Errorf("a file read twice with other bytes: %v", err)
	}
}
