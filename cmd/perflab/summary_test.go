package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestSummaryNoChange(t *testing.T) {
	repo, err := filepath.Abs(filepath.Join("..", "..", "results"))
	if err != nil {
		t.Fatal(err)
	}
	copyRepo(t)
	out, stderr, err := perflab(t, "summary", "--base", repo, "--head", "results")
	if err != nil {
		t.Fatalf("summary: %v\n%s", err, stderr)
	}
	if !strings.Contains(out, fmt.Sprintf("No change in meaning: the %d reports", repoStudies(t))) || strings.Contains(out, "| --- |") {
		t.Errorf("summary of identical trees:\n%s", out)
	}
}

func TestSummaryChanges(t *testing.T) {
	repo, err := filepath.Abs(filepath.Join("..", "..", "results"))
	if err != nil {
		t.Fatal(err)
	}
	copyRepo(t)
	// The change: one study removed, one headline number of the other changed.
	if err := os.RemoveAll(filepath.Join("results", "qwen3-235b-a22b-a100")); err != nil {
		t.Fatal(err)
	}
	log := filepath.Join("results", "qwen3-32b-a100", "runs", "trtllm", "sharegpt.log")
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	changed := strings.Replace(string(data), "2054.21", "2154.21", 1)
	if changed == string(data) {
		t.Fatal("the log no longer prints 2054.21")
	}
	os.WriteFile(log, []byte(changed), 0o644)

	out, stderr, err := perflab(t, "summary", "--base", repo, "--head", "results")
	if err != nil {
		t.Fatalf("summary: %v\n%s", err, stderr)
	}
	for _, want := range []string{
		fmt.Sprintf("2 of %d reports change.", repoStudies(t)),
		"| report | what | base | this change |",
		"| qwen3-235b-a22b-a100 | report removed | Qwen/Qwen3-235B-A22B-Instruct-2507 on 8 × NVIDIA A100 SXM 80GB, throughput | — |",
		`| qwen3-32b-a100 | conclusion sharegpt | 1730.98 → 2054.21 tok/s \(+18.7 %\) | 1730.98 → 2154.21 tok/s \(+24.5 %\) |`,
		"| qwen3-32b-a100 | step engine |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}
	for _, unchanged := range []string{"| qwen3-32b-a100 | recommended |", "conclusion random-4k"} {
		if strings.Contains(out, unchanged) {
			t.Errorf("summary lists %q, which did not change:\n%s", unchanged, out)
		}
	}
}

func TestSummaryMissingBase(t *testing.T) {
	copyRepo(t)
	out, _, err := perflab(t, "summary", "--base", "no-such-folder", "--head", "results")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "| qwen3-32b-a100 | new report | — |") {
		t.Errorf("summary against a missing base:\n%s", out)
	}
}

func TestMarkdownCells(t *testing.T) {
	got := mdFact(fact{value: "a <script>alert(1)</script> | b\nc", code: "vllm serve x | tee `log`\n--tp 2"})
	want := "a \\<script\\>alert\\(1\\)\\</script\\> \\| b ⏎ c ``vllm serve x \\| tee `log` ⏎ --tp 2``"
	if got != want {
		t.Errorf("mdFact =\n %s\nwant\n %s", got, want)
	}
}

// repoStudies is the number of studies in the repository's results/.
func repoStudies(t *testing.T) int {
	t.Helper()
	_, self, _, _ := runtime.Caller(0) // tests change the working directory
	found, err := filepath.Glob(filepath.Join(filepath.Dir(self), "..", "..", "results", "*", "study.yaml"))
	if err != nil || len(found) == 0 {
		t.Fatalf("no study in results/: %v", err)
	}
	return len(found)
}
