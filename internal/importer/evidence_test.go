package importer

import (
	"os"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/check"
)

// TestEvidence imports pages outside the report family (a vLLM recipe, an
// SGLang guide) from their pasted result blocks: one run per serving
// command, one workload per benchmark command, every guess marked, and
// check finds nothing wrong in these correct pages.
func TestEvidence(t *testing.T) {
	for _, c := range []struct {
		name         string
		blocks, runs int
	}{{"vllm_recipe", 3, 2}, {"sglang_guide", 2, 1}, {"mi300_docker", 2, 2}, {"dcp_recipe", 2, 2}, {"output_tokens_recipe", 2, 2}} {
		t.Run(c.name, func(t *testing.T) {
			studies, diags := importAll(t, "testdata/"+c.name+".md")
			s := studies[0]
			golden(t, "testdata/"+c.name+".golden", dump(t, s))
			if s.Blocks() != c.blocks || len(s.Runs) != c.runs {
				t.Errorf("read %d blocks as %d runs, want %d as %d", s.Blocks(), len(s.Runs), c.blocks, c.runs)
			}
			for _, d := range diags {
				if d.Severity == check.Error {
					t.Errorf("false error on a correct page: %s", d)
				}
			}
			// Each log is its block as pasted.
			src, _ := os.ReadFile("testdata/" + c.name + ".md")
			for _, r := range s.Runs {
				for _, lg := range r.Logs {
					if !strings.Contains(string(src), lg.Text) || !strings.HasPrefix(lg.Text, "============ Serving Benchmark Result") {
						t.Errorf("run %s: log %s is not the pasted block", r.ID, lg.Workload)
					}
				}
			}
			files, _ := s.Files()
			for _, want := range []string{"model: ", "gpu: ", "gpus_per_node: ", "dataset: ", "tool: "} {
				if !guessedLine(string(files["study.yaml"]), want) {
					t.Errorf("study.yaml: %q is not marked as a guess", want)
				}
			}
		})
	}
}

// A recipe that measured two servers with one benchmark command whose
// reasoning model stopped at 389.5 and 441.5 tokens per request, under one
// 4,000-token limit: one workload, as the command says, and the runs'
// comparison is not like for like, a warning naming both figures.
func TestEvidenceOutputsStoppedEarly(t *testing.T) {
	studies, diags := importAll(t, "testdata/output_tokens_recipe.md")
	if w := studies[0].Workloads; len(w) != 1 || w[0].OutputLen != 4000 {
		t.Fatalf("workloads %+v, want one with output_len 4000", w)
	}
	var like []check.Diagnostic
	for _, d := range diags {
		switch d.Rule {
		case check.RuleWorkload:
			t.Errorf("outputs stopped early read as a misstated workload: %s", d)
		case check.RuleOutputLength:
			like = append(like, d)
		}
	}
	if len(like) != 1 || !strings.Contains(like[0].Message, "389.5") || !strings.Contains(like[0].Message, "441.5") {
		t.Errorf("got %v, want one output-length warning naming 389.5 and 441.5", like)
	}
}

// Benchmark commands that differ only in where they send their requests
// and keep their results measure one workload; any other flag makes
// another.
func TestSameWorkload(t *testing.T) {
	const bench = "vllm bench serve --model m --dataset-name random --random-input-len 8000 --random-output-len 4000 --num-prompts 200"
	for _, c := range []struct {
		other string
		same  bool
	}{
		{bench + " --port 8001 --host 10.0.0.2", true},
		{"vllm bench serve --base-url=http://10.0.0.2:8001 --model m --dataset-name random \\\n  --random-input-len 8000 --random-output-len 4000 --num-prompts 200 --save-result --result-dir ./b", true},
		{bench + " --ignore-eos", false},
		{bench + " --random-range-ratio 0.5", false},
		{strings.Replace(bench, "4000", "2000", 1), false},
		{bench + " --port 8001 --seed 7", false},
	} {
		if got := sameWorkload(bench, c.other); got != c.same {
			t.Errorf("%q and %q: same workload %v, want %v", bench, c.other, got, c.same)
		}
	}
}

// guessedLine reports whether every line of y holding key carries a guess
// comment, and there is one.
func guessedLine(y, key string) bool {
	found := false
	for _, l := range strings.Split(y, "\n") {
		if strings.Contains(l, key) {
			if !strings.Contains(l, "# guessed from ") || !strings.HasSuffix(l, ": check") {
				return false
			}
			found = true
		}
	}
	return found
}

// A block with no label is the workload its benchmark command names, never
// a default dataset.
func TestEvidenceWorkloadFromCommand(t *testing.T) {
	page := "# Recipe\n\n```bash\nvllm serve org/m -tp 2\n```\n\n```bash\nvllm bench serve --model org/m --dataset-name random --random-input-len 8000 --random-output-len 1000 --num-prompts 10\n```\n\n```\n" + sampleBlock + "\n```\n"
	s, err := Import("recipe.md", []byte(page))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Workloads) != 1 {
		t.Fatalf("workloads %v", s.Workloads)
	}
	w := s.Workloads[0]
	if w.Dataset != "random" || w.InputLen != 8000 || w.OutputLen != 1000 || w.NumPrompts != 10 || w.ID != "random-8k-1k" {
		t.Errorf("workload %+v, want random 8000/1000 of 10 prompts", *w)
	}
	if len(s.Runs) != 1 || s.Runs[0].GPUs != 2 || s.Runs[0].Engine != "vllm" || s.Model != "org/m" {
		t.Errorf("run %+v of model %s", s.Runs, s.Model)
	}
}

// What the page does not say is the placeholder perflab add writes, and
// check reports it; nothing is invented.
func TestEvidencePlaceholders(t *testing.T) {
	studies, diags := importAll(t, "testdata/bare_block.md")
	s := studies[0]
	// The block's vLLM format names the client, not the server: no engine.
	if s.GPU != unknownGPU || s.Model != unknownModel || s.Workloads[0].Dataset != unknownDataset || !s.Runs[0].Derived || s.Runs[0].Engine != "unknown" {
		t.Errorf("gpu %q model %q dataset %q engine %q derived %v: want the placeholders", s.GPU, s.Model, s.Workloads[0].Dataset, s.Runs[0].Engine, s.Runs[0].Derived)
	}
	reported := false
	for _, d := range diags {
		if d.Severity == check.Error && strings.Contains(d.Message, `dataset "unknown"`) {
			reported = true
		}
	}
	if !reported {
		t.Errorf("check does not report the unknown dataset: %v", diags)
	}
	// A page that names one engine in its prose gives it to a block that
	// has no serving command.
	page := "# Serving with SGLang\n\n```\n" + sampleBlock + "\n```\n"
	if s, err := Import("p.md", []byte(page)); err != nil || s.Runs[0].Engine != "sglang" || !strings.HasPrefix(s.Runs[0].Command, "python3 -m sglang.launch_server") {
		t.Errorf("engine from the prose: %v", err)
	}
}

const sampleBlock = `============ Serving Benchmark Result ============
Successful requests:                     10
Benchmark duration (s):                  40.00
Total input tokens:                      80000
Total generated tokens:                  10000
Request throughput (req/s):              0.25
Output token throughput (tok/s):         250.00
Total Token throughput (tok/s):          2250.00
---------------Time to First Token----------------
Mean TTFT (ms):                          900.00
Median TTFT (ms):                        880.00
P99 TTFT (ms):                           1500.00
-----Time per Output Token (excl. 1st token)------
Mean TPOT (ms):                          30.00
Median TPOT (ms):                        29.50
P99 TPOT (ms):                           35.00
---------------Inter-token Latency----------------
Mean ITL (ms):                           29.90
Median ITL (ms):                         29.00
P99 ITL (ms):                            60.00
==================================================`

// familyReport is a report of the family whose setup names no dataset and
// no benchmark script; its step pastes the benchmark command (cmd) above
// an unlabelled block.
func familyReport(cmd string) string {
	indent := func(s string) string { return "    " + strings.ReplaceAll(s, "\n", "\n    ") }
	return "# Optimizing Example-8B Throughput on NVIDIA H100 GPUs\n\n## Experimental Setup\n\n### Model\n\norg/m\n\n### Hardware\n\nA single NVIDIA H100 SXM 80GB GPU.\n\n" +
		"## Experiment Results\n\n### 1. Choosing the Inference Engine\n\nvLLM\n??? info \"Serving script\"\n    ```bash\n    vllm serve org/m\n    ```\n\n" +
		"??? info \"Benchmark result\"\n    ```\n" + indent(cmd+sampleBlock) + "\n    ```\n"
}

// In a report of the family too, an unlabelled block is the workload of
// the benchmark command pasted with it, and with no command and no dataset
// named, the placeholder: ShareGPT is never assumed.
func TestFamilyWorkloadFromCommand(t *testing.T) {
	for _, c := range []struct{ cmd, dataset, id string }{
		{"$ vllm bench serve --model org/m --dataset-name random --random-input-len 8000 --random-output-len 1000 --num-prompts 10\n", "random", "random-8k"},
		{"", unknownDataset, unknownDataset},
	} {
		s, err := Import("report.md", []byte(familyReport(c.cmd)))
		if err != nil {
			t.Fatal(err)
		}
		if len(s.Runs) != 1 || len(s.Runs[0].Logs) != 1 {
			t.Fatalf("runs %+v", s.Runs)
		}
		w := s.workload(s.Runs[0].Logs[0].Workload)
		if w.ID != c.id || w.Dataset != c.dataset || (c.dataset == "random" && (w.InputLen != 8000 || w.OutputLen != 1000)) {
			t.Errorf("command %q: workload %+v, want %s of dataset %s", c.cmd, *w, c.id, c.dataset)
		}
	}
}

// The import says how many figures of a page's tables and prose it did
// not read as claims: a table with metrics as rows, and sentences.
func TestUnreadFigures(t *testing.T) {
	article := "# Mooncake store\n\nThe new layout is 43 % faster and holds 8 times the KV cache; see `--kv 4x` and [v2](https://x.org/1.5x).\n\n" +
		"Runs on 8x H100.\n\n| Metric | Before | After | Change |\n| --- | --- | --- | --- |\n| Mean TTFT (ms) | 790.18 | 470.60 | -40.5 % |\n| Output (tok/s) | 1,200.5 | 1,500.0 | |\n"
	s, err := Import("article.md", []byte(article))
	if err != nil {
		t.Fatal(err)
	}
	// The second row's two figures; the first row is a claim of the
	// Change column, and the two sentence figures, which no pair of
	// figures of the page fits, are unchecked claims. Inline code, a link
	// and a GPU count are not figures.
	unchecked := 0
	for _, c := range s.Claims {
		if c.Kind == "unchecked" {
			unchecked++
		}
	}
	if s.Unread != 2 || len(s.Claims) != 3 || unchecked != 2 {
		t.Errorf("unread %d with %d claims (%d unchecked), want 2 with 3 (2 unchecked)", s.Unread, len(s.Claims), unchecked)
	}
	if sum := s.Summary(); !strings.Contains(sum, "3 printed figures read as claims (2 of them tied to no figures they derive from: listed as unchecked); 2 figures in tables and text were not read: check cannot verify them") {
		t.Errorf("summary %q", sum)
	}
	// Figures a claim holds are read: the family's comparison table.
	src, _ := os.ReadFile("testdata/handwritten_throughput.md")
	s, err = Import("handwritten_throughput.md", src)
	if err != nil {
		t.Fatal(err)
	}
	if s.Unread != 0 || !strings.Contains(s.Summary(), "no other figure") {
		t.Errorf("a report whose figures are all claims: %s", s.Summary())
	}
}

// The GPU comes from the prose in the ways pages write it, the count at
// least the largest run's; a page that names none keeps the placeholder.
func TestEvidenceHardware(t *testing.T) {
	for _, c := range []struct {
		prose, gpu string
		n          int
	}{
		{"Tested on 8x H100 SXM.", "H100 SXM", 8},
		{"We ran it on 4 × A100 80GB.", "A100 80GB", 4},
		{"A node of 8 NVIDIA H200 GPUs.", "NVIDIA H200", 8},
		{"Hardware: 8 x Ascend 910B3", "Ascend 910B3", 8},
		{"Everything fits on a single H100.", "H100", 2},
		{"Measured on MI300X GPUs.", "MI300X", 2},
		{"Weights in BF16, 1000 output tokens.", unknownGPU, 2},
	} {
		page := "# Recipe\n\n" + c.prose + "\n\n```bash\nvllm serve org/m -tp 2\n```\n\n```\n" + sampleBlock + "\n```\n"
		s, err := Import("recipe.md", []byte(page))
		if err != nil {
			t.Fatal(err)
		}
		if s.GPU != c.gpu || s.GPUsPerNode != c.n {
			t.Errorf("%q: %d x %q, want %d x %q", c.prose, s.GPUsPerNode, s.GPU, c.n, c.gpu)
		}
	}
}

// A random workload whose command leaves the lengths to the client's
// defaults takes them from the block's token totals, marked as such.
func TestEvidenceLengthsFromBlock(t *testing.T) {
	page := "# Recipe\n\n```bash\nvllm serve org/m\nvllm bench serve --model org/m --dataset-name random --num-prompts 10\n```\n\n```\n" + sampleBlock + "\n```\n"
	s, err := Import("recipe.md", []byte(page))
	if err != nil {
		t.Fatal(err)
	}
	w := s.Workloads[0]
	if w.InputLen != 8000 || w.OutputLen != 1000 || !strings.Contains(s.guessed["workloads."+w.ID+".input_len"], "token totals of the result block at recipe.md:9") {
		t.Errorf("workload %+v guessed from %q", *w, s.guessed["workloads."+w.ID+".input_len"])
	}
}

// A recipe's own "## Setup" section does not make it a report of the
// family: without the family's "### Model" it is read by its evidence.
func TestEvidenceRecipeWithSetupSection(t *testing.T) {
	page := "# Recipe\n\n## Environment Setup\n\n```bash\npip install vllm\n```\n\n## Results\n\n```bash\nvllm serve org/m -tp 2\n```\n\n```\n" + sampleBlock + "\n```\n"
	s, err := Import("recipe.md", []byte(page))
	if err != nil || len(s.Runs) != 1 || s.Blocks() != 1 {
		t.Fatalf("Import = %v, %v", s, err)
	}
}

// Commands printed as code in a sentence count as printed commands.
func TestEvidenceInlineCommands(t *testing.T) {
	page := "# Recipe\n\nStart the server with `vllm serve org/m -tp 4` and measure with `vllm bench serve --model org/m --dataset-name random --random-input-len 2048 --random-output-len 512`.\n\n```\n" + sampleBlock + "\n```\n"
	s, err := Import("recipe.md", []byte(page))
	if err != nil {
		t.Fatal(err)
	}
	if r := s.Runs[0]; r.Command != "vllm serve org/m -tp 4" || r.GPUs != 4 || r.Line != 3 || s.Workloads[0].ID != "random-2k-512" {
		t.Errorf("run %q on %d GPUs at line %d, workload %s", r.Command, r.GPUs, r.Line, s.Workloads[0].ID)
	}
}

// A block pasted as plain text, outside any code fence, is read too; an
// article's tables are not blocks.
func TestEvidenceLooseBlock(t *testing.T) {
	page := "# Recipe\n\n```bash\nvllm serve org/m -tp 2\nvllm bench serve --model org/m --dataset-name random --random-input-len 8000 --random-output-len 1000\n```\n\nThe result:\n\n" + sampleBlock + "\n\nDone.\n"
	s, err := Import("recipe.md", []byte(page))
	if err != nil {
		t.Fatal(err)
	}
	if s.Blocks() != 1 || s.Runs[0].Logs[0].Text != sampleBlock || s.Runs[0].Logs[0].Line != 10 || s.Runs[0].GPUs != 2 {
		t.Errorf("%d blocks; first log at line %d: %q", s.Blocks(), s.Runs[0].Logs[0].Line, s.Runs[0].Logs[0].Text)
	}
	src, _ := os.ReadFile("testdata/corpus/qwen3-32b__a100.md")
	items, _ := scan(string(src))
	if n := len(looseBlocks(items)); n != 0 {
		t.Errorf("a report's prose and tables read as %d blocks", n)
	}
}

// Blocks measured at different request rates are different workloads.
func TestEvidenceRequestRates(t *testing.T) {
	bench := "```bash\nvllm bench serve --model org/m --dataset-name sharegpt --num-prompts 10 --request-rate %s\n```\n\n```\n" + sampleBlock + "\n```\n\n"
	page := "# Recipe\n\n```bash\nvllm serve org/m\n```\n\n" + strings.ReplaceAll(bench, "%s", "2") + strings.ReplaceAll(bench, "%s", "4.5")
	s, err := Import("recipe.md", []byte(page))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Runs) != 1 || len(s.Workloads) != 2 || s.Workloads[0].ID != "sharegpt-r2" || s.Workloads[1].ID != "sharegpt-r4.5" {
		t.Errorf("%d runs; workloads %s, %s", len(s.Runs), s.Workloads[0].ID, s.Workloads[len(s.Workloads)-1].ID)
	}
}

// A model served from a path is named by the org/name the benchmark
// command gives it.
func TestEvidenceModelFromPath(t *testing.T) {
	page := "# Recipe\n\n```bash\nvllm serve /data/models/Qwen3-32B -tp 2\nvllm bench serve --model Qwen/Qwen3-32B --dataset-name random --random-input-len 8000 --random-output-len 1000\n```\n\n```\n" + sampleBlock + "\n```\n"
	s, err := Import("recipe.md", []byte(page))
	if err != nil {
		t.Fatal(err)
	}
	if s.Model != "Qwen/Qwen3-32B" || !strings.Contains(s.guessed["model"], "recipe.md:5") {
		t.Errorf("model %q guessed from %q", s.Model, s.guessed["model"])
	}
}

// Only a line that runs the client is a benchmark command.
func TestBenchCommandLines(t *testing.T) {
	for line, want := range map[string]bool{
		"vllm bench serve --model m":                                       true,
		"$ python3 -m sglang.bench_serving --backend sglang":               true,
		"  VLLM_USE_V1=1 python benchmarks/benchmark_serving.py --model m": true,
		"wget https://x.org/benchmarks/benchmark_serving.py":               false,
		"# run vllm bench serve afterwards":                                false,
	} {
		if got := benchCommand.MatchString(line); got != want {
			t.Errorf("%q: %v, want %v", line, got, want)
		}
	}
	f := &fence{first: 1, content: []string{"docker pull vllm/vllm-openai:v0.10.1", "pip install sglang", "docker run --gpus all vllm/vllm-openai:v0.10.1 --model org/m"}}
	if ev := commandsIn(f, nil); len(ev) != 1 || ev[0].cmd.line != 3 || ev[0].kind != "serve" {
		t.Errorf("serving commands %+v, want the docker run at line 3 only", ev)
	}
}

// A title about latency alone makes the study's objective latency.
func TestEvidenceObjective(t *testing.T) {
	for title, want := range map[string]string{"Low-latency DeepSeek on H200": "latency", "Throughput and latency of Qwen3": "throughput", "Qwen3 recipe": "throughput"} {
		s, err := Import("r.md", []byte("# "+title+"\n\n```\n"+sampleBlock+"\n```\n"))
		if err != nil || s.Objective != want {
			t.Errorf("%q: objective %q (%v), want %s", title, s.Objective, err, want)
		}
	}
}
