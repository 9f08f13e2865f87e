package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/check"
)

// TestGitHubAnnotationLimit: GitHub shows ten annotations of a kind per
// step, so the rest are counted in a notice and all go to the job summary.
func TestGitHubAnnotationLimit(t *testing.T) {
	var diags []check.Diagnostic
	for i := 1; i <= 12; i++ {
		diags = append(diags, check.Diagnostic{Rule: "claim-mismatch", Severity: check.Error, File: "results/s/study.yaml", Line: i, Message: fmt.Sprintf("problem %d", i)})
	}
	diags = append(diags, check.Diagnostic{Rule: "trade-off", Severity: check.Warning, File: "results/s/study.yaml", Line: 40, Message: "a | b"})
	var out bytes.Buffer
	writeGitHub(&out, diags)
	text := out.String()
	if n := strings.Count(text, "::error "); n != 10 {
		t.Errorf("%d error annotations, want 10:\n%s", n, text)
	}
	if !strings.Contains(text, "::notice title=perflab check::2 more errors are listed in the job summary") {
		t.Errorf("no notice for the two errors left out:\n%s", text)
	}
	if strings.Index(text, "::warning ") < strings.LastIndex(text, "::error ") {
		t.Error("warnings come before the last error")
	}
	file := filepath.Join(t.TempDir(), "summary.md")
	if err := appendSummary(file, io.Discard, diags); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(file)
	if n := strings.Count(string(data), "| error | `claim-mismatch`"); n != 12 {
		t.Errorf("summary lists %d errors, want all 12:\n%s", n, data)
	}
	if !strings.Contains(string(data), `a \| b`) {
		t.Errorf("a | in a message is not escaped in the table:\n%s", data)
	}
}

// A file name or message from a pull request cannot start a workflow
// command of its own, nor break out of the summary's table.
func TestGitHubHostileNames(t *testing.T) {
	diags := []check.Diagnostic{{Rule: "schema", Severity: check.Error, File: "results/a\n::error::pwned,b:c%0A.log", Line: 3,
		Message: "bad\r\n::warning::x | <img src=x onerror=alert(1)> [link](http://x) `code`"}}
	var out bytes.Buffer
	writeGitHub(&out, diags)
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 1 {
		t.Fatalf("%d lines, want one command:\n%s", len(lines), out.String())
	}
	want := "::error file=results/a%0A%3A%3Aerror%3A%3Apwned%2Cb%3Ac%250A.log,line=3,title=schema::bad%0A::warning::x | <img src=x onerror=alert(1)> [link](http://x) `code`"
	if lines[0] != want {
		t.Errorf("got  %s\nwant %s", lines[0], want)
	}
	file := filepath.Join(t.TempDir(), "summary.md")
	if err := appendSummary(file, io.Discard, diags); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(file)
	var rows []string
	for _, l := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(l, "| ") {
			rows = append(rows, l)
		}
	}
	if len(rows) != 3 {
		t.Fatalf("the table has %d lines, want a header, its rule and one row:\n%s", len(rows), data)
	}
	rows = rows[1:]
	for _, bad := range []string{"<img", "](", "`code`"} {
		if strings.Contains(strings.ReplaceAll(rows[1], `\`+bad[:1], ""), bad) {
			t.Errorf("%q is not escaped in %s", bad, rows[1])
		}
	}
	if strings.Count(rows[1], " | ") != 3 {
		t.Errorf("the row does not have four cells: %s", rows[1])
	}
}
