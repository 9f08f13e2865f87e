package main

import (
	"bytes"
	"fmt"
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
	if err := appendSummary(file, diags); err != nil {
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
