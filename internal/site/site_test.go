package site_test

import (
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/site"
)

// tree returns every file under dir with its content, and every directory
// with a trailing slash.
func tree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel != "." {
				out[rel+"/"] = ""
			}
			return nil
		}
		data, err := os.ReadFile(p)
		if rel == site.Stamp { // every site has it; TestStamp checks it
			return err
		}
		out[rel] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func entries(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

func files(t *testing.T, kv ...string) site.Files {
	t.Helper()
	f := site.Files{}
	for i := 0; i < len(kv); i += 2 {
		if err := f.Add(kv[i], []byte(kv[i+1])); err != nil {
			t.Fatal(err)
		}
	}
	return f
}

func TestWriteAndReplace(t *testing.T) {
	parent := t.TempDir()
	out := filepath.Join(parent, "site")
	first := files(t,
		"index.html", "<h1>index</h1>",
		"style.css", "body{}",
		"en/x/index.html", "en x",
		"en/x.md", "# x",
		"zh/x/index.html", "zh x",
	)
	if err := site.Write(out, first); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"index.html": "<h1>index</h1>", "style.css": "body{}",
		"en/": "", "en/x/": "", "en/x/index.html": "en x", "en/x.md": "# x",
		"zh/": "", "zh/x/": "", "zh/x/index.html": "zh x",
	}
	if got := tree(t, out); !maps.Equal(got, want) {
		t.Errorf("first site = %v\nwant %v", got, want)
	}
	// A file someone left in the site is not kept either.
	if err := os.WriteFile(filepath.Join(out, "stray.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}

	second := files(t, "index.html", "<h1>new</h1>", "en/x/index.html", "en x v2")
	if err := site.Write(out, second); err != nil {
		t.Fatal(err)
	}
	want = map[string]string{"index.html": "<h1>new</h1>", "en/": "", "en/x/": "", "en/x/index.html": "en x v2"}
	if got := tree(t, out); !maps.Equal(got, want) {
		t.Errorf("second site = %v\nwant %v (stale files and folders removed)", got, want)
	}
	if got := entries(t, parent); !slices.Equal(got, []string{"site"}) {
		t.Errorf("parent holds %v, want only site (no temporary or old folder left)", got)
	}
	info, err := os.Stat(out)
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o755 {
		t.Errorf("site folder mode %v, want 0755", info.Mode().Perm())
	}
}

func TestWriteCreatesParent(t *testing.T) {
	out := filepath.Join(t.TempDir(), "a", "b", "site")
	if err := site.Write(out, files(t, "index.html", "x")); err != nil {
		t.Fatal(err)
	}
	if got := tree(t, out); !maps.Equal(got, map[string]string{"index.html": "x"}) {
		t.Errorf("site = %v", got)
	}
}

func TestWriteEmpty(t *testing.T) {
	out := filepath.Join(t.TempDir(), "site")
	if err := site.Write(out, files(t, "index.html", "x")); err != nil {
		t.Fatal(err)
	}
	if err := site.Write(out, site.Files{}); err != nil {
		t.Fatal(err)
	}
	if got := tree(t, out); len(got) != 0 {
		t.Errorf("site = %v, want an empty folder", got)
	}
}

// TestWriteFailureKeepsOldSite: a site that cannot be written (a file "a"
// and a file "a/b" that needs "a" to be a folder) leaves the previous site
// byte for byte, and no temporary folder behind.
func TestWriteFailureKeepsOldSite(t *testing.T) {
	parent := t.TempDir()
	out := filepath.Join(parent, "site")
	if err := site.Write(out, files(t, "index.html", "old index", "en/x/index.html", "old x")); err != nil {
		t.Fatal(err)
	}
	before := tree(t, out)
	bad := files(t, "index.html", "new index", "a", "file", "a/b", "needs a folder")
	err := site.Write(out, bad)
	if err == nil {
		t.Fatal("Write of a and a/b succeeded")
	}
	if got := tree(t, out); !maps.Equal(got, before) {
		t.Errorf("after a failed Write the site is %v\nwant %v", got, before)
	}
	if got := entries(t, parent); !slices.Equal(got, []string{"site"}) {
		t.Errorf("parent holds %v, want only site (temporary folder left behind)", got)
	}
}

func TestWriteFailureWithoutOldSite(t *testing.T) {
	parent := t.TempDir()
	out := filepath.Join(parent, "site")
	if err := site.Write(out, files(t, "a", "file", "a/b", "x")); err == nil {
		t.Fatal("Write of a and a/b succeeded")
	}
	if got := entries(t, parent); len(got) != 0 {
		t.Errorf("parent holds %v after a failed first Write, want nothing", got)
	}
}

func TestAdd(t *testing.T) {
	f := site.Files{}
	for _, name := range []string{"index.html", "en/x/index.html", "a.b/c..d.md"} {
		if err := f.Add(name, []byte(name)); err != nil {
			t.Errorf("Add(%q) = %v", name, err)
		}
	}
	for _, name := range []string{"../x", "..", ".", "", "/abs", "/", "a/../b", "a/./b", "./a", "a//b", "a/", "en/../../x", "a/.."} {
		if err := f.Add(name, []byte("x")); err == nil || !strings.Contains(err.Error(), "refusing output path") {
			t.Errorf("Add(%q) = %v, want a refusal", name, err)
		}
	}
	err := f.Add("index.html", []byte("again"))
	if err == nil || err.Error() != `site: two pages want the path "index.html"` {
		t.Errorf("duplicate Add = %v", err)
	}
	if string(f["index.html"]) != "index.html" {
		t.Errorf("duplicate Add replaced the first file's bytes: %q", f["index.html"])
	}
	if got := f.Names(); !slices.Equal(got, []string{"a.b/c..d.md", "en/x/index.html", "index.html"}) {
		t.Errorf("Names = %v", got)
	}
}

// A folder perflab did not build is never replaced: a mistyped --out must
// not delete the inputs or anyone's files.
func TestCreateRefusesForeignFolder(t *testing.T) {
	root := t.TempDir()
	inputs := filepath.Join(root, "results")
	os.MkdirAll(filepath.Join(inputs, "study"), 0o755)
	os.WriteFile(filepath.Join(inputs, "study", "study.yaml"), []byte("model: x\n"), 0o644)
	file := filepath.Join(root, "notes.txt")
	os.WriteFile(file, []byte("mine"), 0o644)
	link := filepath.Join(root, "link")
	os.Symlink(inputs, link)
	for _, dir := range []string{inputs, root, file, link} {
		if _, err := site.Create(dir); err == nil {
			t.Errorf("Create(%s) accepted a folder perflab did not build", dir)
		}
		if err := site.Write(dir, site.Files{"index.html": []byte("x")}); err == nil {
			t.Errorf("Write(%s) replaced a folder perflab did not build", dir)
		}
	}
	if data, err := os.ReadFile(filepath.Join(inputs, "study", "study.yaml")); err != nil || string(data) != "model: x\n" {
		t.Fatalf("the inputs changed: %q, %v", data, err)
	}
	if err := site.CheckDestination(inputs); err == nil || !strings.Contains(err.Error(), "perflab did not build") {
		t.Errorf("the refusal does not say why: %v", err)
	}
	// An empty folder, a missing one and a site perflab built are fine.
	empty := filepath.Join(root, "empty")
	os.Mkdir(empty, 0o755)
	for _, dir := range []string{empty, filepath.Join(root, "new"), empty} {
		if err := site.Write(dir, site.Files{"index.html": []byte("x")}); err != nil {
			t.Errorf("Write(%s): %v", dir, err)
		}
	}
	if data, err := os.ReadFile(filepath.Join(empty, site.Stamp)); err != nil || len(data) == 0 {
		t.Errorf("the site has no stamp: %v", err)
	}
}

// A file written in pieces lands whole, can be read back before the commit,
// and takes its path as Add does: once.
func TestCreateInPieces(t *testing.T) {
	out := filepath.Join(t.TempDir(), "site")
	w, err := site.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	f, err := w.Create("data/all.csv")
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Repeat("row,1\n", 50000) // past the write buffer
	for line := range strings.Lines(want) {
		if _, err := f.Write([]byte(line)); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if got, err := w.ReadFile("data/all.csv"); err != nil || string(got) != want {
		t.Errorf("read back %d bytes, %v; want %d bytes", len(got), err, len(want))
	}
	if _, err := w.ReadFile("data/none.csv"); err == nil {
		t.Error("a file never added was read back")
	}
	if _, err := w.Create("data/all.csv"); err == nil {
		t.Error("a path was created twice")
	}
	if _, err := w.Create("../out.csv"); err == nil {
		t.Error("a path leaving the site was created")
	}
	if err := w.Commit(); err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(filepath.Join(out, "data", "all.csv")); err != nil || string(got) != want {
		t.Errorf("committed %d bytes, %v; want %d bytes", len(got), err, len(want))
	}
}
