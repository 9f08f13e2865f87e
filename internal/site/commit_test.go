package site

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeSite(t *testing.T, dir, page string) {
	t.Helper()
	if err := Write(dir, Files{"index.html": []byte(page)}); err != nil {
		t.Fatal(err)
	}
}

// At every step of a commit the destination holds a whole site, the old
// or the new: a build killed there leaves one of them.
func TestCommitOldOrNew(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "site")
	writeSite(t, dir, "old")
	var steps []string
	beforeSwap = func(step string) {
		steps = append(steps, step)
		data, err := os.ReadFile(filepath.Join(dir, "index.html"))
		if err != nil || string(data) != "old" && string(data) != "new" {
			t.Errorf("before %q the site holds %q, %v", step, data, err)
		}
	}
	defer func() { beforeSwap = func(string) {} }()
	writeSite(t, dir, "new")
	if data, _ := os.ReadFile(filepath.Join(dir, "index.html")); string(data) != "new" {
		t.Errorf("after the commit the site holds %q", data)
	}
	if strings.Join(steps, ",") != "swap,remove old" {
		t.Errorf("steps %v: the commit did not exchange the folders in one step", steps)
	}
}

// A second build into the same place while one is writing fails cleanly,
// and the first one's work is intact.
func TestConcurrentBuildLoses(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "site")
	first, err := Create(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := first.Add("index.html", []byte("first")); err != nil {
		t.Fatal(err)
	}
	if _, err := Create(dir); err == nil || !strings.Contains(err.Error(), "another perflab build") {
		t.Fatalf("a second build started beside the first: %v", err)
	}
	if err := first.Commit(); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "index.html")); string(data) != "first" {
		t.Errorf("the site holds %q", data)
	}
	writeSite(t, dir, "after") // the lock is free again
}

// The temporary folders of a killed build are removed by the next one;
// nothing else next to the site is.
func TestStaleFoldersRemoved(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "site")
	for _, p := range []string{".site.new-123/en", ".site.new-456.old/ja", ".sitex/keep", "other/keep", ".site.new/keep"} {
		os.MkdirAll(filepath.Join(parent, p), 0o755)
	}
	writeSite(t, dir, "x")
	entries, _ := os.ReadDir(parent)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if got := strings.Join(names, ","); got != ".site.new,.sitex,other,site" {
		t.Errorf("next to the site: %s", got)
	}
}
