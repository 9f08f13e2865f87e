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

// A head whose study.yaml no longer parses, or has an unknown key, gets
// check's own verdict in the summary: it fails, with its counts, and the
// schema error is named with its place.
func TestSummaryCarriesCheckVerdict(t *testing.T) {
	repo, err := filepath.Abs(filepath.Join("..", "..", "results"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ name, edit, want string }{
		{"broken YAML", "objective_x: [oops\n", "`results/qwen3-32b-a100/study.yaml:2`: `schema`: invalid YAML"},
		{"unknown key", "bogus_key: 1\n", "`results/qwen3-32b-a100/study.yaml:2`: `schema`: study\\: unknown field"},
	} {
		t.Run(c.name, func(t *testing.T) {
			copyRepo(t)
			file := filepath.Join("results", "qwen3-32b-a100", "study.yaml")
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			first, rest, _ := strings.Cut(string(data), "\n")
			if err := os.WriteFile(file, []byte(first+"\n"+c.edit+rest), 0o644); err != nil {
				t.Fatal(err)
			}
			_, _, checkErr := perflab(t, "check")
			out, stderr, err := perflab(t, "summary", "--base", repo, "--head", "results")
			if err != nil {
				t.Fatalf("summary: %v\n%s", err, stderr)
			}
			if exitCode(checkErr) != 1 {
				t.Fatalf("check exits %d, want 1", exitCode(checkErr))
			}
			for _, want := range []string{"**perflab check** on this change fails (exit 1): ", "(on the base it passes: 0 errors", c.want} {
				if !strings.Contains(out, want) {
					t.Errorf("summary lacks %q:\n%s", want, out)
				}
			}
			if strings.Contains(out, "| 0 errors, 0 warnings, 0 acknowledged |") || strings.Contains(out, "on 0 ×") {
				t.Errorf("summary says the broken study passes:\n%s", out)
			}
		})
	}
}
