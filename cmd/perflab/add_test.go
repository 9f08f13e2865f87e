package main

import (
	"os"
	"strings"
	"testing"
)

func TestAdd(t *testing.T) {
	flags := copyRepo(t)
	raw, err := os.ReadFile("results/qwen3-32b-a100/runs/vllm/random-4k.log")
	if err != nil {
		t.Fatal(err)
	}
	// The contributor's own log: the serving command, the benchmark's
	// Namespace dump and progress bar, then the block (another duration,
	// so that it is not a copy).
	block := strings.NewReplacer("1141.94", "1141.95", "1837.08", "1837.06").Replace(string(raw))
	log := "$ vllm serve Qwen/Qwen3-32B --max-num-seqs 128\n" +
		"Namespace(subparser='bench', model='Qwen/Qwen3-32B', dataset_name='random', random_input_len=4000, random_output_len=200, num_prompts=500, seed=42)\n" +
		"100%|██████████| 500/500 [19:01<00:00,  2.28s/it]" + block
	if err := os.WriteFile("bench.txt", []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}

	stdout, _, err := perflab(t, "add", "--study", "qwen3-32b-a100", "--run", "vllm-seqs", "bench.txt")
	addedWithGuesses(t, stdout, err)
	for _, want := range []string{
		"added results/qwen3-32b-a100/runs/vllm-seqs/\n",
		"  random-4k.log  <- bench.txt (guessed from ",
		"model: Qwen/Qwen3-32B (from the model the serving command serves)\n",
		"  engine: vllm  (from the serving command in bench.txt:1)\n",
		// The new run is in no step yet: add says where to put it.
		"perflab check --study qwen3-32b-a100:\n",
		"warning: unplaced-run: run vllm-seqs is in no step",
		"(steps: engine, quantization,",
		"run.yaml:5: error: unreviewed-guess: 4 values were inferred and nobody has confirmed them yet: name: vllm-seqs (line 5, guessed from --run (the label readers see in tables)); engine: vllm (line 6,",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	got, err := os.ReadFile("results/qwen3-32b-a100/runs/vllm-seqs/random-4k.log")
	if err != nil || string(got) != log {
		t.Errorf("random-4k.log is not bench.txt byte for byte (%v)", err)
	}
	// Once the guesses are confirmed, the whole tree checks.
	confirmGuesses(t, "results")
	if out, _, err := perflab(t, append([]string{"check"}, flags...)...); err != nil || !strings.Contains(lastLine(out), "0 errors, 1 warnings, ") {
		t.Errorf("check after add: %v\n%s", err, out)
	}

	// Never twice.
	_, _, err = perflab(t, "add", "--study", "qwen3-32b-a100", "--run", "vllm-seqs", "bench.txt")
	if exitCode(err) != 1 || !strings.Contains(err.Error(), "already exists") {
		t.Errorf("second add: %v", err)
	}

	// A run with an error in its log is added, and the command fails.
	bad := strings.Replace(log, "1141.95", "1041.95", 1)
	if err := os.WriteFile("bad.txt", []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, err := perflab(t, "add", "--study", "qwen3-32b-a100", "--run", "vllm-bad", "bad.txt")
	if exitCode(err) != 1 || !strings.Contains(stdout, "error: log-arithmetic:") || !strings.Contains(stderr, "the run was added") {
		t.Errorf("add of a bad log: %v\n%s%s", err, stdout, stderr)
	}

	// Usage errors.
	for _, args := range [][]string{{"add"}, {"add", "--study", "qwen3-32b-a100", "bench.txt"}, {"add", "--study", "x", "--run", "y"}, {"add", "--bogus"}} {
		if _, _, err := perflab(t, args...); exitCode(err) != 2 {
			t.Errorf("%q: exit %d, want 2", args, exitCode(err))
		}
	}
}

// add ends with the study's verdict, the one perflab check --study gives a
// pull request: two runs of other prompts against the study's two make a
// tie in same-data, an error on study.yaml rather than on the new run.
func TestAddEndsWithTheStudysCheck(t *testing.T) {
	flags := copyRepo(t)
	raw, err := os.ReadFile("results/qwen3-32b-a100/runs/vllm/random-4k.log")
	if err != nil {
		t.Fatal(err)
	}
	for i, run := range []string{"vllm-other", "vllm-other2"} {
		log := "$ vllm serve Qwen/Qwen3-32B --max-num-seqs 12" + string(rune('3'+i)) + "\n" +
			strings.NewReplacer("1997942", "1897942", "1837.08", "1749.50").Replace(string(raw))
		if err := os.WriteFile(run+".txt", []byte(log), 0o644); err != nil {
			t.Fatal(err)
		}
		stdout, _, err := perflab(t, "add", "--study", "qwen3-32b-a100", "--run", run, "--workload", "random-4k", run+".txt")
		checkOut, _, checkErr := perflab(t, append([]string{"check", "--study", "qwen3-32b-a100"}, flags...)...)
		if exitCode(err) != exitCode(checkErr) || !strings.HasSuffix(stdout, lastLine(checkOut)+"\n") {
			t.Errorf("add %s exits %d with\n%s\nbut check --study exits %d with\n%s", run, exitCode(err), stdout, exitCode(checkErr), checkOut)
		}
		if i == 1 && (exitCode(err) != 1 || !strings.Contains(stdout, "it is a tie")) {
			t.Errorf("add %s does not report the tie it makes:\n%s", run, stdout)
		}
	}
}
