package importer

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// On a full disk every write error is an error, whichever file it hits,
// and nothing of the import stays: no study folder, no temporary folder,
// no results folder the import made; what was there before is untouched.
func TestWriteFullDisk(t *testing.T) {
	src, err := os.ReadFile("testdata/handwritten_latency.md")
	if err != nil {
		t.Fatal(err)
	}
	s, err := Import("handwritten_latency.md", src)
	if err != nil {
		t.Fatal(err)
	}
	files, err := s.Files()
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 3 {
		t.Fatalf("the study has %d files: too few to stop a write in the middle", len(files))
	}
	for fail := 1; fail <= len(files); fail++ {
		parent := t.TempDir()
		mine := filepath.Join(parent, "results", "other-study", "study.yaml")
		if err := os.MkdirAll(filepath.Dir(mine), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(mine, []byte("hand-written\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		n := 0
		// A full disk: the file is made, part of it written, then ENOSPC.
		full := func(name string, data []byte, perm os.FileMode) error {
			n++
			if n < fail {
				return os.WriteFile(name, data, perm)
			}
			os.WriteFile(name, data[:len(data)/2], perm)
			return &os.PathError{Op: "write", Path: name, Err: syscall.ENOSPC}
		}
		for _, dir := range []string{filepath.Join(parent, "results"), filepath.Join(parent, "new", "results")} {
			n = 0
			err := write(dir, s, full)
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatalf("write %d of %d fails: the import returned %v", fail, len(files), err)
			}
			if got := treeOf(t, parent); got != "results/other-study/study.yaml" {
				t.Errorf("write %d of %d fails into %s: left %q", fail, len(files), dir, got)
			}
		}
		if data, _ := os.ReadFile(mine); string(data) != "hand-written\n" {
			t.Errorf("a file the import did not make changed: %q", data)
		}
	}
}

// treeOf lists the files and empty folders under dir, joined by commas.
func treeOf(t *testing.T, dir string) string {
	t.Helper()
	var out string
	err := filepath.WalkDir(dir, func(p string, e os.DirEntry, err error) error {
		if err != nil || p == dir {
			return err
		}
		if e.IsDir() {
			if entries, _ := os.ReadDir(p); len(entries) > 0 {
				return nil
			}
		}
		rel, _ := filepath.Rel(dir, p)
		if out != "" {
			out += ","
		}
		out += filepath.ToSlash(rel)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
