package check

import (
	"fmt"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/benchlog"
	"github.com/perflab/perflab/internal/study"
)

// repeatsRun is a run with one numbered log of sharegpt per text.
func repeatsRun(t *testing.T, texts ...string) *study.Run {
	t.Helper()
	r := newRun("r", "vllm serve "+model32B+" -tp 8", 8, "")
	for i, text := range texts {
		file := fmt.Sprintf("results/test/runs/r/sharegpt.run-%d.log", i+1)
		blocks, err := benchlog.Parse(file, strings.NewReader(text))
		if err != nil || len(blocks) == 0 {
			t.Fatal(err, len(blocks))
		}
		r.Logs = append(r.Logs, study.Log{Workload: "sharegpt", Repeat: i + 1, File: file, Raw: []byte(text), Blocks: blocks})
	}
	return r
}

func TestRepeatData(t *testing.T) {
	other := edit(t, sharegptLog, "Total input tokens:", "215000")
	s := newStudy(model32B, 8, repeatsRun(t, sharegptLog, other, sharegptLog))
	d := byRule(assessed(s).Diagnostics, RuleSameData)
	if len(d) != 1 {
		t.Fatalf("%d same-data diagnostics, want 1: %v", len(d), d)
	}
	wantDiag(t, d[0], RuleSameData, Error, "results/test/runs/r/sharegpt.run-2.log", 4, "r/sharegpt",
		"repeat 2 of run r on sharegpt has total_input_tokens 215000", "first repeat (results/test/runs/r/sharegpt.run-1.log:4) has 217393")

	// The same data in every repeat, and throughputs that differ: quiet.
	faster := edit(t, sharegptLog, "Total Token throughput (tok/s):", "3800.00")
	s = newStudy(model32B, 8, repeatsRun(t, sharegptLog, faster, sharegptLog))
	if d := byRule(assessed(s).Diagnostics, RuleSameData); len(d) != 0 {
		t.Errorf("same data, diagnostics %v", d)
	}

	// A random workload drifts by a few tokens per prompt: quiet.
	s = newStudy(model32B, 8, repeatsRun(t, sharegptLog, edit(t, sharegptLog, "Total input tokens:", "217000")))
	s.Workloads[0].Dataset = "random"
	if d := byRule(assessed(s).Diagnostics, RuleSameData); len(d) != 0 {
		t.Errorf("random drift, diagnostics %v", d)
	}
}
