package check

import (
	"fmt"
	"os"
	"path"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/study"
)

// A mutation is one mistake a contributor makes, planted into a copy of one
// of the repository's studies: the first occurrence of old in file becomes
// new (every occurrence when all is set).
type mutation struct {
	name     string
	file     string // under results/, or content/<lang>/<study>.md
	old, new string
	all      bool
	rule     string // the error expected
	at       string // on the first line containing this text (default: new's first line)
	atFile   string // in this file (default: file)
	known    string // why the mistake is not caught yet; "" when it must be
	copyFrom string // replace file's whole content with this file's (as file)
	also     []mutation
}

// mutations are the mistakes of issue 27's kinds, and earlier kinds as a
// baseline, each with the file and line where check must report it.
var mutations = []mutation{
	// Engine labels against commands.
	{name: "sglang run labelled vllm", file: "qwen3-32b-a100/runs/sglang/run.yaml", old: "engine: sglang", new: "engine: vllm", rule: RuleEngineLabel},
	{name: "sglang tp8 labelled vllm", file: "qwen3-235b-a22b-a100/runs/sglang-tp8/run.yaml", old: "engine: sglang", new: "engine: vllm", rule: RuleEngineLabel},
	{name: "trtllm run labelled vllm", file: "qwen3-32b-a100/runs/trtllm/run.yaml", old: "engine: trtllm", new: "engine: vllm", rule: RuleEngineLabel},
	{name: "example sglang labelled vllm", file: "example-qwen3-8b-l40s/runs/sglang/run.yaml", old: "engine: sglang", new: "engine: vllm", rule: RuleEngineLabel},
	{name: "vllm run labelled sglang", file: "qwen3-32b-a100/runs/vllm-fp8/run.yaml", old: "engine: vllm", new: "engine: sglang", rule: RuleEngineLabel},
	// Engine versions against what the log or image prints.
	{name: "log prints another vLLM version", file: "qwen3-32b-a100/runs/vllm/random-4k.log", old: "=====", new: "INFO 06-12 vLLM API server version 0.10.1\n=====", rule: RuleEngineVersion},
	{name: "image of another vLLM version", file: "qwen3-235b-a22b-a100/runs/vllm-tp8/run.yaml", old: "vllm serve Qwen", new: "docker run --gpus all vllm/vllm-openai:v0.10.2 --model Qwen", rule: RuleEngineVersion},
	// Workload settings against every log of the workload.
	{name: "num_prompts lowered, with command", file: "qwen3-32b-a100/study.yaml", old: "num_prompts: 500", new: "num_prompts: 400", rule: RuleWorkload},
	{name: "num_prompts raised", file: "example-qwen3-8b-l40s/study.yaml", old: "num_prompts: 500", new: "num_prompts: 700", rule: RuleWorkload},
	{name: "num_prompts lowered", file: "example-qwen3-8b-l40s/study.yaml", old: "num_prompts: 500", new: "num_prompts: 300", rule: RuleWorkload},
	{name: "sharegpt num_prompts raised", file: "qwen3-235b-a22b-a100/study.yaml", old: "num_prompts: 1000", new: "num_prompts: 2000", rule: RuleWorkload},
	{name: "input_len halved", file: "example-qwen3-8b-l40s/study.yaml", old: "input_len: 8000", new: "input_len: 4000", rule: RuleWorkload},
	{name: "input_len doubled", file: "example-qwen3-8b-l40s/study.yaml", old: "input_len: 8000", new: "input_len: 16000", rule: RuleWorkload},
	{name: "output_len halved", file: "example-qwen3-8b-l40s/study.yaml", old: "output_len: 200\n    num_prompts: 200", new: "output_len: 100\n    num_prompts: 200", rule: RuleWorkload, at: "output_len: 100"},
	{name: "input_len raised", file: "qwen3-32b-a100/study.yaml", old: "input_len: 2000", new: "input_len: 3000", rule: RuleWorkload},
	{name: "input_len of 32k halved", file: "qwen3-32b-a100/study.yaml", old: "input_len: 32000", new: "input_len: 16000", rule: RuleWorkload},
	{name: "output_len doubled", file: "qwen3-32b-a100/study.yaml", old: "output_len: 100\n  - id: random-4k", new: "output_len: 200\n  - id: random-4k", rule: RuleWorkload, at: "output_len: 200"},
	{name: "max_concurrency changed", file: "example-qwen3-8b-l40s/study.yaml", old: "max_concurrency: 16", new: "max_concurrency: 32", rule: RuleWorkload},
	{name: "workload command passes another prompt count", file: "qwen3-32b-a100/study.yaml", old: "--num-prompts 500 --seed 42\n  - id: random-32k", new: "--num-prompts 50 --seed 42\n  - id: random-32k",
		rule: RuleWorkload, at: "command: vllm bench serve --model Qwen/Qwen3-32B --backend openai-chat --endpoint /v1/chat/completions --dataset-name random"},
	// Commands as the shell reads them.
	{name: "missing backslash", file: "qwen3-32b-a100/runs/vllm-max-model-len/run.yaml", old: "command: vllm serve Qwen/Qwen3-32B --max-model-len 32768",
		new: "command: |\n  vllm serve Qwen/Qwen3-32B\n  --max-model-len 32768", rule: RuleContinuation, at: "  vllm serve"},
	{name: "space after backslash", file: "qwen3-32b-a100/runs/vllm-max-model-len/run.yaml", old: "command: vllm serve Qwen/Qwen3-32B --max-model-len 32768",
		new: "command: |\n  vllm serve Qwen/Qwen3-32B \\ \n  --max-model-len 32768", rule: RuleContinuation, at: "  vllm serve"},
	{name: "missing backslash after a comment", file: "qwen3-235b-a22b-a100/runs/vllm-fp8-tp8-ep/run.yaml", old: "-tp 8 --enable-expert-parallel",
		new: "-tp 8\n  --enable-expert-parallel", rule: RuleContinuation, at: "  vllm serve"},
	{name: "recommended command needs more GPUs", file: "qwen3-235b-a22b-a100/study.yaml", old: `-tp 4"`, new: `-tp 16"`, rule: RuleGPUFit, at: "- kind: command"},
	{name: "benchmark section serves on more GPUs", file: "qwen3-32b-a100/study.yaml", old: "    # Benchmark on ShareGPT dataset\n",
		new: "    # Benchmark on ShareGPT dataset\n    vllm serve Qwen/Qwen3-32B -tp 2\n", rule: RuleGPUFit, at: "vllm serve Qwen/Qwen3-32B -tp 2"},
	// Names in claims.
	{name: "ranking names swapped", file: "qwen3-32b-a100/study.yaml", old: "TensorRT-LLM (2054.21 tok/s) > vLLM (1730.98 tok/s)",
		new: "vLLM (2054.21 tok/s) > TensorRT-LLM (1730.98 tok/s)", rule: RuleClaim, at: "- kind: ranking"},
	{name: "ranking names swapped, no space", file: "qwen3-235b-a22b-a100/study.yaml", old: "SGLang(4635.31 tok/s) > vLLM (3792.50 tok/s)",
		new: "vLLM(4635.31 tok/s) > SGLang (3792.50 tok/s)", rule: RuleClaim, at: "- kind: ranking"},
	// Figures in prose, and translations that drift from the English.
	{name: "ja says FP4 where en says FP8", file: "content/ja/qwen3-235b-a22b-a100.md", old: "ただし FP8 の場合", new: "ただし FP4 の場合", rule: RuleDrift},
	{name: "ja says FP4 in the parallelism step", file: "content/ja/qwen3-235b-a22b-a100.md", old: "FP8 で重みが", new: "FP4 で重みが", rule: RuleDrift},
	{name: "zh names another GPU", file: "content/zh/qwen3-235b-a22b-a100.md", old: "A100 没有原生的", new: "H100 没有原生的", rule: RuleDrift},
	{name: "zh names another quantization", file: "content/zh/qwen3-32b-a100.md", old: "FP8 和 AWQ", new: "FP8 和 GPTQ", rule: RuleDrift},
	{name: "en prose types a figure that is mistyped", file: "content/en/qwen3-235b-a22b-a100.md", old: "of different lengths.",
		new: "of different lengths. On ShareGPT the optimized configuration is faster by 95.2 %.", rule: RuleProseFigure, at: "To check whether"},
	{name: "en prose says slower", file: "content/en/qwen3-235b-a22b-a100.md", old: "of different lengths.",
		new: "of different lengths. On ShareGPT the optimized configuration is slower by 59.2 %.", rule: RuleProseFigure, at: "To check whether"},
	{name: "zh prose states a mistyped figure", file: "content/zh/qwen3-235b-a22b-a100.md", old: "进行了测试。", new: "进行了测试。在 ShareGPT 上，吞吐量提升 95.2%。", rule: RuleProseFigure, at: "为了验证"},
	{name: "ja prose says it fell", file: "content/ja/qwen3-235b-a22b-a100.md", old: "ベンチマークしました。", new: "ベンチマークしました。ShareGPT ではスループットが 59.2% 低下しました。", rule: RuleProseFigure, at: "改善がメイン"},
	{name: "en prose ranks the engines the wrong way", file: "content/en/qwen3-235b-a22b-a100.md", old: "does not offer on the A100.",
		new: "does not offer on the A100. With default settings vLLM is faster than SGLang.", rule: RuleProseFigure, at: "vLLM and SGLang are each"},
	{name: "zh prose ranks the engines the wrong way", file: "content/zh/qwen3-235b-a22b-a100.md", old: "张量并行覆盖整个节点，",
		new: "张量并行覆盖整个节点，vLLM 比 SGLang 快，", rule: RuleProseFigure},
	{name: "prose shows a command for more GPUs", file: "content/en/qwen3-32b-a100.md", old: "<!-- section: other-cases -->\n",
		new: "<!-- section: other-cases -->\n```\nvllm serve Qwen/Qwen3-32B -tp 2\n```\n", rule: RuleGPUFit, at: "vllm serve Qwen/Qwen3-32B -tp 2"},
	{name: "prose shows a command missing a backslash", file: "content/en/qwen3-32b-a100.md", old: "<!-- section: other-cases -->\n",
		new: "<!-- section: other-cases -->\n```\nvllm serve Qwen/Qwen3-32B\n  --max-model-len 32768\n```\n", rule: RuleContinuation, at: "vllm serve Qwen/Qwen3-32B\n"},
	{name: "en credits another precision", file: "content/en/qwen3-235b-a22b-a100.md", old: "so FP8 is our recommendation", new: "so AWQ is our recommendation", rule: RuleProseFigure},
	{name: "ja recommends FP4", file: "content/ja/qwen3-235b-a22b-a100.md", old: "FP8 をお勧めします", new: "FP4 をお勧めします", rule: RuleProseFigure},
	{name: "en recommends another engine", file: "content/en/qwen3-32b-a100.md", old: "<!-- section: other-cases -->\n",
		new: "<!-- section: other-cases -->\nWe recommend SGLang for this model.\n", rule: RuleProseFigure, at: "We recommend SGLang"},
	// Kinds check caught before: the baseline of the catch rate.
	{name: "conclusion figure", file: "qwen3-32b-a100/study.yaml", old: `"+18.7%"`, new: `"+81.7%"`, rule: RuleClaim, at: "- kind: conclusion"},
	{name: "throughput edited", file: "qwen3-32b-a100/runs/vllm-fp8/sharegpt.log", old: "1563.33", new: "1536.33", rule: RuleArithmetic},
	{name: "another model", file: "qwen3-32b-a100/runs/sglang/run.yaml", old: "Qwen/Qwen3-32B", new: "Qwen/Qwen3-8B", rule: RuleModel},
	{name: "gpus typo against the command", file: "qwen3-235b-a22b-a100/runs/vllm-fp8-tp4/run.yaml", old: "gpus: 4", new: "gpus: 8", rule: RuleGPUFit},
	{name: "gpus beyond the node", file: "qwen3-235b-a22b-a100/runs/vllm-tp8/run.yaml", old: "gpus: 8", new: "gpus: 16", rule: RuleGPUFit},
	// Copies: an error on the copy, never on the original.
	{name: "copied log behind an exported variable", file: "qwen3-32b-a100/runs/vllm-awq/sharegpt.log", copyFrom: "qwen3-32b-a100/runs/vllm-fp8/sharegpt.log",
		rule: RuleCopy, at: "=====", also: []mutation{{file: "qwen3-32b-a100/runs/vllm-awq/run.yaml", old: "command: vllm serve Qwen/Qwen3-32B-AWQ",
			new: "command: |\n  export VLLM_USE_DEEP_GEMM=1\n  vllm serve Qwen/Qwen3-32B-FP8"}}},
	{name: "log copied into the later run", file: "qwen3-32b-a100/runs/vllm-awq/sharegpt.log", copyFrom: "qwen3-32b-a100/runs/vllm-fp8/sharegpt.log", rule: RuleCopy, at: "====="},
	{name: "log copied into the earlier run", file: "qwen3-32b-a100/runs/vllm-fp8/sharegpt.log", copyFrom: "qwen3-32b-a100/runs/vllm-awq/sharegpt.log", rule: RuleCopy, at: "=====",
		known: "without an echo of its settings in either log, the copy is taken to be the run the study shows later"},
}

// harmless are edits that change nothing a reader is told: check must stay
// silent on them.
var harmless = []mutation{
	{name: "respelled tensor parallel", file: "qwen3-235b-a22b-a100/runs/vllm-tp8/run.yaml", old: "-tp 8", new: "--tensor-parallel-size 8"},
	{name: "respelled sglang tp", file: "qwen3-235b-a22b-a100/runs/sglang-tp8/run.yaml", old: "--tp-size 8", new: "--tp 8"},
	{name: "CRLF log", file: "qwen3-32b-a100/runs/vllm/random-4k.log", old: "\n", new: "\r\n", all: true},
	{name: "CRLF run.yaml", file: "qwen3-32b-a100/runs/sglang/run.yaml", old: "\n", new: "\r\n", all: true},
	{name: "CRLF study.yaml", file: "qwen3-32b-a100/study.yaml", old: "\n", new: "\r\n", all: true},
	{name: "model from a local path", file: "qwen3-32b-a100/runs/vllm/run.yaml", old: "vllm serve Qwen/Qwen3-32B", new: "vllm serve /models/Qwen3-32B"},
	{name: "runs of a step reordered", file: "qwen3-32b-a100/study.yaml", old: "runs: [vllm-max-model-len, sglang, trtllm]", new: "runs: [trtllm, sglang, vllm-max-model-len]"},
	{name: "command split with backslashes", file: "qwen3-32b-a100/runs/vllm-max-model-len/run.yaml", old: "command: vllm serve Qwen/Qwen3-32B --max-model-len 32768",
		new: "command: |\n  vllm serve Qwen/Qwen3-32B \\\n    --max-model-len 32768"},
	{name: "image of the stated version", file: "qwen3-235b-a22b-a100/runs/vllm-tp8/run.yaml", old: "vllm serve Qwen", new: "docker run --gpus all vllm/vllm-openai:v0.11.0 --model Qwen"},
	{name: "ranking in lower case", file: "qwen3-32b-a100/study.yaml", old: "TensorRT-LLM (2054.21 tok/s) > vLLM (1730.98 tok/s)", new: "tensorrt-llm (2054.21 tok/s) > vllm (1730.98 tok/s)"},
	{name: "prose ranks the engines as the logs do", file: "content/en/qwen3-235b-a22b-a100.md", old: "does not offer on the A100.",
		new: "does not offer on the A100. With default settings SGLang is faster than vLLM."},
	{name: "workload command with --flag=value", file: "qwen3-32b-a100/study.yaml", old: "--num-prompts 500 --seed 42\n  - id: random-32k", new: "--num-prompts=500 --seed=42\n  - id: random-32k"},
	{name: "vllm started as its api_server module", file: "qwen3-32b-a100/runs/vllm/run.yaml", old: "vllm serve Qwen/Qwen3-32B", new: "python3 -m vllm.entrypoints.openai.api_server --model Qwen/Qwen3-32B"},
	{name: "an exported variable with no copy", file: "qwen3-235b-a22b-a100/runs/vllm-tp8/run.yaml", old: "command: vllm serve", new: "command: |\n  export VLLM_USE_V1=1\n  vllm serve"},
	{name: "reworded prose", file: "content/en/qwen3-235b-a22b-a100.md", old: "The goal is to maximize", new: "This study aims to maximize"},
	{name: "a figure stated right in every language", file: "content/en/qwen3-235b-a22b-a100.md", old: "of different lengths.",
		new: "of different lengths. On ShareGPT the optimized configuration is faster by 59.2 %.", also: []mutation{
			{file: "content/zh/qwen3-235b-a22b-a100.md", old: "进行了测试。", new: "进行了测试。在 ShareGPT 上，优化后的配置吞吐量提升 59.2%。"},
			{file: "content/ja/qwen3-235b-a22b-a100.md", old: "ベンチマークしました。", new: "ベンチマークしました。ShareGPT では最適化後の構成のスループットが 59.2% 向上しました。"}}},
	{name: "num_prompts written in the example's long workload", file: "example-qwen3-8b-l40s/study.yaml", old: "num_prompts: 200", new: "num_prompts: 200 # as sent"},
}

// repoPath is a mutation's file from the repository's root.
func repoPath(file string) string {
	if strings.HasPrefix(file, "content/") {
		return file
	}
	return path.Join("results", file)
}

// studyOf is the study a mutation's file belongs to.
func studyOf(file string) string {
	if rest, ok := strings.CutPrefix(file, "content/"); ok {
		return strings.TrimSuffix(path.Base(rest), ".md")
	}
	return strings.SplitN(file, "/", 2)[0]
}

// checkCopy copies one study of the repository, results and prose, into
// a temporary folder, applies m and returns its errors as "file:line: rule".
func checkCopy(t *testing.T, m mutation) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	for _, d := range checkCopyDiagnostics(t, m) {
		if d.Severity == Error {
			out[fmt.Sprintf("%s:%d: %s", d.File, d.Line, d.Rule)] = true
		}
	}
	return out
}

// checkCopyDiagnostics is checkCopy's every diagnostic.
func checkCopyDiagnostics(t *testing.T, m mutation) []Diagnostic {
	t.Helper()
	id := studyOf(m.file)
	dir := t.TempDir()
	if err := os.CopyFS(path.Join(dir, "results", id), os.DirFS(path.Join("../../results", id))); err != nil {
		t.Fatal(err)
	}
	for _, lang := range study.Languages {
		data, err := os.ReadFile(path.Join("../../content", lang, id+".md"))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(path.Join(dir, "content", lang), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path.Join(dir, "content", lang, id+".md"), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, e := range append([]mutation{m}, m.also...) {
		plant(t, dir, e)
	}
	studies, probs, err := study.LoadAll(os.DirFS(path.Join(dir, "results")), "results")
	if err != nil {
		t.Fatal(err)
	}
	content, cprobs, err := study.LoadContent(os.DirFS(path.Join(dir, "content")), "content")
	if err != nil {
		t.Fatal(err)
	}
	results := assessAll(studies)
	diags := append(Problems(probs), Problems(cprobs)...)
	diags = append(diags, Drift(content, "content")...)
	diags = append(diags, ProseFigures(results, content, "content")...)
	for _, r := range results {
		diags = append(diags, r.Diagnostics...)
	}
	return diags
}

// plant makes one edit of a mutation in the copy in dir.
func plant(t *testing.T, dir string, m mutation) {
	t.Helper()
	f := path.Join(dir, repoPath(m.file))
	if m.copyFrom != "" {
		data, err := os.ReadFile(path.Join("../..", repoPath(m.copyFrom)))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if m.old == "" {
		return
	}
	data, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	n := 1
	if m.all {
		n = -1
	}
	if !strings.Contains(string(data), m.old) {
		t.Fatalf("%s: %q not found in %s", m.name, m.old, m.file)
	}
	if err := os.WriteFile(f, []byte(strings.Replace(string(data), m.old, m.new, n)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// wantAt is where a mutation's error belongs: the first line of the
// mutated file that holds m.at, or the new text.
func wantAt(t *testing.T, m mutation) string {
	file, text := m.file, m.new
	if m.atFile != "" {
		file = m.atFile
	}
	if m.at != "" {
		text = m.at
	}
	data, err := os.ReadFile(path.Join("../..", repoPath(file)))
	if err != nil {
		t.Fatal(err)
	}
	content := string(data)
	if file == m.file && m.old != "" {
		content = strings.Replace(content, m.old, m.new, 1)
	}
	i := strings.Index(content, text)
	if i < 0 {
		t.Fatalf("%s: %q not in %s", m.name, text, file)
	}
	line := strings.Count(content[:i], "\n") + 1
	return fmt.Sprintf("%s:%d: %s", repoPath(file), line, m.rule)
}

// TestMutations plants each mistake into a copy of a study and expects its
// error at its place; harmless edits must add no error. It logs the catch
// rate that docs/checks.md reports.
func TestMutations(t *testing.T) {
	base := map[string]map[string]bool{}
	caught := 0
	for _, m := range mutations {
		got := checkCopy(t, m)
		want := wantAt(t, m)
		switch {
		case got[want]:
			caught++
			if m.known != "" {
				t.Logf("%s: caught now; drop its known gap", m.name)
			}
		case m.known == "":
			t.Errorf("%s: no error %s; errors: %v", m.name, want, keys(got))
		}
	}
	t.Logf("caught %d of %d mutations (%.1f %%)", caught, len(mutations), 100*float64(caught)/float64(len(mutations)))
	for _, m := range harmless {
		id := studyOf(m.file)
		if base[id] == nil {
			base[id] = checkCopy(t, mutation{file: m.file})
		}
		for e := range checkCopy(t, m) {
			if !base[id][e] {
				t.Errorf("harmless edit %q raised %s", m.name, e)
			}
		}
	}
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
