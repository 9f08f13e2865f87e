package pipeline

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/check"
)

// TestNonFiniteFigureRefused: a change against a zero throughput would
// print "+Inf %": check says so, naming the two values and their logs, and
// the build refuses instead of printing it.
func TestNonFiniteFigureRefused(t *testing.T) {
	t.Parallel()
	d, _ := oneStudyTree(t, seedStudy)
	file := filepath.Join(d.Results, seedStudy, "runs", "vllm-max-model-len", "sharegpt.log")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(data), "Total Token throughput (tok/s):          1730.98", "Total Token throughput (tok/s):          0.00", 1)
	if edited == string(data) {
		t.Fatal("the log has no such throughput line")
	}
	if err := os.WriteFile(file, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := loadHeld(d)
	if err != nil {
		t.Fatal(err)
	}
	var found []string
	for _, diag := range p.Diagnostics() {
		if diag.Rule == check.RuleNonFinite {
			found = append(found, diag.String())
		}
	}
	if len(found) == 0 || !strings.Contains(found[0], "+Inf") || !strings.Contains(found[0], "runs/vllm-max-model-len/sharegpt.log:10") {
		t.Logf("%v", found)
		t.Fatalf("non-finite diagnostics %v, want one naming +Inf and the zero's log line", found)
	}
	if err := buildToDisk(t, d); err == nil || !strings.Contains(err.Error(), "cannot build") || !strings.Contains(err.Error(), check.RuleNonFinite) {
		t.Errorf("build error %v, want a refusal over the non-finite figure", err)
	}
}
