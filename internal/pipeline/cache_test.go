package pipeline

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/site"

	"github.com/perflab/perflab/internal/benchtree"
)

// readTree returns every file under dir.
func readTree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if rel == site.Stamp { // perflab's mark, not a page
			return nil
		}
		data, err := os.ReadFile(p)
		out[filepath.ToSlash(rel)] = data
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func sameTree(t *testing.T, what string, got, want map[string][]byte) {
	t.Helper()
	for name, w := range want {
		g, ok := got[name]
		if !ok {
			t.Errorf("%s: %s is missing", what, name)
		} else if !bytes.Equal(g, w) {
			t.Errorf("%s: %s differs from the full build:\n%s", what, name, diff(w, g))
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("%s: %s is not in the full build", what, name)
		}
	}
}

// TestIncrementalBuild changes one log, one content file, and a log whose
// blocks other studies copied; each time the cached build must write the
// bytes of a full build, and render again only what depends on the change.
// The first two leave every entry and download as it was, so the landing
// pages and data/all.* are not made again; the third changes figures.
func TestIncrementalBuild(t *testing.T) {
	t.Parallel()
	dir, d, ids := replicatedTree(t, 8, "https://example.org/perflab/")
	// Shared prices give every report a cost section, rendered again too.
	prices := "prices:\n  - gpu: NVIDIA A100 SXM 80GB\n    gpu_hour: 1.80\n    currency: USD\n"
	if err := os.WriteFile(filepath.Join(d.Results, "prices.yaml"), []byte(prices), 0o644); err != nil {
		t.Fatal(err)
	}
	out, cache := filepath.Join(dir, "site"), filepath.Join(dir, ".perflab-cache")
	res, err := BuildCached(d, out, cache)
	if err != nil {
		t.Fatal(err)
	}
	if res.Incremental || res.Rendered != 8 {
		t.Fatalf("first build: %+v, want a full build of 8 studies", res)
	}
	// Written through site.Writer, in pieces where a file is large: the
	// bytes of a build in memory.
	_, files := buildRepo(t, d)
	sameTree(t, "full build", readTree(t, out), files)
	if res, err = BuildCached(d, out, cache); err != nil || !res.Incremental || res.Rendered != 0 {
		t.Fatalf("nothing changed: %+v, %v; want an incremental build that renders nothing", res, err)
	}
	steps := []struct {
		name     string
		edit     func() error
		render   int  // studies rendered again, at most
		siteWide bool // landing pages and data/all.* made again
	}{
		{"one log of a late study", func() error {
			return appendTo(filepath.Join(d.Results, ids[6], "runs", "vllm-tp8", "sharegpt.log"), "\nINFO: shutting down\n")
		}, 1, false},
		{"one content file", func() error {
			return appendTo(filepath.Join(d.Content, "ja", ids[4]+".md"), "\n追記。\n")
		}, 1, false},
		{"a log other studies copy", func() error {
			name := filepath.Join(d.Results, ids[0], "runs", "vllm-tp8", "sharegpt.log")
			data, err := os.ReadFile(name)
			if err != nil {
				return err
			}
			edited := strings.Replace(string(data), "3792.50", "3792.51", 1)
			if edited == string(data) {
				t.Fatal("the log has no 3792.50 to change")
			}
			return os.WriteFile(name, []byte(edited), 0o644)
		}, 8, true},
	}
	for _, step := range steps {
		if err := step.edit(); err != nil {
			t.Fatal(err)
		}
		res, err := BuildCached(d, out, cache)
		if err != nil {
			t.Fatalf("%s: %v", step.name, err)
		}
		if !res.Incremental || res.Rendered == 0 || res.Rendered > step.render || res.SiteWide != step.siteWide {
			t.Errorf("%s: %+v; want an incremental build rendering 1 to %d studies, site-wide files made again: %v",
				step.name, res, step.render, step.siteWide)
		}
		t.Logf("%s: rendered %d of %d studies again", step.name, res.Rendered, res.Studies)
		_, files := buildRepo(t, d)
		want := map[string][]byte(files)
		sameTree(t, step.name, readTree(t, out), want)
		if res.Files != len(want) {
			t.Errorf("%s: the build reports %d files, the site has %d", step.name, res.Files, len(want))
		}
	}
}

func appendTo(name, text string) error {
	f, err := os.OpenFile(name, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	if _, err := f.WriteString(text); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// A torn or edited cache is not trusted, and one that names a file outside
// the site (a cached build removes the files a study no longer writes) is
// ignored: the build is then a full one.
func TestCacheVerified(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	good := &cacheState{Global: "g", Studies: []cachedStudy{{ID: "s", Files: []string{"en/s/index.html"}}}}
	if err := writeCache(dir, good); err != nil {
		t.Fatal(err)
	}
	if st := readCache(dir); st == nil || st.Studies[0].Files[0] != "en/s/index.html" {
		t.Fatalf("the cache just written reads as %+v", st)
	}
	file := filepath.Join(dir, cacheFile)
	data, _ := os.ReadFile(file)
	data[len(data)-3] ^= 1
	os.WriteFile(file, data, 0o644)
	if readCache(dir) != nil {
		t.Error("an edited cache was trusted")
	}
	for _, cs := range []cachedStudy{
		{ID: "s", Files: []string{"../../outside.txt"}},
		{ID: "s", Files: []string{"/etc/passwd"}},
		{ID: "../x", Files: []string{"en/x.md"}},
	} {
		if err := writeCache(dir, &cacheState{Studies: []cachedStudy{cs}}); err != nil {
			t.Fatal(err)
		}
		if readCache(dir) != nil {
			t.Errorf("a cache naming %q %v was trusted", cs.ID, cs.Files)
		}
	}
}

// A Builder keeps the cache in memory: the second build renders only what
// changed, and a failed build makes the next one full.
func TestBuilderInMemory(t *testing.T) {
	t.Parallel()
	dir, d, ids := replicatedTree(t, 4, "")
	out := filepath.Join(dir, "site")
	var b Builder
	if res, err := b.Build(d, out); err != nil || res.Incremental || res.Rendered != 4 {
		t.Fatalf("first build: %+v, %v", res, err)
	}
	if err := appendTo(filepath.Join(d.Results, ids[2], "runs", "vllm-tp8", "sharegpt.log"), "\nINFO: done\n"); err != nil {
		t.Fatal(err)
	}
	if res, err := b.Build(d, out); err != nil || !res.Incremental || res.Rendered != 1 {
		t.Fatalf("one log changed: %+v, %v; want one study rendered again", res, err)
	}
	if _, err := os.Stat(filepath.Join(dir, ".perflab-cache")); err == nil {
		t.Error("a Builder wrote a cache file")
	}
	if _, err := b.Build(Dirs{Results: filepath.Join(dir, "nothing")}, out); err == nil {
		t.Fatal("a build of a missing results folder succeeded")
	}
	if res, err := b.Build(d, out); err != nil || res.Incremental {
		t.Fatalf("after a failed build: %+v, %v; want a full build", res, err)
	}
}

// replicatedTree makes a tree of n studies replicated from the
// repository's, in a temporary folder, with the repository's locales and
// templates: the folder, its Dirs and the studies' ids.
func replicatedTree(t *testing.T, n int, baseURL string) (string, Dirs, []string) {
	t.Helper()
	dir := t.TempDir()
	d := Dirs{Results: filepath.Join(dir, "results"), Content: filepath.Join(dir, "content"),
		Locales: repoDirs.Locales, Templates: repoDirs.Templates, BaseURL: baseURL}
	ids, err := benchtree.Make(repoDirs.Results, repoDirs.Content, d.Results, d.Content, n)
	if err != nil {
		t.Fatal(err)
	}
	return dir, d, ids
}
