package site

import (
	"os"
	"path/filepath"
	"testing"
)

// commitKeeping builds a site of files into dir, bringing the spare up to
// date when it holds build use, and keeps the old site as the spare of
// build keep. Files not given are kept as the spare holds them.
func commitKeeping(t *testing.T, dir, use, keep string, files Files, all []string) bool {
	t.Helper()
	w, err := Create(dir)
	if err != nil {
		t.Fatal(err)
	}
	reused, err := w.UseSpare(use)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range all {
		switch {
		case files[name] != nil:
			err = w.Add(name, files[name])
		case reused:
			err = w.Keep(name)
		default:
			err = w.Link(name, filepath.Join(dir, name))
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if reused {
		if err := w.RemoveOthers([]string{"a", "b", "c"}); err != nil {
			t.Fatal(err)
		}
	}
	w.KeepSpare(keep)
	if err := w.Commit(); err != nil {
		t.Fatal(err)
	}
	return reused
}

func readOr(p string) string {
	data, err := os.ReadFile(p)
	if err != nil {
		return "(none)"
	}
	return string(data)
}

// The spare is used only under the token it was kept with; a file it
// shares with the site is replaced, never written in place, so the site
// does not change while the spare does; files that no longer belong go.
func TestSpare(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "site")
	if err := Write(dir, Files{"a": []byte("a1"), "b": []byte("b1")}); err != nil {
		t.Fatal(err)
	}
	// Build 2 links a, writes b: the old site (build 1) becomes the spare.
	if commitKeeping(t, dir, "", "build-1", Files{"b": []byte("b2")}, []string{"a", "b"}) {
		t.Fatal("used a spare that was never kept")
	}
	spare := sparePath(dir)
	if got := readOr(filepath.Join(spare, spareStamp)); got != "build-1" {
		t.Fatalf("the spare's stamp: %q", got)
	}
	// Build 3 from the spare: a written anew (it shares a's inode with
	// the site), b as build 2 wrote it, c new.
	w, err := Create(dir)
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := w.UseSpare("build-1"); !ok || err != nil {
		t.Fatalf("the spare of build-1 was not used: %v", err)
	}
	if err := w.Add("a", []byte("a3")); err != nil {
		t.Fatal(err)
	}
	if got := readOr(filepath.Join(dir, "a")); got != "a1" {
		t.Fatalf("writing the spare changed the site's file: %q", got)
	}
	if err := w.Link("b", filepath.Join(dir, "b")); err != nil {
		t.Fatal(err)
	}
	if err := w.Add("c", []byte("c3")); err != nil {
		t.Fatal(err)
	}
	w.KeepSpare("build-2")
	if err := w.Commit(); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"a": "a3", "b": "b2", "c": "c3", spareMarker: "(none)", spareStamp: "(none)"} {
		if got := readOr(filepath.Join(dir, name)); got != want {
			t.Errorf("site %s: %q, want %q", name, got, want)
		}
	}
	// Build 4 drops c: the spare (build 2) has no c; then the stale stamp.
	if !commitKeeping(t, dir, "build-2", "build-3", Files{"a": []byte("a4")}, []string{"a", "b"}) {
		t.Fatal("the spare of build-2 was not used")
	}
	for name, want := range map[string]string{"a": "a4", "b": "b2", "c": "(none)"} {
		if got := readOr(filepath.Join(dir, name)); got != want {
			t.Errorf("site %s: %q, want %q", name, got, want)
		}
	}
	if commitKeeping(t, dir, "build-2", "", Files{"a": []byte("a5"), "b": []byte("b5")}, []string{"a", "b"}) {
		t.Error("used the spare under another build's token")
	}
	if _, err := os.Lstat(spare); err == nil {
		t.Error("a build that keeps no spare left one")
	}
}

// A spare killed while being brought up to date is never used; a folder
// in the spare's place that perflab did not make is never removed.
func TestSpareNotTrusted(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "site")
	if err := Write(dir, Files{"a": []byte("a1")}); err != nil {
		t.Fatal(err)
	}
	commitKeeping(t, dir, "", "build-1", Files{"a": []byte("a2")}, []string{"a"})
	spare := sparePath(dir)
	// Killed after taking the spare: its stamp became the marker.
	if err := os.Rename(filepath.Join(spare, spareStamp), filepath.Join(spare, spareMarker)); err != nil {
		t.Fatal(err)
	}
	if commitKeeping(t, dir, "build-1", "", Files{"a": []byte("a3")}, []string{"a"}) {
		t.Error("used a spare marked as being updated")
	}
	if err := os.MkdirAll(filepath.Join(spare, "mine"), 0o755); err != nil {
		t.Fatal(err)
	}
	commitKeeping(t, dir, "build-1", "", Files{"a": []byte("a4")}, []string{"a"})
	if _, err := os.Stat(filepath.Join(spare, "mine")); err != nil {
		t.Errorf("a folder perflab did not make was removed: %v", err)
	}
}
