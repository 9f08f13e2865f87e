package main

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

const studyID = "example-qwen3-8b-l40s"

// Loads of the example's workloads.
var (
	chat  = load{prompts: 500, inputLen: 1000, outputLen: 200, concurrency: 64, goodputTTFT: 300, goodputTPOT: 30}
	long  = load{prompts: 200, inputLen: 8000, outputLen: 200, concurrency: 16}
	sweep = []int{1, 4, 16, 64, 128} // the concurrencies of the sweep workload
)

const sweepPrompts = 256

// A configuration of the example and the engine model it is simulated with.
type config struct {
	id, name, engine, command string
	model                     engineModel
	repeats                   int  // of the chat workload
	sweepRepeats              int  // of each load of the sweep workload; 0: one log per load
	long                      bool // measured on the long workload
	accuracy                  map[string]float64
	history                   []version // earlier engine versions, oldest first
}

type version struct {
	name  string
	model engineModel
}

var configs = []config{
	{id: "vllm", name: "vLLM BF16", engine: "vllm", command: "vllm serve Qwen/Qwen3-8B --max-num-seqs 256",
		model: engineModel{decodeMs: 12.0, slopeMs: 0.30, prefillTPS: 12000, maxBatch: 256}, repeats: 3, long: true,
		accuracy: map[string]float64{"gsm8k": 0.8848, "mmlu": 0.7478},
		history: []version{
			{"v0.9.2", engineModel{decodeMs: 13.6, slopeMs: 0.33, prefillTPS: 11000, maxBatch: 256}},
			{"v0.10.1", engineModel{decodeMs: 11.7, slopeMs: 0.29, prefillTPS: 12200, maxBatch: 256}},
		}},
	{id: "sglang", name: "SGLang BF16", engine: "sglang", command: "python3 -m sglang.launch_server --model-path Qwen/Qwen3-8B --max-running-requests 256",
		model: engineModel{decodeMs: 11.95, slopeMs: 0.30, prefillTPS: 12400, maxBatch: 256}, repeats: 3, sweepRepeats: 3},
	{id: "vllm-fp8", name: "vLLM FP8", engine: "vllm", command: "vllm serve Qwen/Qwen3-8B-FP8 --max-num-seqs 256",
		model: engineModel{decodeMs: 9.1, slopeMs: 0.24, prefillTPS: 16000, maxBatch: 256}, repeats: 3, long: true,
		accuracy: map[string]float64{"gsm8k": 0.8802, "mmlu": 0.7441}},
}

// generate returns every file of the example study, by path under results/.
func generate() map[string][]byte {
	files := map[string][]byte{}
	put := func(name, text string) { files[studyID+"/"+name] = []byte(text) }
	// One generator per configuration, so that changing one leaves the
	// others' logs alone.
	for i, c := range configs {
		rng := rand.New(rand.NewPCG(uint64(i+1), 2026))
		sweepRng := rand.New(rand.NewPCG(uint64(i+1), 2027))
		dir := "runs/" + c.id + "/"
		put(dir+"run.yaml", fmt.Sprintf("name: %s\nengine: %s\ncommand: %s\ngpus: 1\n", c.name, c.engine, c.command))
		for k := 1; k <= c.repeats; k++ {
			put(fmt.Sprintf("%schat.run-%d.log", dir, k), vllmBlock(simulate(c.model, chat, rng, 0.006)))
		}
		for _, n := range sweep {
			l := load{prompts: sweepPrompts, inputLen: 1000, outputLen: 200, concurrency: n}
			if c.sweepRepeats == 0 {
				put(fmt.Sprintf("%ssweep.c%d.log", dir, n), vllmBlock(simulate(c.model, l, rng, 0.006)))
				continue
			}
			// Repeats of a load, from a generator of their own: the
			// wider jitter of a busy shared machine, so that the
			// intervals show on the chart.
			for k := 1; k <= c.sweepRepeats; k++ {
				put(fmt.Sprintf("%ssweep.c%d.run-%d.log", dir, n, k), vllmBlock(simulate(c.model, l, sweepRng, 0.04)))
			}
		}
		if c.long {
			put(dir+"long.log", vllmBlock(simulate(c.model, long, rng, 0.006)))
		}
		for _, v := range c.history {
			put(dir+"history/"+v.name+"/chat.log", vllmBlock(simulate(v.model, chat, rng, 0.006)))
		}
		if c.accuracy != nil {
			put(dir+"accuracy.json", accuracyJSON(c.accuracy))
		}
	}
	put("study.yaml", studyYAML)
	return files
}

// accuracyJSON writes scores as lm-evaluation-harness writes its results
// file: gsm8k's exact match and mmlu's accuracy, each with a standard error.
func accuracyJSON(scores map[string]float64) string {
	var b strings.Builder
	b.WriteString("{\n  \"results\": {\n")
	b.WriteString(fmt.Sprintf("    \"gsm8k\": {\n      \"alias\": \"gsm8k\",\n      \"exact_match,strict-match\": %.4f,\n      \"exact_match_stderr,strict-match\": 0.0088\n    },\n", scores["gsm8k"]))
	b.WriteString(fmt.Sprintf("    \"mmlu\": {\n      \"alias\": \"mmlu\",\n      \"acc,none\": %.4f,\n      \"acc_stderr,none\": 0.0035\n    }\n", scores["mmlu"]))
	b.WriteString("  },\n  \"config\": {\n    \"model\": \"local-completions\",\n    \"num_fewshot\": 5\n  }\n}\n")
	return b.String()
}

const benchCommand = "vllm bench serve --model Qwen/Qwen3-8B --dataset-name random --random-input-len %d --random-output-len 200 --num-prompts %d --max-concurrency %s --percentile-metrics ttft,tpot,itl,e2el --seed 42"

var studyYAML = `kind: example
model: Qwen/Qwen3-8B
hardware:
  gpu: NVIDIA L40S
  gpus_per_node: 1
  nodes: 1
objective: throughput
slo:
  statistic: p99
  ttft_ms: 3000
  tpot_ms: 60
price:
  gpu_hour: 1.00
  currency: USD
engines:
  - id: vllm
    name: vLLM
    version: v0.11.0
  - id: sglang
    name: SGLang
    version: v0.5.5.post1
benchmark:
  tool: vllm bench serve
  commands: |
    # Simulated by cmd/examplegen: these commands were not run.
    ` + fmt.Sprintf(benchCommand, 1000, chat.prompts, "64") + ` --goodput ttft:300 tpot:30
    ` + fmt.Sprintf(benchCommand, 1000, sweepPrompts, "$C") + `
    ` + fmt.Sprintf(benchCommand, 8000, long.prompts, "16") + `
workloads:
  - id: chat
    dataset: random
    input_len: 1000
    output_len: 200
    num_prompts: 500
    seed: 42
    max_concurrency: 64
    main: true
  - id: sweep
    dataset: random
    input_len: 1000
    output_len: 200
    num_prompts: 256
    seed: 42
    sweep:
      max_concurrency: [1, 4, 16, 64, 128]
  - id: long
    dataset: random
    input_len: 8000
    output_len: 200
    num_prompts: 200
    seed: 42
    max_concurrency: 16
baseline: [vllm]
recommended: [vllm-fp8]
steps:
  - id: engine
    runs: [vllm, sglang]
    reference: vllm
  - id: quantization
    runs: [vllm-fp8]
    reference: vllm
acknowledged:
  - rule: regression
    subject: vllm/chat@v0.11.0
    reason:
      en: "Simulated on purpose: the example's engine model makes v0.11.0 a little slower than v0.10.1, to show how a regression between engine versions is reported."
      zh: "这是有意模拟的：示例的引擎模型让 v0.11.0 比 v0.10.1 稍慢，用来展示引擎版本之间的性能回退会如何呈现。"
      ja: "意図的なシミュレーションです。例示用のエンジンモデルでは v0.11.0 を v0.10.1 よりわずかに遅くしてあり、エンジンのバージョン間の性能低下がどう報告されるかを示しています。"
`
