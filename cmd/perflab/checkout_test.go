package main

import (
	"os"
	"strings"
	"testing"
)

// TestCheckOutput: on the repository, whose problems are all acknowledged,
// check prints one count line for them and the total; -v lists them.
func TestCheckOutput(t *testing.T) {
	flags := copyRepo(t)
	out, _, err := perflab(t, append([]string{"check"}, flags...)...)
	if err != nil {
		t.Fatalf("check: %v\n%s", err, out)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], "acknowledged problems not listed (perflab check -v") ||
		!strings.HasPrefix(lines[1], "0 errors, 0 warnings, ") {
		t.Errorf("check on a clean repository printed:\n%s", out)
	}
	verbose, _, err := perflab(t, append([]string{"check", "-v"}, flags...)...)
	if err != nil || !strings.Contains(verbose, "acknowledged:\n") || !strings.Contains(verbose, "    acknowledged: ") {
		t.Errorf("check -v (%v) does not list the acknowledged problems:\n%s", err, verbose)
	}

	// An unacknowledged problem comes first, alone; the acknowledged
	// ones stay a count.
	yml, err := os.ReadFile("results/qwen3-32b-a100/study.yaml")
	if err != nil {
		t.Fatal(err)
	}
	broken := strings.Replace(string(yml), `printed: "+18.7%"`+"\n    source: \"qwen3-32b__a100.md:336\"", `printed: "+19.9%"`+"\n    source: \"qwen3-32b__a100.md:336\"", 1)
	if err := os.WriteFile("results/qwen3-32b-a100/study.yaml", []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, err = perflab(t, append([]string{"check"}, flags...)...)
	if exitCode(err) != 1 {
		t.Fatalf("check with a wrong claim: %v\n%s", err, out)
	}
	lines = strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 4 || lines[0] != "qwen3-32b-a100" || !strings.Contains(lines[1], "error: claim-mismatch") ||
		!strings.Contains(lines[2], "acknowledged problems not listed") || !strings.HasPrefix(lines[3], "1 errors, 0 warnings, ") {
		t.Errorf("check with one unacknowledged error printed:\n%s", out)
	}
}

// TestCheckUnknownStudy: --study with an id the results folder does not
// have exits 2 and lists the ids it has.
func TestCheckUnknownStudy(t *testing.T) {
	flags := copyRepo(t)
	_, stderr, err := perflab(t, append([]string{"check", "--study", "nope"}, flags...)...)
	if exitCode(err) != 2 || !strings.Contains(stderr, `--study "nope" is not a study of results; known studies: example-qwen3-8b-l40s, qwen3-235b-a22b-a100, qwen3-32b-a100`) {
		t.Errorf("check --study nope: exit %d, stderr:\n%s", exitCode(err), stderr)
	}
}

// TestCheckSaysANewRunLeadsAStep: a run added to a study and listed in a
// step it then leads makes the step's published change disagree; check
// names that run as the cause, not only "correct the published figure".
func TestCheckSaysANewRunLeadsAStep(t *testing.T) {
	flags := copyRepo(t)
	// A faster ShareGPT result than the step's: another study's, whose
	// copy check only warns of.
	raw, err := os.ReadFile("results/qwen3-235b-a22b-a100/runs/sglang-tp8/sharegpt.log")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("sharegpt.log", raw, 0o644); err != nil {
		t.Fatal(err)
	}
	if out, stderr, err := perflab(t, "add", "--study", "qwen3-32b-a100", "--run", "trtllm-new", "--command", "trtllm-serve Qwen/Qwen3-32B --kv_cache_free_gpu_memory_fraction 0.95", "sharegpt.log"); err != nil {
		t.Logf("add: %v\n%s%s", err, out, stderr)
	}
	yml, err := os.ReadFile("results/qwen3-32b-a100/study.yaml")
	if err != nil {
		t.Fatal(err)
	}
	listed := strings.Replace(string(yml), "runs: [vllm-max-model-len, sglang, trtllm]", "runs: [vllm-max-model-len, sglang, trtllm, trtllm-new]", 1)
	if err := os.WriteFile("results/qwen3-32b-a100/study.yaml", []byte(listed), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, _ := perflab(t, append([]string{"check"}, flags...)...)
	if !strings.Contains(out, "the logs make run trtllm-new the best of step engine (results/qwen3-32b-a100/runs/trtllm-new/run.yaml): if that run was added after the publication") {
		t.Errorf("check does not name the new run as the cause:\n%s", out)
	}
}
