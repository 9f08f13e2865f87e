//go:build unix

package pipeline

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/perflab/perflab/internal/check"
)

const outsideSecret = "SECRET-OUTSIDE-THE-PROJECT { color: red }"

// withDeadline fails the test if f does not return in time: a build must
// never open a named pipe.
func withDeadline(t *testing.T, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		t.Fatal("the build blocked: a named pipe was opened")
	}
}

// TestLinkedStyleSheetIsNotCopied: templates/style.css linked to a file
// outside the project is a problem on templates/style.css, the build
// fails naming it, and the file outside appears nowhere.
func TestLinkedStyleSheetIsNotCopied(t *testing.T) {
	t.Parallel()
	d := copyTree(t)
	secret := filepath.Join(t.TempDir(), "passwd")
	if err := os.WriteFile(secret, []byte(outsideSecret), 0o644); err != nil {
		t.Fatal(err)
	}
	css := filepath.Join(d.Templates, "style.css")
	os.Remove(css)
	if err := os.Symlink(secret, css); err != nil {
		t.Fatal(err)
	}
	p, err := loadHeld(d)
	if err != nil {
		t.Fatal(err)
	}
	want := check.Diagnostic{Rule: check.RuleSchema, Severity: check.Error, File: filepath.ToSlash(css),
		Message: "is a symbolic link, which perflab never follows: replace it with the file or folder itself"}
	found := false
	for _, diag := range p.Problems {
		found = found || diag == want
	}
	if !found || !p.Failed() {
		t.Errorf("problems = %v\nwant %v, and a failed check", p.Problems, want)
	}
	files, err := siteFiles(d)
	if err == nil || !strings.Contains(err.Error(), want.File) || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("Site: err = %v, want the link named", err)
	}
	for name, data := range files {
		if strings.Contains(string(data), "SECRET") {
			t.Errorf("%s holds the file outside the project", name)
		}
	}
	// The cached build reads templates/ too.
	out := filepath.Join(t.TempDir(), "site")
	if _, err := BuildCached(d, out, filepath.Join(t.TempDir(), "cache")); err == nil || !strings.Contains(err.Error(), want.File) {
		t.Errorf("BuildCached: err = %v, want the link named", err)
	}
	if _, err := os.Stat(filepath.Join(out, "style.css")); err == nil {
		t.Errorf("BuildCached wrote %s", filepath.Join(out, "style.css"))
	}
}

// TestPipesAndLinkedFoldersInResults: a named pipe in place of a log and a
// study folder linked to / are problems on their paths; the build does not
// block and does not walk the link.
func TestPipesAndLinkedFoldersInResults(t *testing.T) {
	t.Parallel()
	d := copyTree(t)
	runs := filepath.Join(d.Results, "qwen3-32b-a100", "runs")
	entries, err := os.ReadDir(runs)
	if err != nil || len(entries) == 0 {
		t.Fatal(err)
	}
	run := filepath.Join(runs, entries[0].Name())
	logs, _ := filepath.Glob(filepath.Join(run, "*.log"))
	if len(logs) == 0 {
		t.Fatalf("no log in %s", run)
	}
	os.Remove(logs[0])
	if err := syscall.Mkfifo(logs[0], 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/", filepath.Join(d.Results, "evil")); err != nil {
		t.Fatal(err)
	}
	locale := filepath.Join(d.Locales, "ja.yaml")
	os.Remove(locale)
	if err := syscall.Mkfifo(locale, 0o644); err != nil {
		t.Fatal(err)
	}
	var p *Project
	withDeadline(t, func() { p, err = loadHeld(d) })
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, diag := range p.Diagnostics() {
		got[diag.File] = diag.Message
	}
	for file, msg := range map[string]string{
		logs[0]:                          "is a named pipe, not a regular file: remove it",
		filepath.Join(d.Results, "evil"): "is a symbolic link, which perflab never follows: replace it with the file or folder itself",
		locale:                           "is a named pipe, not a regular file: remove it",
	} {
		if got[filepath.ToSlash(file)] != msg {
			t.Errorf("%s: %q, want %q", file, got[filepath.ToSlash(file)], msg)
		}
	}
	if !p.Failed() {
		t.Error("the check passes")
	}
	withDeadline(t, func() {
		_, err = BuildCached(d, filepath.Join(t.TempDir(), "site"), filepath.Join(t.TempDir(), "cache"))
	})
	if err == nil {
		t.Error("BuildCached built over a named pipe")
	}
}

// TestLinkedLocalesFolder: locales/ itself linked to a copy elsewhere is a
// problem on locales, not on a file inside it.
func TestLinkedLocalesFolder(t *testing.T) {
	t.Parallel()
	d := copyTree(t)
	moved := filepath.Join(t.TempDir(), "locales")
	if err := os.Rename(d.Locales, moved); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(moved, d.Locales); err != nil {
		t.Fatal(err)
	}
	p, err := loadHeld(d)
	if err != nil {
		t.Fatal(err)
	}
	want := check.Diagnostic{Rule: check.RuleSchema, Severity: check.Error, File: filepath.ToSlash(d.Locales),
		Message: "is a symbolic link, which perflab never follows: replace it with the file or folder itself"}
	if len(p.Problems) != 1 || p.Problems[0] != want {
		t.Errorf("problems = %v\nwant %v", p.Problems, want)
	}
}
