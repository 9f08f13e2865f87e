// Package serving knows the serving engines: how a command names its engine,
// its model and its parallel sizes, which flags mean the same thing, which
// flags change performance, and how many GPUs a command occupies.
//
// Every part of perflab that reads a serving command (check, import, add,
// the report's recommended command) asks this package, so that the rules
// are written once; docs/checks.md shows them as tables.
package serving

import (
	"regexp"
	"strings"
)

// Engine is one serving engine.
type Engine struct {
	ID   string // canonical id: vllm, sglang, trtllm...
	Name string // as people write it: vLLM, SGLang, TensorRT-LLM
	// Aliases are ids and names that mean the engine, lower case, no spaces.
	Aliases []string
	// Starts are substrings of a command line that start the engine.
	Starts []string
	// Derive is a minimal command serving a model (%s).
	Derive string
	// Flags maps each flag spelling the engine accepts (without dashes,
	// "_" as "-") onto its canonical name.
	Flags map[string]string
	// GPUs is how many GPUs a command with these canonical sizes occupies,
	// and GPURule says how in words.
	GPUs    func(s Sizes) int
	GPURule string
	// ConfigOutside is set for engines whose parallelism is configured
	// outside the command (MindIE's JSON file).
	ConfigOutside bool
}

// Sizes are a command's parallel sizes, each 1 when not given.
type Sizes struct {
	TP, PP, DP, EP int
	// DPAttention is SGLang's --enable-dp-attention: the dp groups split
	// the tp GPUs instead of adding replicas.
	DPAttention bool
}

// Canonical flag names.
const (
	FlagModel       = "model"
	FlagTP          = "tensor-parallel-size"
	FlagPP          = "pipeline-parallel-size"
	FlagDP          = "data-parallel-size"
	FlagEP          = "expert-parallel-size"
	FlagDPAttention = "enable-dp-attention"
)

// commonFlags are spellings every engine shares.
var commonFlags = map[string]string{
	"model": FlagModel, "model-path": FlagModel, "model-dir": FlagModel, "model-id": FlagModel,
	"tp": FlagTP, "tp-size": FlagTP, "tensor-parallel-size": FlagTP,
	"pp": FlagPP, "pp-size": FlagPP, "pipeline-parallel-size": FlagPP,
	"dp": FlagDP, "dp-size": FlagDP, "data-parallel-size": FlagDP,
	"ep": FlagEP, "ep-size": FlagEP, "expert-parallel-size": FlagEP, "moe-ep-size": FlagEP,
}

func with(extra map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range commonFlags {
		out[k] = v
	}
	for k, v := range extra {
		out[k] = v
	}
	return out
}

// product is tensor x pipeline x data parallel: each data-parallel rank is
// a replica with its own GPUs; expert parallelism reuses them.
func product(s Sizes) int { return s.TP * s.PP * s.DP }

// Engines are the engines perflab knows, in the order a name is matched
// (TensorRT before the shorter "trt").
var Engines = []*Engine{
	{ID: "vllm", Name: "vLLM", Aliases: []string{"vllm", "vllm-ascend"},
		Starts: []string{"vllm serve ", "vllm.entrypoints", "vllm/vllm-openai"},
		Derive: "vllm serve %s",
		Flags: with(map[string]string{
			"enable-expert-parallel": FlagEP, // a switch: experts spread over the tp x dp GPUs
		}),
		GPUs: product, GPURule: "tensor x pipeline x data parallel; expert parallel reuses them"},
	{ID: "sglang", Name: "SGLang", Aliases: []string{"sglang"},
		Starts: []string{"sglang.launch_server", "sglang serve ", "lmsysorg/sglang"},
		Derive: "python3 -m sglang.launch_server --model-path %s",
		Flags: with(map[string]string{
			"enable-dp-attention": FlagDPAttention,
		}),
		GPUs: func(s Sizes) int {
			if s.DPAttention {
				return s.TP * s.PP // dp attention groups live inside the tp GPUs
			}
			return product(s)
		},
		GPURule: "tensor x pipeline x data parallel; with --enable-dp-attention, tensor x pipeline"},
	{ID: "trtllm", Name: "TensorRT-LLM", Aliases: []string{"trtllm", "tensorrt-llm", "tensorrt_llm", "trt-llm", "tensorrtllm"},
		Starts: []string{"trtllm-serve", "trtllm-llmapi-launch", "trtllm-bench"},
		Derive: "trtllm-serve %s",
		Flags:  with(nil),
		// Expert and attention data parallelism both live inside tp.
		GPUs: func(s Sizes) int { return s.TP * s.PP }, GPURule: "tensor x pipeline; expert and attention data parallel live inside tensor parallel"},
	{ID: "mindie", Name: "MindIE", Aliases: []string{"mindie", "mindie-service"},
		Starts: []string{"mindie serve ", "mindieservice_daemon", "mindie-service"},
		Derive: "mindie serve %s", Flags: with(nil), GPUs: product, ConfigOutside: true, GPURule: "set in MindIE's configuration file, not the command"},
	{ID: "lmdeploy", Name: "LMDeploy", Aliases: []string{"lmdeploy"},
		Starts: []string{"lmdeploy serve "}, Derive: "lmdeploy serve api_server %s",
		Flags: with(nil), GPUs: product, GPURule: "tensor x data parallel"},
	{ID: "llamacpp", Name: "llama.cpp", Aliases: []string{"llamacpp", "llama.cpp", "llama-cpp"},
		Starts: []string{"llama-server "}, Derive: "llama-server -m %s",
		Flags: with(map[string]string{"m": FlagModel}), GPUs: func(Sizes) int { return 1 }, GPURule: "one process"},
	{ID: "tgi", Name: "TGI", Aliases: []string{"tgi", "text-generation-inference"},
		Starts: []string{"text-generation-launcher"}, Derive: "text-generation-launcher --model-id %s",
		Flags: with(map[string]string{"num-shard": FlagTP}), GPUs: product, GPURule: "--num-shard"},
}

// generic reads a command of no known engine with the shared spellings.
var generic = &Engine{ID: "", Flags: commonFlags, GPUs: product, GPURule: "tensor x pipeline x data parallel"}

// ByID is the engine with a canonical id, or nil.
func ByID(id string) *Engine {
	for _, e := range Engines {
		if e.ID == id {
			return e
		}
	}
	return nil
}

// ByAlias is the engine an id or name means exactly ("vLLM", "TensorRT-LLM",
// "trt-llm"), or nil.
func ByAlias(name string) *Engine {
	n := strings.ToLower(strings.ReplaceAll(strings.TrimSpace(name), " ", ""))
	for _, e := range Engines {
		for _, a := range e.Aliases {
			if n == a {
				return e
			}
		}
	}
	return nil
}

// nameWords find an engine's name inside prose: a heading "Choosing SGLang",
// a backend "sglang-oai-chat".
var nameWords = []struct {
	re *regexp.Regexp
	id string
}{
	{regexp.MustCompile(`(?i)tensorrt[-_ ]?llm|\btrt[-_ ]?llm|\btrtllm`), "trtllm"},
	{regexp.MustCompile(`(?i)sglang`), "sglang"},
	{regexp.MustCompile(`(?i)vllm`), "vllm"},
	{regexp.MustCompile(`(?i)mindie`), "mindie"},
	{regexp.MustCompile(`(?i)lmdeploy`), "lmdeploy"},
	{regexp.MustCompile(`(?i)llama\.cpp|llama-server|llamacpp`), "llamacpp"},
	{regexp.MustCompile(`(?i)\btgi\b|text-generation-inference`), "tgi"},
}

// Named is the engine a piece of prose names, or nil when it names none.
func Named(text string) *Engine {
	if all := NamedAll(text); len(all) > 0 {
		return all[0]
	}
	return nil
}

// NamedAll lists every engine a piece of prose names, in the order of
// Engines: "Quantization in TensorRT-LLM/vLLM" names two.
func NamedAll(text string) []*Engine {
	var out []*Engine
	for _, w := range nameWords {
		if w.re.MatchString(text) {
			out = append(out, ByID(w.id))
		}
	}
	return out
}

// Started is the engine a command starts, read from its command lines
// only: a comment such as "# a vLLM-like command" names no engine.
func Started(command string) *Engine {
	low := " " + strings.ToLower(strings.Join(Words(command), " ")) + " "
	for _, e := range Engines {
		for _, s := range e.Starts {
			if strings.Contains(low, s) {
				return e
			}
		}
	}
	return nil
}

// Words splits a command into its words: comment lines, trailing comments,
// line continuations and quotes dropped.
func Words(command string) []string {
	var out []string
	for _, line := range strings.Split(command, "\n") {
		line = strings.TrimSpace(line)
		if i := strings.Index(line, " #"); i >= 0 {
			line = line[:i]
		}
		if strings.HasPrefix(line, "#") {
			continue
		}
		line = strings.TrimPrefix(line, "$ ")
		for _, f := range strings.Fields(line) {
			if f != "\\" {
				out = append(out, strings.Trim(f, `"'`))
			}
		}
	}
	return out
}
