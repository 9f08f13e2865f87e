package pipeline

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/check"
	"github.com/perflab/perflab/internal/site"
)

// Build checks every study as it streams: copies across studies (the
// copy rule run study by study), shared prices, and an article among the
// studies, checked and never rendered.
func TestBuildChecksEveryStudy(t *testing.T) {
	t.Parallel()
	d := boundedTree(t, 6)
	dir := filepath.Join(d.Results, "qwen3-235b-a22b-a100-0002a")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	article := "kind: article\nmodel: Qwen3-8B\nclaims:\n  - kind: table\n    from: \"13305.38\"\n    to: \"16452.52\"\n    printed: \"+26.7%\"\n    source: \"a.md:123\"\n"
	if err := os.WriteFile(filepath.Join(dir, "study.yaml"), []byte(article), 0o644); err != nil {
		t.Fatal(err)
	}
	got := &lockedFiles{files: site.Files{}}
	p, err := Build(d, got)
	if err != nil {
		t.Fatal(err)
	}
	copies := 0
	for _, line := range diagnosticLines(p.Diagnostics()) {
		if strings.Contains(line, "copy") {
			copies++
		}
	}
	if copies == 0 {
		t.Error("the tree's copied blocks gave no warning")
	}
	if len(p.Articles) != 1 || len(p.Articles[0].Diagnostics) == 0 {
		t.Errorf("the article is not checked: %+v", p.Articles)
	}
	for name := range got.files {
		if strings.Contains(name, "0002a") {
			t.Errorf("the article was rendered: %s", name)
		}
	}
	held, err := loadHeld(d)
	if err != nil {
		t.Fatal(err)
	}
	if g, w := diagnosticLines(p.Diagnostics()), diagnosticLines(held.Diagnostics()); !reflect.DeepEqual(g, w) {
		t.Errorf("Build and check disagree:\ngot  %q\nwant %q", g, w)
	}
}

// A study that fails to load stops Build with its problem, the same
// whatever the scheduling: the lowest study in order of id that fails.
func TestBuildFailsOnTheFirstBrokenStudy(t *testing.T) {
	t.Parallel()
	d := boundedTree(t, 6)
	ids := []string{"qwen3-235b-a22b-a100-0002", "qwen3-32b-a100-0003"}
	for _, id := range ids {
		log := filepath.Join(d.Results, id, "runs", "junk.txt")
		if err := os.WriteFile(log, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for range 3 {
		_, err := Build(d, &lockedFiles{files: site.Files{}})
		if err == nil || !strings.Contains(err.Error(), ids[0]+"/runs/junk.txt") {
			t.Fatalf("err %v, want the problem of %s", err, ids[0])
		}
	}
}

// TestStreamReleasesProse: a study's prose is there while its pages are
// made and gone once they are, so a large tree does not hold every
// study's prose to the end of the build.
func TestStreamReleasesProse(t *testing.T) {
	t.Parallel()
	d := copyTree(t)
	s, err := startStream(d, nil)
	if err != nil {
		t.Fatal(err)
	}
	held := 0
	err = s.run(true, func(i int, res check.Result, _ *cachedStudy) error {
		if len(s.pc.of(s.ids[i])) > 0 {
			held++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if held == 0 {
		t.Fatal("no study had prose as its pages were made: the tree tests nothing")
	}
	for lang, byStudy := range s.pc.prose {
		if len(byStudy) > 0 {
			t.Errorf("%s: the prose of %d studies is still held after the build", lang, len(byStudy))
		}
	}
}
