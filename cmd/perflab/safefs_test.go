//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestHostileTree: a pull request's results/, content/ and templates/ with
// a log and style.css linked to a file outside and a named pipe for a
// content file. perflab check and build end in time, name each path as the
// project does, fail, and never show the file outside.
func TestHostileTree(t *testing.T) {
	flags := copyRepo(t)
	secret := filepath.Join(t.TempDir(), "passwd")
	if err := os.WriteFile(secret, []byte("root:x:0:0:SECRET-OUTSIDE"), 0o644); err != nil {
		t.Fatal(err)
	}
	logs, _ := filepath.Glob("results/qwen3-32b-a100/runs/*/*.log")
	if len(logs) == 0 {
		t.Fatal("no log in the copy")
	}
	log := filepath.ToSlash(logs[0])
	for _, name := range []string{log, "templates/style.css"} {
		os.Remove(name)
		if err := os.Symlink(secret, name); err != nil {
			t.Fatal(err)
		}
	}
	pipe := "content/en/qwen3-32b-a100.md"
	os.Remove(pipe)
	if err := syscall.Mkfifo(pipe, 0o644); err != nil {
		t.Fatal(err)
	}
	link := "is a symbolic link, which perflab never follows: replace it with the file or folder itself"
	for _, args := range [][]string{
		append([]string{"check"}, flags...),
		append([]string{"check", "--format", "github"}, flags...),
		append([]string{"build", "--out", "out"}, flags...),
	} {
		type result struct {
			stdout, stderr string
			err            error
		}
		done := make(chan result, 1)
		go func() {
			stdout, stderr, err := perflab(t, args...)
			done <- result{stdout, stderr, err}
		}()
		var r result
		select {
		case r = <-done:
		case <-time.After(60 * time.Second):
			t.Fatalf("perflab %s blocked: a named pipe was opened", args[0])
		}
		all := r.stdout + r.stderr
		if r.err != nil {
			all += r.err.Error()
		}
		if exitCode(r.err) != 1 {
			t.Errorf("perflab %s: exit %d, want 1", strings.Join(args[:len(args)-len(flags)], " "), exitCode(r.err))
		}
		if strings.Contains(all, "SECRET") {
			t.Errorf("perflab %s shows the file outside:\n%s", args[0], all)
		}
		if strings.Contains(all, secret) {
			t.Errorf("perflab %s names the link's target:\n%s", args[0], all)
		}
		if args[0] == "build" {
			// The build stops at the first schema error and writes nothing.
			if r.err == nil || !strings.Contains(r.err.Error(), "cannot build: ") || !strings.Contains(r.err.Error(), link) {
				t.Errorf("perflab build: err = %v, want a link named", r.err)
			}
			if _, err := os.Stat("out"); err == nil {
				t.Error("perflab build wrote out/")
			}
			continue
		}
		for _, want := range []string{log, "templates/style.css"} {
			if !strings.Contains(all, want+": error: schema: "+link) && !strings.Contains(all, "file="+want+",line=1,title=schema::"+link) {
				t.Errorf("perflab %s does not name %s:\n%s", strings.Join(args, " "), want, all)
			}
		}
		if !strings.Contains(all, pipe) || !strings.Contains(all, "is a named pipe, not a regular file: remove it") {
			t.Errorf("perflab %s does not name %s:\n%s", args[0], pipe, all)
		}
	}
}
