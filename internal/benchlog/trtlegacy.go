package benchlog

import (
	"bytes"
	"strings"
)

// TensorRT-LLM's benchmarks from before trtllm-bench print "[BENCHMARK]"
// lines of "key value" pairs:
//
//   - benchmarks/python/benchmark.py (FormatTRTLLMLegacy): one line per
//     (batch size, input length, output length) case, "[BENCHMARK] model_name
//     llama_7b world_size 1 ... batch_size 8 input_length 128 output_length
//     128 gpu_peak_mem(gb) 14.2 build_time(s) 0 tokens_per_sec 1534.2
//     percentile95(ms) 670.1 percentile99(ms) 671.0 latency(ms) 667.4
//     compute_cap sm80 quantization QuantMode.0", since 2024 followed by
//     generation_time(ms), total_generated_tokens and
//     generation_tokens_per_second. latency(ms) is the mean wall time of the
//     whole static batch over the iterations, as vLLM's benchmark_latency,
//     and tokens_per_sec = batch_size * output_length / latency. One block
//     per line.
//   - benchmarks/cpp gptSessionBenchmark (FormatTRTLLMLegacy too): the same
//     kind of line for a static batch run by the C++ runtime, "[BENCHMARK]
//     batch_size 1 input_length 60 output_length 20 latency(ms) 40.81",
//     later followed by "tokensPerSec" (batch_size * output_length /
//     latency), "gpu_peak_mem(gb)", and in 2024 "generation_time(ms)" and
//     "generationTokensPerSec" before it. (bertBenchmark's lines, without
//     output_length, are not an LLM's.)
//   - benchmarks/cpp gptManagerBenchmark (FormatTRTLLMManager): one key and
//     value a line, "[BENCHMARK] num_samples 500", "[BENCHMARK]
//     total_latency(ms) 52372.21", ... (early builds printed
//     "num_samples(ms)"); the lines of one run, blank lines between them
//     allowed, are one block.

// legacyPython maps benchmark.py's keys; the others are kept as labels.
var legacyPython = map[string]keySpec{
	"batch_size":       {key: "batch_size"},
	"input_length":     {key: "mean_input_len"},
	"output_length":    {key: "mean_output_len"},
	"latency(ms)":      {key: "mean_e2el_ms", unit: "ms", from: "ms"},
	"percentile95(ms)": {key: "p95_e2el_ms", unit: "ms", from: "ms"},
	"percentile99(ms)": {key: "p99_e2el_ms", unit: "ms", from: "ms"},
	"tokens_per_sec":   {key: "output_throughput"},
	"tokensPerSec":     {key: "output_throughput"}, // gptSessionBenchmark
}

// legacyManager maps gptManagerBenchmark's keys.
var legacyManager = map[string][]keySpec{
	"num_samples":                 {{key: "completed"}},
	"num_samples(ms)":             {{key: "completed"}}, // early builds' typo
	"num_error_samples":           {{key: "failed"}},
	"total_latency(ms)":           {{key: "duration", unit: "s", from: "ms"}},
	"seq_throughput(seq/sec)":     {{key: "request_throughput"}},
	"token_throughput(token/sec)": {{key: "output_throughput"}},
}

func init() {
	for stat, keys := range map[string][]string{
		"avg": {"mean"}, "max": {"max"}, "min": {"min"}, "p99": {"p99"}, "p90": {"p90"}, "p50": {"p50", "median"},
	} {
		for name, base := range map[string]string{"sequence_latency": "e2el", "time_to_first_token": "ttft"} {
			var specs []keySpec
			for _, k := range keys {
				specs = append(specs, keySpec{key: k + "_" + base + "_ms", unit: "ms", from: "ms"})
			}
			legacyManager[stat+"_"+name+"(ms)"] = specs
		}
	}
}

var benchTag = []byte("[BENCHMARK] ")

// legacyStart reads a "[BENCHMARK] " line outside any block.
func (s *Scanner) legacyStart(text []byte) bool {
	if !bytes.HasPrefix(text, benchTag) {
		return false
	}
	f := strings.Fields(string(text[len(benchTag):]))
	if len(f) == 2 {
		if _, ok := legacyManager[f[0]]; ok {
			m := &managerReport{b: &Block{File: s.name, Line: s.line, EndLine: s.line, Metrics: map[string]Metric{},
				Format: FormatTRTLLMManager, Tool: ToolTRTLLM, Definition: CountOverDuration, Version: "gptManagerBenchmark"}}
			s.rd = m
			m.pair(s, f[0], f[1])
			return true
		}
		return false
	}
	if len(f) < 4 || len(f)%2 != 0 {
		return false
	}
	version := "benchmark.py"
	switch {
	case f[0] == "model_name":
	case f[0] == "batch_size" && len(f) >= 8 && f[2] == "input_length" && f[4] == "output_length" && f[6] == "latency(ms)":
		version = "gptSessionBenchmark"
	default:
		return false
	}
	b := &Block{File: s.name, Line: s.line, EndLine: s.line, Metrics: map[string]Metric{},
		Format: FormatTRTLLMLegacy, Tool: ToolTRTLLM, Definition: StaticBatch, Version: version}
	for i := 0; i < len(f); i += 2 {
		k, v := f[i], f[i+1]
		b.Labels = append(b.Labels, Label{Label: k, Value: v, Line: s.line})
		if k == "generation_time(ms)" {
			b.Version = version + " 2024+ (generation_time)"
		}
		spec, ok := legacyPython[k]
		if !ok {
			continue
		}
		legacyMetric(b, s.line, spec, k, v)
	}
	s.emit(b)
	return true
}

// managerReport is the reader of a gptManagerBenchmark report: a run of
// "[BENCHMARK] key value" lines.
type managerReport struct{ b *Block }

// line reads a line of the report; false when the line ended it (read it
// as any other).
func (m *managerReport) line(s *Scanner, line []byte) bool {
	text := s.clean(line)
	if len(text) == 0 {
		return true
	}
	if bytes.HasPrefix(text, benchTag) {
		// The key may have blanks: "avg_acceptance_rate(tokens/decoding steps) 1.00".
		rest := strings.TrimSpace(string(text[len(benchTag):]))
		if i := strings.LastIndexAny(rest, " \t"); i > 0 {
			k, v := strings.TrimSpace(rest[:i]), rest[i+1:]
			if _, done := m.b.Metrics["duration"]; done && strings.HasPrefix(k, "num_samples") {
				// The next run's report.
				m.end(s)
				return false
			}
			m.pair(s, k, v)
			return true
		}
	}
	m.end(s)
	return false
}

func (m *managerReport) pair(s *Scanner, k, v string) {
	b := m.b
	b.EndLine = s.line
	b.Labels = append(b.Labels, Label{Label: k, Value: v, Line: s.line})
	for _, spec := range legacyManager[k] {
		if _, dup := b.Metrics[spec.key]; !dup {
			legacyMetric(b, s.line, spec, k, v)
		}
	}
}

func legacyMetric(b *Block, line int, spec keySpec, label, v string) {
	if notFinite(spec.key, v) {
		b.Problems = append(b.Problems, notFiniteProblem(b.File, line, label, v, spec.key))
		return
	}
	m, ok := makeMetric(spec, v, line)
	if !ok {
		b.Problems = append(b.Problems, &SyntaxError{File: b.File, Line: line,
			Msg: "value " + quote(v) + " of " + label + " is not a number; no " + spec.key + " read"})
		return
	}
	m.Raw = v
	b.Metrics[spec.key] = m
}

func (m *managerReport) end(s *Scanner) {
	b := m.b
	s.rd = nil
	if len(b.Metrics) > 0 {
		s.emit(b)
	}
}
