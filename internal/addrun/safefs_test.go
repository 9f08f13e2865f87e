//go:build unix

package addrun

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAddRefusesLinkedStudy: perflab add reads the study as the build
// does: a study.yaml linked to a file outside is named, not read.
func TestAddRefusesLinkedStudy(t *testing.T) {
	results := tree(t)
	outside := writeTest(t, filepath.Join(t.TempDir(), "study.yaml"), studyYAML)
	file := filepath.Join(results, "ex", "study.yaml")
	os.Remove(file)
	if err := os.Symlink(outside, file); err != nil {
		t.Fatal(err)
	}
	good := writeTest(t, filepath.Join(t.TempDir(), "random-1k.log"), random1kBlock)
	_, err := Add(Options{Results: results, Study: "ex", Run: "x", Logs: []string{good}})
	want := filepath.ToSlash(file) + ":0: is a symbolic link, which perflab never follows"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("error %v, want one containing %q", err, want)
	}
	if _, err := os.Lstat(filepath.Join(results, "ex", "runs", "x")); err == nil {
		t.Error("the run was added")
	}
}
