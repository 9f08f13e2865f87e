package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestParseAndCheckAgreeOnCROnlyLog: a log whose lines end in a carriage
// return alone is refused by perflab parse (exit 1) and by perflab check,
// with one message at line 1; parse printed an empty block and exited 0.
func TestParseAndCheckAgreeOnCROnlyLog(t *testing.T) {
	flags := copyRepo(t)
	file := filepath.Join("results", "qwen3-32b-a100", "runs", "sglang", "sharegpt.log")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(strings.ReplaceAll(string(data), "\n", "\r")), 0o644); err != nil {
		t.Fatal(err)
	}
	const msg = "the lines of this log end in a carriage return alone"
	stdout, stderr, err := perflab(t, "parse", file)
	if code := exitCode(err); code != 1 {
		t.Errorf("parse: exit status %d (%v), want 1", code, err)
	}
	if !strings.HasPrefix(stderr, file+":1: "+msg) || strings.TrimSpace(stdout) != "[]" {
		t.Errorf("parse: stdout %q, stderr %q; want no block and %s:1: %s", stdout, stderr, file, msg)
	}
	stdout, _, err = perflab(t, append([]string{"check"}, flags...)...)
	if code := exitCode(err); code != 1 {
		t.Errorf("check: exit status %d (%v), want 1", code, err)
	}
	if !strings.Contains(stdout, filepath.ToSlash(file)+":1: error: schema: "+msg) {
		t.Errorf("check does not say %q at %s:1:\n%s", msg, file, stdout)
	}
}
