package benchlog

import (
	"bytes"
	"fmt"
	"io"
	"path"
	"strings"
)

// When a file holds no result perflab reads, the error names the benchmark
// family the file looks most like, so a contributor knows whether they
// pasted the wrong file or a tool perflab does not read yet.

// hintWindow is how much of the start of a file is kept to name its family.
const hintWindow = 64 << 10

// families are benchmark outputs by the phrases their printers write.
var families = []struct {
	name    string
	phrases []string
}{
	{"vLLM or SGLang bench serve (a result table without its banner or counts)", []string{"Serving Benchmark Result", "Successful requests", "Request throughput (req/s)"}},
	// Before vLLM's throughput, which a bare "Throughput: " matches too: a
	// tie goes to the family listed first.
	{"Triton perf_analyzer", []string{"infer/sec", "Request concurrency:", "*** Measurement Settings ***", "Inferences/Second vs."}},
	{"vLLM bench throughput / benchmark_throughput.py", []string{"Throughput: ", "requests/s", "total tokens/s"}},
	{"vLLM bench latency / benchmark_latency.py", []string{"Avg latency:", "percentile latency:"}},
	{"SGLang bench_one_batch", []string{"Prefill. latency:", "Decode.  median latency:", "Total. latency:"}},
	{"SGLang bench_offline_throughput", []string{"Offline Throughput Benchmark Result", "Throughput: BSZ", "Num sequences"}},
	{"vLLM multi-turn benchmark (benchmark_serving_multi_turn.py)", []string{"Statistics summary", "runtime_sec = ", "No samples to process", "samples from all the clients"}},
	{"vLLM structured-output benchmark (benchmark_serving_structured_output.py)", []string{"correct_rate(%)", "structured_output_ratio", "guided_decoding_ratio"}},
	{"vllm-omni bench serve", []string{"Text Result", "Audio Result", "Stage Benchmark Result", "vllm_omni"}},
	{"guidellm", []string{"guidellm", "Benchmarks Stats", "Benchmarks Metadata"}},
	{"llmperf (token_benchmark_ray)", []string{"results_ttft_s", "results_inter_token_latency_s", "token_benchmark_ray"}},
	{"llama.cpp llama-bench", []string{"| model", "| test", "t/s", "pp512", "tg128"}},
	{"LMDeploy profile_*", []string{"lmdeploy", "number of prompt tokens", "first token latency(s)"}},
	{"EvalScope perf", []string{"evalscope", "Benchmarking summary", "Percentile results"}},
	{"GenAI-Perf or AIPerf", []string{"genai-perf", "aiperf", "Output Token Throughput", "Time To First Token"}},
	{"OpenVINO GenAI benchmark_genai", []string{"Generate time:", "Tokenization time:", "Detokenization time:", "genai version"}},
	{"Fireworks llm_bench (Locust)", []string{"Time To First Token", "Total Latency", "Num Requests", "locust"}},
	{"Ollama --verbose", []string{"prompt eval rate:", "eval rate:", "prompt eval duration:", "load duration:"}},
	{"MLPerf LoadGen summary", []string{"MLPerf Results Summary", "Samples per second", "Result is :", "Additional Stats"}},
	{"TGI text-generation-benchmark", []string{"text-generation-benchmark", "Decode (token)", "Decode (total)", "| Batch Size |"}},
	{"AISBench", []string{"ais_bench", "AISBench", "Performance Parameters", "Common Metric"}},
	{"trtllm-bench", []string{"PERFORMANCE OVERVIEW", "trtllm-bench", "ENGINE DETAILS", "WORLD + RUNTIME INFORMATION", "THROUGHPUT OVERVIEW", "LATENCY OVERVIEW"}},
}

// closestFamily names the family whose phrases the text has most of, the
// line of the first phrase found, and whether any was found.
func closestFamily(text []byte) (name string, line int, ok bool) {
	best := 0
	for _, f := range families {
		n, first := 0, -1
		for _, p := range f.phrases {
			if i := bytes.Index(text, []byte(p)); i >= 0 {
				n++
				if first < 0 || i < first {
					first = i
				}
			}
		}
		if n > best {
			best, name, line, ok = n, f.name, bytes.Count(text[:first], []byte("\n"))+1, true
		}
	}
	return name, line, ok
}

// noResultMessage says that a file holds no result perflab reads, and what
// it looks like instead.
func noResultMessage(name string, head []byte) (string, int) {
	name = path.Base(name)
	if family, line, ok := closestFamily(head); ok {
		return fmt.Sprintf("no known benchmark output in %s: it looks most like %s output (from line %d), but perflab does not read this layout of %s yet (or this is not the file the run wrote); docs/metrics.md lists the layouts perflab reads", name, family, line, toolOf(family)), line
	}
	return fmt.Sprintf(`no known benchmark output in %s: nothing in it looks like a benchmark's result (perflab reads the vLLM, SGLang and TensorRT-LLM benchmarks, GenAI-Perf, AIPerf, guidellm, llmperf, EvalScope, LMDeploy, llama-bench, perf_analyzer, Ollama, MLPerf LoadGen, TGI's benchmark and AISBench; docs/metrics.md lists them); paste the output from its "Serving Benchmark Result" banner or the tool's summary`, name), 1
}

// headKeeper keeps the first hintWindow bytes read through it.
type headKeeper struct {
	r    io.Reader
	head []byte
}

// Len is what is left to read when the reader says it, so that a small
// in-memory log keeps its small read buffer (see NewScanner).
func (h *headKeeper) Len() int {
	if l, ok := h.r.(interface{ Len() int }); ok {
		return l.Len()
	}
	return readBufSize
}

func (h *headKeeper) Read(p []byte) (int, error) {
	n, err := h.r.Read(p)
	if room := hintWindow - len(h.head); room > 0 && n > 0 {
		h.head = append(h.head, p[:min(n, room)]...)
	}
	return n, err
}

// toolOf is a family's name without its note in parentheses.
func toolOf(family string) string {
	if i := strings.Index(family, " ("); i > 0 {
		return family[:i]
	}
	return family
}
