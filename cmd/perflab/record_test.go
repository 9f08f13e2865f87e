package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// watchWriter is a terminal that signals once it has shown a text.
type watchWriter struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	want string
	seen chan struct{}
}

func (w *watchWriter) Write(b []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(b)
	if w.seen != nil && strings.Contains(w.buf.String(), w.want) {
		close(w.seen)
		w.seen = nil
	}
	return len(b), nil
}

// fakeTools writes a fake benchmark, which prints a Namespace dump, waits
// until the terminal has shown it, then prints a result block recorded
// from a real run; and a fake nvidia-smi, first on PATH.
func fakeTools(t *testing.T, block []byte) (bench string) {
	t.Helper()
	bin := t.TempDir()
	if err := os.WriteFile(filepath.Join(bin, "block.txt"), block, 0o644); err != nil {
		t.Fatal(err)
	}
	bench = filepath.Join(bin, "bench.sh")
	script := "#!/bin/sh\n" +
		"echo \"Namespace(subparser='bench', model='Qwen/Qwen3-32B', dataset_name='random', random_input_len=4000, random_output_len=200, num_prompts=500, seed=42)\"\n" +
		"echo 'INFO vLLM API server version 0.10.1.1' >&2\n" +
		"while [ ! -f \"$1\" ]; do sleep 0.02; done\n" +
		"cat " + filepath.Join(bin, "block.txt") + "\n"
	smi := "#!/bin/sh\nprintf 'NVIDIA A100-SXM4-80GB, 550.54.15\\nNVIDIA A100-SXM4-80GB, 550.54.15\\n'\n"
	for name, text := range map[string]string{"bench.sh": script, "nvidia-smi": smi} {
		if err := os.WriteFile(filepath.Join(bin, name), []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	return bench
}

func TestRecord(t *testing.T) {
	flags := copyRepo(t)
	block, err := os.ReadFile("results/qwen3-32b-a100/runs/vllm/random-4k.log")
	if err != nil {
		t.Fatal(err)
	}
	bench := fakeTools(t, block)
	gate := filepath.Join(t.TempDir(), "go")
	// The benchmark waits for the gate, which opens only once the
	// terminal has shown its first line and its line on stderr: the output
	// is streamed live. (Read from two pipes, the stderr line could
	// otherwise reach the log after the result block.)
	term := &watchWriter{want: "Namespace(", seen: make(chan struct{})}
	errOut := &watchWriter{want: "vLLM API server version 0.10.1.1", seen: make(chan struct{})}
	seen, errSeen := term.seen, errOut.seen
	go func() {
		<-seen
		select { // a stderr never shown fails below, not by a hang
		case <-errSeen:
		case <-time.After(30 * time.Second):
		}
		os.WriteFile(gate, nil, 0o644)
	}()
	err = run(context.Background(), []string{"record", "--study", "qwen3-32b-a100", "--run", "vllm-rec", "--gpus", "1", "--", "sh", bench, gate}, term, errOut)
	out := term.buf.String()
	addedWithGuesses(t, out, err)
	if !strings.Contains(errOut.buf.String(), "vLLM API server version 0.10.1.1") {
		t.Errorf("the benchmark's stderr was not shown:\n%s", errOut.buf.String())
	}
	dir := "results/qwen3-32b-a100/runs/vllm-rec/"
	log, err := os.ReadFile(dir + "random-4k.log")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasSuffix(log, block) || !bytes.Contains(log, []byte("Namespace(subparser='bench'")) || !bytes.Contains(log, []byte("version 0.10.1.1\n")) {
		t.Errorf("random-4k.log is not the benchmark's output:\n%s", log)
	}
	y, err := os.ReadFile(dir + "run.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"Written by perflab record.",
		"command: vllm serve Qwen/Qwen3-32B # guessed from the engine and",
		"command_derived: true",
		"benchmark_command: sh " + bench + " " + gate + " # captured: the command perflab record ran",
		"engine_version: 0.10.1.1 # captured: printed at random-4k.log:",
		"gpu: NVIDIA A100-SXM4-80GB # captured: nvidia-smi",
		"gpu_count: 2 # captured: nvidia-smi",
		"gpu_driver: 550.54.15 # captured",
		"perflab_version: (devel) # captured: the perflab binary", // a test binary is built from source, as go run builds one
		"date: \"20",
	} {
		if !strings.Contains(string(y), want) {
			t.Errorf("run.yaml lacks %q:\n%s", want, y)
		}
	}
	// The output printed another vLLM than the study's: check says so.
	if !strings.Contains(out, "perflab check --study qwen3-32b-a100:") || !strings.Contains(out, "warning: recorded-mismatch: run vllm-rec was recorded on vLLM 0.10.1.1, but results/qwen3-32b-a100/study.yaml:") {
		t.Errorf("record did not check the run, or missed the version:\n%s", out)
	}
	confirmGuesses(t, "results")
	if out, _, err := perflab(t, append([]string{"check"}, flags...)...); err != nil {
		t.Errorf("check after record: %v\n%s", err, out)
	}
	// Never over an existing run.
	_, _, err = perflab(t, "record", "--study", "qwen3-32b-a100", "--run", "vllm-rec", "--", "true")
	if exitCode(err) != 1 || !strings.Contains(err.Error(), "already exists") {
		t.Errorf("second record: %v", err)
	}
}

func TestRecordFailed(t *testing.T) {
	copyRepo(t)
	stdout, stderr, err := perflab(t, "record", "--study", "qwen3-32b-a100", "--run", "vllm-bad", "--", "sh", "-c", "echo half a line; printf 'no newline'; exit 3")
	if exitCode(err) != 1 {
		t.Fatalf("exit %d, want 1: %v\n%s%s", exitCode(err), err, stdout, stderr)
	}
	if _, err := os.Stat("results/qwen3-32b-a100/runs/vllm-bad"); err == nil {
		t.Error("a failed benchmark left a run folder")
	}
	logs, _ := filepath.Glob("results/.record-qwen3-32b-a100-vllm-bad-*/benchmark.log")
	if len(logs) != 1 {
		t.Fatalf("no partial log kept: %v\n%s", logs, stderr)
	}
	got, _ := os.ReadFile(logs[0])
	want := "half a line\nno newline\n# perflab record: PARTIAL LOG: the benchmark failed (exit status 3)\n"
	if string(got) != want {
		t.Errorf("partial log = %q, want %q", got, want)
	}
	if !strings.Contains(stderr, logs[0]) || !strings.Contains(stderr, "no run was added") {
		t.Errorf("stderr does not say where the partial log is:\n%s", stderr)
	}
	if _, _, err := perflab(t, "record", "--study", "qwen3-32b-a100", "--run", "../x", "--", "true"); exitCode(err) != 1 || !strings.Contains(err.Error(), "not a run id") {
		t.Errorf("a hostile run id: %v", err)
	}
	if _, _, err := perflab(t, "record", "--study", "qwen3-32b-a100", "--run", "x"); exitCode(err) != 2 {
		t.Errorf("no command: exit %d, want 2", exitCode(err))
	}
}

// A recording in progress (a hidden folder of results/ whose log grows)
// does not make perflab serve rebuild; a study's file does.
func TestScanSkipsRecordings(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{".record-s-r-1/benchmark.log": "a", "s/study.yaml": "x"} {
		os.MkdirAll(filepath.Join(dir, filepath.Dir(name)), 0o755)
		os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644)
	}
	before := scan([]string{dir})
	os.WriteFile(filepath.Join(dir, ".record-s-r-1/benchmark.log"), []byte("ab"), 0o644)
	if scan([]string{dir}) != before {
		t.Error("a growing recording changes the scan")
	}
	os.WriteFile(filepath.Join(dir, "s/study.yaml"), []byte("xy"), 0o644)
	if scan([]string{dir}) == before {
		t.Error("a changed study.yaml does not change the scan")
	}
}
