package recipe

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/perflab/perflab/internal/study"
)

const studyYAML = `model: org/Model-8B
hardware:
  gpu: NVIDIA L40S
  gpus_per_node: 1
  nodes: 1
objective: throughput
engines:
  - id: vllm
    name: vLLM
    version: v0.11.0
benchmark:
  tool: vllm bench serve
workloads:
  - id: chat
    dataset: random
    input_len: 1000
    output_len: 100
    main: true
  - id: long
    dataset: sharegpt
baseline: [plain]
recommended: [plain]
steps:
  - id: engine
    runs: [plain, hostile]
    reference: plain
`

const block = `============ Serving Benchmark Result ============
Successful requests:                     10
Benchmark duration (s):                  10.00
Total input tokens:                      10000
Total generated tokens:                  1000
Request throughput (req/s):              1.00
Output token throughput (tok/s):         100.00
Total Token throughput (tok/s):          1100.00
==================================================
`

// load reads a study of two runs: plain, written by hand, and hostile,
// recorded, whose name and commands try to break out of the script.
func load(t *testing.T) *study.Study {
	t.Helper()
	fsys := fstest.MapFS{
		"study.yaml":            {Data: []byte(studyYAML)},
		"runs/plain/run.yaml":   {Data: []byte("name: Plain\nengine: vllm\ncommand: vllm serve org/Model-8B --revision abc123\ngpus: 1\n")},
		"runs/plain/chat.log":   {Data: []byte("Namespace(model='org/Model-8B', seed=7, num_prompts=10)\n" + block)},
		"runs/plain/long.log":   {Data: []byte("$ vllm bench serve --model org/Model-8B --dataset-name sharegpt\n" + block)},
		"runs/hostile/run.yaml": {Data: []byte("name: \"x\\n$(touch pwned)\"\nengine: vllm\ncommand: \"vllm serve org/Model-8B 'unclosed\"\ngpus: 1\nrecorded:\n  benchmark_command: printf '%s' \"it's ok\"\n  engine_version: null\n  gpu: NVIDIA L40S\n  gpu_count: 1\n  gpu_driver: null\n  host: h\n  date: \"2026-01-01T00:00:00Z\"\n  perflab_version: null\n")},
		"runs/hostile/chat.log": {Data: []byte(block)},
	}
	s, probs, err := study.Load(fsys, "results/x", "x")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range probs {
		t.Errorf("problem: %s", p)
	}
	return s
}

func TestOf(t *testing.T) {
	s := load(t)
	rc := Of(s, s.Run("plain"))
	if rc.Revision.Value != "abc123" || rc.EngineVersion.Value != "v0.11.0" || rc.GPU.Value != "NVIDIA L40S" || rc.GPUs.Value != "1" || rc.ToolVersion.Known() {
		t.Errorf("plain: %+v", rc)
	}
	chat, long := rc.Workloads[0], rc.Workloads[1]
	if chat.Seed.Value != "7" || chat.Seed.From(func(s string) string { return s }) != "results/x/runs/plain/chat.log:1" || chat.Bench.Known() {
		t.Errorf("chat: the seed is the Namespace's, the command unknown: %+v", chat)
	}
	if long.Bench.Value != "vllm bench serve --model org/Model-8B --dataset-name sharegpt" || long.Bench.Line != 1 || long.InputLen.Known() {
		t.Errorf("long: the command is the log's: %+v", long)
	}
	h := Of(s, s.Run("hostile"))
	if h.Workloads[0].Bench.Value != `printf '%s' "it's ok"` || h.EngineVersion.Value != "v0.11.0" {
		t.Errorf("hostile: the recorded command wins, a null version falls back to the study's: %+v", h)
	}
}

// TestScript: the script parses whatever the files hold, runs a command
// as written, and a name or command never runs anything else.
func TestScript(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	s := load(t)
	dir := t.TempDir()
	script := filepath.Join(dir, "reproduce.sh")
	if err := os.WriteFile(script, Script(s, All(s), func(f string) string { return f }), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) (string, error) {
		cmd := exec.Command(sh, append([]string{script}, args...)...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	if out, err := exec.Command(sh, "-n", script).CombinedOutput(); err != nil {
		t.Fatalf("sh -n: %v\n%s", err, out)
	}
	out, err := run()
	if err != nil || !strings.Contains(out, "  plain: chat long\n") || !strings.Contains(out, "  hostile: chat\n") {
		t.Errorf("listing: %v\n%s", err, out)
	}
	if out, err := run("hostile", "bench", "chat"); err != nil || out != "it's ok" {
		t.Errorf("the recorded command: %q, %v", out, err)
	}
	if out, err := run("plain", "bench", "chat"); err == nil || !strings.Contains(out, "is unknown") {
		t.Errorf("an unknown command: %q, %v", out, err)
	}
	run("hostile", "serve") // its unclosed quote fails inside sh -c only
	if _, err := os.Stat(filepath.Join(dir, "pwned")); err == nil {
		t.Error("a run's name ran a command")
	}
	if out, err := run("nope", "serve"); err == nil || !strings.Contains(out, "no such run") {
		t.Errorf("an unknown run: %q, %v", out, err)
	}
}
