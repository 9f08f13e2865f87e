package addrun

import (
	"errors"
	"fmt"
	"github.com/perflab/perflab/internal/assess"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/perflab/perflab/internal/check"
	"github.com/perflab/perflab/internal/study"
)

const studyYAML = `model: example-org/Example-8B
hardware:
  gpu: NVIDIA H100 SXM 80GB
  gpus_per_node: 8
  nodes: 1
objective: throughput
engines:
  - id: vllm
    name: vLLM
    version: v0.11.0
  - id: sglang
    name: SGLang
    version: v0.5.5
  - id: trtllm
    name: TensorRT-LLM
    version: v1.2.0
benchmark:
  tool: vllm bench serve
workloads:
  - id: sharegpt
    dataset: sharegpt
    num_prompts: 100
    main: true
  - id: random-1k
    dataset: random
    input_len: 1000
    output_len: 100
  - id: random-4k
    dataset: random
    input_len: 4000
    output_len: 200
    num_prompts: 50
    command: vllm bench serve --model example-org/Example-8B --dataset-name random --random-input-len 4000 --random-output-len 200 --num-prompts 50
baseline: [vllm]
recommended: [vllm]
steps:
  - id: engine
    runs: [vllm]
    reference: vllm
`

// block prints a vLLM result block whose throughputs agree with its counts.
func block(completed, in, out int, dur float64) string {
	return fmt.Sprintf(`============ Serving Benchmark Result ============
Successful requests:                     %d
Benchmark duration (s):                  %.2f
Total input tokens:                      %d
Total generated tokens:                  %d
Request throughput (req/s):              %.2f
Output token throughput (tok/s):         %.2f
Total Token throughput (tok/s):          %.2f
---------------Time to First Token----------------
Mean TTFT (ms):                          100.00
Median TTFT (ms):                        90.00
P99 TTFT (ms):                           300.00
-----Time per Output Token (excl. 1st token)------
Mean TPOT (ms):                          20.00
Median TPOT (ms):                        19.00
P99 TPOT (ms):                           40.00
==================================================
`, completed, dur, in, out, float64(completed)/dur, float64(out)/dur, float64(in+out)/dur)
}

var (
	sharegptBlock = block(100, 21734, 19876, 50) // as runs/vllm/sharegpt.log, other timings
	random1kBlock = block(100, 100012, 9950, 60) // 1000 tokens per request
	random4kBlock = block(50, 200000, 9990, 70)  // 4000 tokens per request
	plainBlock    = block(100, 55555, 12345, 40) // fits no workload by its tokens
)

// tree writes a results folder with one study, "ex", whose run "vllm" has
// a sharegpt and a random-1k log, and returns the results folder.
func tree(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	results := filepath.Join(dir, "results")
	files := map[string]string{
		"ex/study.yaml":                studyYAML,
		"ex/runs/vllm/run.yaml":        "name: vLLM\nengine: vllm\ncommand: vllm serve example-org/Example-8B\ngpus: 1\n",
		"ex/runs/vllm/sharegpt.log":    block(100, 21734, 19876, 48),
		"ex/runs/vllm/random-1k.log":   block(100, 100000, 10000, 55),
		"ex/runs/vllm/random-4k.log":   block(50, 200000, 10000, 66),
		"other/study.yaml":             strings.Replace(studyYAML, "Example-8B", "Other-1B", -1),
		"other/runs/vllm/run.yaml":     "name: vLLM\nengine: vllm\ncommand: vllm serve example-org/Other-1B\ngpus: 1\n",
		"other/runs/vllm/sharegpt.log": block(100, 20000, 20000, 40),
	}
	for name, text := range files {
		writeTest(t, filepath.Join(results, name), text)
	}
	return results
}

func writeTest(t *testing.T, name, text string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return name
}

func TestWorkloadInference(t *testing.T) {
	results := tree(t)
	logs := t.TempDir()
	tests := []struct {
		name     string
		file     string // the log's file name
		text     string
		workload string // --workload
		want     string
		why      string // in the reason
		err      string
	}{
		{name: "file name is the workload id", file: "random-1k.log", text: plainBlock, want: "random-1k", why: "the file name random-1k.log"},
		{name: "Namespace dump", file: "out.txt",
			text: "Namespace(subparser='bench', model='example-org/Example-8B', dataset_name='random', random_input_len=4000, random_output_len=200, num_prompts=50, seed=None)\n" + plainBlock,
			want: "random-4k", why: "random input length 4000 in the Namespace(...) dump at"},
		{name: "benchmark command line", file: "run1.txt",
			text: "+ vllm bench serve --model example-org/Example-8B --dataset-name random --random-input-len 1000 --random-output-len 100\n" + plainBlock,
			want: "random-1k", why: "random input length 1000 in the benchmark command at"},
		{name: "the workload's own command", file: "run2.txt",
			text: "$ vllm bench serve --model example-org/Example-8B --dataset-name random --random-input-len 4000 --random-output-len 200 --num-prompts 50\n" + plainBlock,
			want: "random-4k", why: "the benchmark command, the workload's command"},
		{name: "label above the block", file: "a.txt", text: "# random 4K input\n" + random4kBlock,
			want: "random-4k", why: `the label "# random 4K input"`},
		{name: "label in the file name", file: "bench_random_1k_input.txt", text: random1kBlock,
			want: "random-1k", why: "the file name bench_random_1k_input.txt"},
		{name: "input tokens per request", file: "b.txt", text: random1kBlock,
			want: "random-1k", why: "Total input tokens 100012 over 100 requests (1000 per request; input_len 1000)"},
		{name: "same input tokens as another run", file: "c.txt", text: sharegptBlock,
			want: "sharegpt", why: "Total input tokens 21734, as in runs/vllm/sharegpt.log"},
		{name: "ShareGPT label against random tokens", file: "sharegpt-run.txt", text: "# ShareGPT\n" + plainBlock,
			want: "sharegpt", why: "ShareGPT"},
		{name: "--workload wins", file: "random-1k.log", text: plainBlock, workload: "random-4k", want: "random-4k"},
		{name: "--workload unknown", file: "d.txt", text: plainBlock, workload: "random-8k", err: `--workload "random-8k" is not a workload of`},
		{name: "nothing fits", file: "e.txt", text: plainBlock, err: "no workload of"},
		{name: "dataset contradicts the file name", file: "f.txt",
			text: "Namespace(dataset_name='sharegpt', num_prompts=100)\n" + random1kBlock, want: "sharegpt", why: "dataset sharegpt"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(logs, strings.ReplaceAll(tc.name, " ", "_"))
			log := writeTest(t, filepath.Join(dir, tc.file), tc.text)
			p, err := Prepare(Options{Results: results, Study: "ex", Run: "new", Logs: []string{log}, Workload: tc.workload, Engine: "vllm"})
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one containing %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			lg := p.Logs[0]
			if lg.Workload != tc.want {
				t.Fatalf("workload %s (%s), want %s", lg.Workload, lg.Why, tc.want)
			}
			if !strings.Contains(lg.Why, tc.why) {
				t.Errorf("reason %q does not contain %q", lg.Why, tc.why)
			}
			if tc.workload != "" && lg.Why != "" {
				t.Errorf("--workload given, but the reason is %q", lg.Why)
			}
			// The reason reaches run.yaml as a guess.
			comment := "# " + lg.Workload + ".log: copied from " + filepath.Base(log)
			if !strings.Contains(string(p.RunYAML), comment) {
				t.Errorf("run.yaml lacks %q:\n%s", comment, p.RunYAML)
			}
			// A path of the contributor's machine never goes into the
			// pull request: the log is named by its copy in the run.
			if strings.Contains(string(p.RunYAML), filepath.Dir(log)) {
				t.Errorf("run.yaml names the folder the log was added from:\n%s", p.RunYAML)
			}
			why := strings.ReplaceAll(lg.Why, log+":", lg.FileName()+":")
			if tc.workload == "" && !strings.Contains(string(p.RunYAML), "workload guessed from "+why+": check") {
				t.Errorf("run.yaml does not mark the workload as guessed:\n%s", p.RunYAML)
			}
		})
	}
}

func TestEngineAndModelInference(t *testing.T) {
	results := tree(t)
	logs := t.TempDir()
	tests := []struct {
		name string
		text string
		o    Options
		// want are lines of run.yaml, comments included; absent are
		// substrings it must not contain.
		want   []string
		absent []string
		model  string
		err    string
	}{
		{name: "--command", text: plainBlock,
			o: Options{Command: "python3 -m sglang.launch_server --model-path example-org/Example-8B --tp 2"},
			want: []string{
				"name: new # guessed from --run (the label readers see in tables): check",
				"engine: sglang # guessed from the serving command (--command): check",
				"command: python3 -m sglang.launch_server --model-path example-org/Example-8B --tp 2\n",
				"gpus: 2 # guessed from the command's tensor x pipeline x data parallel sizes: check",
			},
			absent: []string{"command_derived"}, model: "example-org/Example-8B"},
		{name: "serving command in the log", text: "$ trtllm-serve example-org/Example-8B-FP8 \\\n    --tp_size 4\n" + plainBlock,
			want: []string{
				"engine: trtllm # guessed from the serving command in LOG:1: check",
				"command: |- # guessed from the serving command in LOG:1: check\n  trtllm-serve example-org/Example-8B-FP8 \\\n      --tp_size 4\n",
				"gpus: 4 # guessed",
			},
			model: "example-org/Example-8B-FP8"},
		{name: "backend and model of the Namespace dump", text: "Namespace(backend='sglang', model='example-org/Example-8B-AWQ', dataset_name='random')\n" + plainBlock,
			want: []string{
				"engine: sglang # guessed from backend sglang in the Namespace(...) dump at LOG:1: check",
				"command: python3 -m sglang.launch_server --model-path example-org/Example-8B-AWQ # guessed from the engine and the model example-org/Example-8B-AWQ named in the Namespace(...) dump at LOG:1",
				"command_derived: true\n",
				"gpus: 1 # guessed",
			},
			model: "example-org/Example-8B-AWQ"},
		{name: "Backend line of an SGLang block", text: strings.Replace(plainBlock, "Successful requests:", "Backend:                                 sglang-oai-chat\nSuccessful requests:", 1),
			want: []string{"engine: sglang # guessed from the line \"Backend: sglang-oai-chat\" at LOG:2: check"}},
		{name: "format of the block", text: plainBlock,
			want: []string{"engine: vllm # guessed from the format of the result block at LOG:1 (vllm's benchmark client printed it, and a client can measure another engine): check",
				"command: vllm serve example-org/Example-8B # guessed from the engine and the study's model"},
			model: "example-org/Example-8B"},
		{name: "everything given", text: plainBlock,
			o:      Options{Engine: "trtllm", Name: "TRT TP2", GPUs: 2, Command: "trtllm-serve example-org/Example-8B --tp_size 2"},
			want:   []string{"name: TRT TP2\n", "engine: trtllm\n", "command: trtllm-serve example-org/Example-8B --tp_size 2\n", "gpus: 2\n"},
			absent: []string{"guessed from --run", "engine: trtllm #", "gpus: 2 #"}},
		{name: "the engine's name as the run's", text: plainBlock, o: Options{Run: "sglang", Command: "python3 -m sglang.launch_server --model-path example-org/Example-8B"},
			want: []string{"name: SGLang # guessed from the engine's display name"}},
		{name: "an engine the study lacks", text: plainBlock, o: Options{Command: "lmdeploy serve api_server example-org/Example-8B"},
			err: "starts lmdeploy, which is not an engine of"},
		{name: "--engine unknown", text: plainBlock, o: Options{Engine: "tgi"}, err: `--engine "tgi" is not an engine of`},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			log := writeTest(t, filepath.Join(logs, fmt.Sprint(i), "random-1k.log"), tc.text)
			o := tc.o
			o.Results, o.Study, o.Logs = results, "ex", []string{log}
			if o.Run == "" {
				o.Run = "new"
			}
			p, err := Prepare(o)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one containing %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			y := string(p.RunYAML)
			for _, w := range tc.want {
				w = strings.ReplaceAll(w, "LOG", "random-1k.log") // the copy in the run, not the path given
				if !strings.Contains(y, w) {
					t.Errorf("run.yaml lacks %q:\n%s", w, y)
				}
			}
			for _, a := range tc.absent {
				if strings.Contains(y, a) {
					t.Errorf("run.yaml contains %q:\n%s", a, y)
				}
			}
			if tc.model != "" && p.Model != tc.model {
				t.Errorf("model %s (from %s), want %s", p.Model, p.ModelOf, tc.model)
			}
			// The file is valid YAML with the values the plan holds.
			var back struct {
				Name, Engine, Command string
				GPUs                  int  `yaml:"gpus"`
				Derived               bool `yaml:"command_derived"`
			}
			if err := yaml.Unmarshal(p.RunYAML, &back); err != nil {
				t.Fatal(err)
			}
			if back.Name != p.Name || back.Engine != p.Engine || back.Command != p.Command || back.GPUs != p.GPUs || back.Derived != p.Derived {
				t.Errorf("run.yaml reads back as %+v, plan %+v", back, p)
			}
		})
	}
}

func TestAddErrors(t *testing.T) {
	results := tree(t)
	logs := t.TempDir()
	good := writeTest(t, filepath.Join(logs, "random-1k.log"), random1kBlock)
	if err := os.Mkdir(filepath.Join(results, "nope"), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		o    Options
		err  string
	}{
		// A study folder without its study.yaml is someone's: never filled in.
		{name: "folder without study.yaml", o: Options{Study: "nope", Run: "x", Logs: []string{good}},
			err: filepath.Join(results, "nope", "study.yaml") + " does not exist: perflab add starts a study only in a folder that does not exist yet"},
		// A new study needs a model: no command and no log names one.
		{name: "new study without a model", o: Options{Study: "fresh", Run: "x", Logs: []string{good}},
			err: "the logs name no model, and a new study needs one"},
		{name: "existing run", o: Options{Study: "ex", Run: "vllm", Logs: []string{good}},
			err: filepath.Join(results, "ex", "runs", "vllm") + " already exists: perflab add never overwrites a run"},
		{name: "no result block", o: Options{Study: "ex", Run: "x", Logs: []string{writeTest(t, filepath.Join(logs, "server.log"), "INFO starting\nINFO ready\n")}},
			err: filepath.Join(logs, "server.log") + `:1: no known benchmark output in server.log: nothing in it looks like a benchmark's result`},
		{name: "failed run", o: Options{Study: "ex", Run: "x", Logs: []string{writeTest(t, filepath.Join(logs, "oom.log"), "Loading\nRuntimeError: CUDA out of memory\n")}},
			err: "only a failed run (RuntimeError: CUDA out of memory)"},
		{name: "two blocks in one log", o: Options{Study: "ex", Run: "x", Logs: []string{writeTest(t, filepath.Join(logs, "two.log"), random1kBlock+random4kBlock)}},
			err: "holds 2 result blocks (lines 1, 18)"},
		{name: "two logs of one workload", o: Options{Study: "ex", Run: "x", Logs: []string{good, writeTest(t, filepath.Join(logs, "again", "random-1k.txt"), random1kBlock)}},
			err: "both measured workload random-1k"},
		{name: "--workload with two logs", o: Options{Study: "ex", Run: "x", Workload: "sharegpt", Logs: []string{good, good}},
			err: "--workload names the workload of one log"},
		{name: "bad run id", o: Options{Study: "ex", Run: "My Run", Logs: []string{good}}, err: `--run "My Run" is not a run id`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.o.Results = results
			before := listTree(t, results)
			_, err := Add(tc.o)
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("error %v, want one containing %q", err, tc.err)
			}
			if after := listTree(t, results); after != before {
				t.Errorf("the results folder changed:\n%s\nwas:\n%s", after, before)
			}
		})
	}
}

// listTree lists every path under dir with its size.
func listTree(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "%s %d\n", p, info.Size())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// A write that fails half-way leaves neither the run folder nor the
// temporary one.
func TestAddAtomic(t *testing.T) {
	results := tree(t)
	logs := t.TempDir()
	before := listTree(t, results)
	n := 0
	o := Options{Results: results, Study: "ex", Run: "new", Engine: "vllm", Logs: []string{
		writeTest(t, filepath.Join(logs, "random-1k.log"), random1kBlock),
		writeTest(t, filepath.Join(logs, "random-4k.log"), random4kBlock),
	}}
	o.writeFile = func(name string, data []byte) error {
		if n++; n == 2 {
			return errors.New("disk full")
		}
		return os.WriteFile(name, data, 0o644)
	}
	_, err := Add(o)
	if err == nil || !strings.Contains(err.Error(), "disk full (nothing was added)") {
		t.Fatalf("error %v, want disk full", err)
	}
	if after := listTree(t, results); after != before {
		t.Errorf("a failed add left files behind:\n%s\nwas:\n%s", after, before)
	}
}

// The added run is the logs byte for byte and a run.yaml that loads, and
// perflab check finds nothing wrong with it.
func TestAddLoadsAndChecks(t *testing.T) {
	results := tree(t)
	logs := t.TempDir()
	inputs := map[string]string{
		"sharegpt": "$ vllm serve example-org/Example-8B --max-num-seqs 64\r\nINFO 10-01 12:00:00 starting\r\n" + strings.ReplaceAll(sharegptBlock, "\n", "\r\n"),
		"random-4k": "Namespace(dataset_name='random', random_input_len=4000, random_output_len=200, num_prompts=50)\n" +
			"100%|██████████| 50/50 [01:10<00:00,  1.40s/it]" + random4kBlock + "tip: install termplotlib\n",
	}
	o := Options{Results: results, Study: "ex", Run: "vllm-seqs"}
	for _, name := range []string{"sharegpt", "random-4k"} {
		o.Logs = append(o.Logs, writeTest(t, filepath.Join(logs, "bench-"+fmt.Sprint(len(o.Logs))+".txt"), inputs[name]))
	}
	p, err := Add(o)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(results, "ex", "runs", "vllm-seqs")
	for i, name := range []string{"sharegpt", "random-4k"} {
		got, err := os.ReadFile(filepath.Join(dir, name+".log"))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != inputs[name] {
			t.Errorf("%s.log is not the log %s byte for byte", name, o.Logs[i])
		}
	}
	if p.Engine != "vllm" || p.Command != "vllm serve example-org/Example-8B --max-num-seqs 64" || p.GPUs != 1 {
		t.Errorf("plan %s %q %d", p.Engine, p.Command, p.GPUs)
	}
	entries, _ := os.ReadDir(results)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			t.Errorf("temporary folder %s left behind", e.Name())
		}
	}
	studies, probs, err := study.LoadAll(os.DirFS(results), "results")
	if err != nil {
		t.Fatal(err)
	}
	for _, pr := range probs {
		t.Errorf("load: %s", pr)
	}
	guesses := 0
	for _, r := range assess.All(studies) {
		for _, d := range r.Diagnostics {
			if d.Rule == check.RuleUnplaced && d.Subject == "vllm-seqs" {
				continue // added, not yet placed in a step: expected
			}
			if d.Rule == check.RuleGuess && strings.HasPrefix(d.File, "results/ex/runs/vllm-seqs/") {
				guesses++ // for the contributor to confirm: expected
				continue
			}
			t.Errorf("check: %s", d)
		}
		if r.Study.ID != "ex" {
			continue
		}
		run := r.Study.Run("vllm-seqs")
		if run == nil || len(run.Logs) != 2 || run.Result("random-4k") == nil || run.Name != "vllm-seqs" {
			t.Fatalf("the new run loads as %+v", run)
		}
	}
	if guesses == 0 {
		t.Error("check does not ask to confirm what add guessed")
	}
}
