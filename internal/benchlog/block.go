// Package benchlog reads raw benchmark output of LLM-serving benchmarks
// (vLLM "bench serve" and its relatives, SGLang, TensorRT-LLM, GenAI-Perf,
// AIPerf, guidellm, Ray llmperf) into result blocks with canonical metric
// keys (docs/metrics.md maps the guidellm and llmperf ones).
//
// It knows nothing about studies, YAML, languages or output formats, and it
// never prints. Every block and every error carries the file and 1-based line
// it came from.
//
// A Scanner streams its input: memory does not grow with the file. It
// chooses a reader from the first bytes (a look-alike is never read as a
// result):
//
//   - '{' followed by '"', or '[' followed by '{': JSON. FormatVLLMJSON (vLLM
//     --save-result, one object or several appended, key typos
//     "request_goodput:" and "request_inthroughput", "inf" strings),
//     FormatSGLangJSONL (one object per line, bare Infinity/NaN),
//     FormatTRTLLMJSON (TensorRT-LLM's --save-result) and
//     FormatTRTLLMBenchJS (trtllm-bench --report_json). Objects are read
//     token by token; only one object's per-request arrays are held. From
//     the arrays (ttfts, itls, latencies, output_lens, errors) the latency
//     statistics are recomputed like numpy does, over the successful
//     requests: a statistic the JSON lacks is added (Definition Recomputed),
//     one it has is checked against them (vLLM), and the samples are kept in
//     Block.Requests. A Block's Line is the line of its object's '{'.
//     A top-level object with a "benchmarks" list is a guidellm report
//     (FormatGuideLLMJSON, one block per benchmark, guidellm.go); one with
//     results_* keys is a Ray llmperf *_summary.json (FormatLLMPerfJSON);
//     one with "Time taken for tests (s)" or "Test Duration (s)" is EvalScope's
//     benchmark_summary.json (FormatEvalScopeJSON, evalscope.go).
//   - a first line "Metric,..." or "Statistic,...": a GenAI-Perf or AIPerf
//     CSV export (FormatGenAIPerfCSV, FormatAIPerfCSV), read with gocsv
//     section by section; columns are found by name.
//   - anything else: a console log, read line by line with a fixed-size
//     buffer (very long lines such as a Namespace(...) dump or a redrawn
//     progress bar are searched for the banner and otherwise skipped). Each
//     line loses its CR end and the prefixes a log collector or a paste put
//     before it (a quote, a docker compose service, an RFC 3339 timestamp, a
//     rank, a Ray worker, a grep -n or cat -n line number: prefix.go). In it:
//
// Layouts read from console logs (docs/metrics.md, "Outputs perflab reads"):
//
//   - FormatVLLM: the "Serving Benchmark Result" table of every vLLM release
//     since v0.4.0, the banner found anywhere in a line, closed by a rule of
//     '='. Labels are matched case-insensitively after white space, ANSI
//     colours, "# " prefixes and CR are removed.
//   - FormatVLLMHeaderless: the same table with its banner lost, from a
//     "Successful requests:" line to the closing rule.
//   - FormatVLLMPlain: the 2023 ("Total time: 219.64 s") and early-2024
//     ("Benchmark duration: 294.101467 s") lines, units in the values.
//   - FormatSGLang, FormatTRTLLMServe: the copies of the table printed by
//     sglang.bench_serving and TensorRT-LLM's benchmark_serving.py, told apart
//     by their own labels (Backend, Concurrency, Total requests, Std Dev ...).
//   - FormatGuideLLM: GPUStack's rendering of guidellm results, marked by a
//     Latency section in seconds; its throughputs are TimeSeriesMean.
//   - FormatTRTLLMBench: the trtllm-bench report, from its first "= TITLE"
//     line; a result only with a PERFORMANCE OVERVIEW. Its duration is the
//     Total Latency, and total tokens are derived from the average lengths.
//   - FormatGenAIPerf, FormatAIPerf: the rich console tables (box drawing,
//     wrapped row labels, N/A cells, thousands separators, nanoseconds in
//     2024) and the lines printed after them (system throughputs, AIPerf's
//     Benchmark Duration). "Inter Token Latency" is canonical TPOT.
//   - FormatGuideLLMConsole: guidellm's own tables, one block per benchmark
//     (a sweep gives several): v0.2-v0.3 "Benchmarks Info:" and "Benchmarks
//     Stats:" (ASCII, rows wrapped at the terminal width are joined), v0.4+
//     "ℹ Run Summary Info" ... "ℹ Server Throughput Statistics". A block
//     covers the benchmark's row in the last table; the metrics from its
//     rows in earlier tables keep their own, earlier, lines.
//   - FormatGuideLLMYAML: guidellm's benchmarks.yaml, from a line
//     "benchmarks:", read line by line; one block per benchmark.
//   - FormatLLMPerf: Ray llmperf's printed summary, from its
//     "\Results for token benchmark for ..." line to "Completed Requests
//     Per Minute:".
//   - FormatEvalScope: evalscope perf's "Benchmarking summary:" table and
//     the "Percentile results:" table after it, one block per run
//     (evalscope.go).
//   - FormatLMDeploy, FormatLMDeployLegacy: LMDeploy's profile_throughput.py
//     (Profiler.summarize table; before 2025 the "concurrency:" ...
//     "RPM (request per minute):" lines, also of profile_restful_api.py;
//     the lines of profile_generation.py), lmdeploy.go.
//   - FormatUnknown: a banner over labels that are not a serving result (no
//     request count and duration): its labels are kept, no metric is read.
//   - FormatSGLangOffline: sglang.bench_offline_throughput's "Offline
//     Throughput Benchmark Result" banner over bench_serving's labels;
//     FormatSGLangOfflineLegacy: its 2024 "Throughput: ... tokens/s" lines
//     and the printed result dict or list (sgloffline.go).
//   - FormatVLLM blocks of benchmark_serving_structured_output.py take the
//     "correct_rate(%) X" line printed after their rule (structured.go).
//   - FormatVLLMMultiTurn: benchmark_serving_multi_turn.py's "Statistics
//     summary" and its pandas table (multiturn.go).
//   - FormatVLLMOmni: vllm-omni's table with "Text Result", "Audio Result"
//     ... sub-banners (omni.go).
//   - FormatVLLMThroughput, FormatVLLMLatency, FormatSGLangOneBatch: the lines
//     printed by vllm bench throughput / latency and sglang.bench_one_batch
//     (offline.go); their --output-json files are FormatVLLMThroughputJSON and
//     FormatVLLMLatencyJSON.
//   - FormatPerfAnalyzer (Triton perf_analyzer, infer/sec kept as
//     inferences_per_s), FormatOllama (ollama run --verbose), FormatLoadGen
//     (MLPerf LoadGen summary), FormatTGIBenchmark (text-generation-benchmark
//     tables), FormatAISBench (ais_bench --mode perf tables); the first
//     bytes "Provider,Model," choose FormatFireworksCSV (llm_bench
//     --summary-file).
//   - A block without banner learns an unknown log prefix from the line
//     before it (logprefix.go); guidellm and EvalScope percentile tables are
//     known by their header rows whatever their titles.
//   - FormatError: a failed run, "RuntimeError: ..." (also behind "# "),
//     "NotImplementedError: ...", a repr ValueError("..."), "# Crash ...":
//     Block.Failure holds the exception and message. Parse returns failures
//     only when a file has no result block.
//
// llama.cpp's llama-bench (docs/llama-bench.md) prints one result per test
// (pp512, tg128, pp512+tg128, "@ d4096" depths); each becomes a block of
// Tool ToolLlamaBench and Definition PerRepetitionMean, in every output mode:
// the markdown table (FormatLlamaBench: its header "| model | ... | test |
// t/s |", one block per row, the "build: commit (number)" footer as
// Version), CSV (a "build_commit,..." header line), JSON, JSONL and SQL
// INSERT lines. Its t/s go to pp_tokens_per_s, tg_tokens_per_s or
// pg_tokens_per_s (prompt and generation together) and their std_ keys.
//
// Each block records its Tool and Version (the release or era its labels
// show), the Definition its throughputs follow and, in Definitions, the
// metrics that follow another one (PerRequestMean, PeakBucket, Recomputed,
// Derived), so that a validator applies only the identities that hold.
//
// Keys are those of vLLM's --save-result JSON (docs/metrics.md, "Keys"):
// completed, duration, request_throughput, mean_ttft_ms, p99.9_itl_ms, ...
// Latencies are in ms and durations in s whatever unit was printed; Metric
// records the printed value, its decimals and its line (a JSON number's
// decimals are its own digits, so interval checks stay exact). Labels
// without a key are kept in Block.Labels only; values such as inf, None, not
// set or N/A give no metric. Values that should be numbers and are not, and
// blocks cut off before their closing rule, are reported in Block.Problems;
// reading goes on.
package benchlog

import "fmt"

// Format names the layout a block was printed in.
type Format string

// Formats recognised by the parser.
const (
	FormatVLLM           Format = "vllm"              // banner table of vllm bench serve / benchmark_serving.py
	FormatVLLMHeaderless Format = "vllm-headerless"   // the same table with its banner lost
	FormatVLLMPlain      Format = "vllm-plain"        // 2023 and early-2024 "Label: value unit" lines without banner
	FormatSGLang         Format = "sglang"            // sglang.bench_serving's copy of the table
	FormatTRTLLMServe    Format = "trtllm-serve"      // TensorRT-LLM's benchmark_serving.py copy
	FormatGuideLLM       Format = "gpustack-guidellm" // GPUStack's guidellm rendering
	FormatUnknown        Format = "unknown"           // a banner whose labels are not a serving result

	FormatVLLMJSON      Format = "vllm-json"         // vLLM --save-result JSON, one or more objects per file
	FormatTRTLLMJSON    Format = "trtllm-serve-json" // TensorRT-LLM benchmark_serving.py --save-result JSON
	FormatSGLangJSONL   Format = "sglang-jsonl"      // SGLang --output-file JSON lines
	FormatTRTLLMBench   Format = "trtllm-bench"      // trtllm-bench report
	FormatTRTLLMBenchJS Format = "trtllm-bench-json" // trtllm-bench --report_json
	FormatGenAIPerf     Format = "genai-perf"        // GenAI-Perf console table
	FormatGenAIPerfCSV  Format = "genai-perf-csv"    // GenAI-Perf profile_export CSV
	FormatAIPerf        Format = "aiperf"            // AIPerf console table
	FormatAIPerfCSV     Format = "aiperf-csv"        // AIPerf profile_export_aiperf.csv
	FormatError         Format = "error"             // a failed run: an error where a result would be

	FormatLlamaBench      Format = "llama-bench"       // llama.cpp llama-bench -o md: one block per table row
	FormatLlamaBenchCSV   Format = "llama-bench-csv"   // llama-bench -o csv
	FormatLlamaBenchJSON  Format = "llama-bench-json"  // llama-bench -o json: an array, one object per test
	FormatLlamaBenchJSONL Format = "llama-bench-jsonl" // llama-bench -o jsonl: one object per line
	FormatLlamaBenchSQL   Format = "llama-bench-sql"   // llama-bench -o sql: one INSERT per test
	// Offline and latency benchmarks, no server (offline.go, docs/metrics.md).
	FormatVLLMThroughput      Format = "vllm-throughput"       // vllm bench throughput / benchmark_throughput.py final lines
	FormatVLLMThroughputJSON  Format = "vllm-throughput-json"  // its --output-json
	FormatVLLMLatency         Format = "vllm-latency"          // vllm bench latency / benchmark_latency.py lines
	FormatVLLMLatencyJSON     Format = "vllm-latency-json"     // its --output-json
	FormatSGLangOneBatch      Format = "sglang-one-batch"      // sglang.bench_one_batch (and bench_latency) run lines
	FormatSGLangOffline       Format = "sglang-offline"        // sglang.bench_offline_throughput banner table
	FormatSGLangOfflineLegacy Format = "sglang-offline-legacy" // its 2024 "Throughput: ... tokens/s" lines and printed dict (sgloffline.go)
	FormatGuideLLMConsole     Format = "guidellm"              // guidellm's own console tables, v0.2+ (docs/metrics.md)
	FormatGuideLLMJSON        Format = "guidellm-json"         // guidellm benchmarks.json report, one block per benchmark
	FormatGuideLLMYAML        Format = "guidellm-yaml"         // guidellm benchmarks.yaml report, one block per benchmark
	FormatLLMPerf             Format = "llmperf"               // Ray llmperf token_benchmark_ray.py printed summary
	FormatLLMPerfJSON         Format = "llmperf-json"          // Ray llmperf *_summary.json
	FormatEvalScope           Format = "evalscope"             // evalscope perf "Benchmarking summary" and "Percentile results" tables
	FormatEvalScopeJSON       Format = "evalscope-json"        // evalscope perf benchmark_summary.json
	FormatLMDeploy            Format = "lmdeploy"              // LMDeploy Profiler.summarize table (profile_throughput.py, 2025+)
	FormatLMDeployLegacy      Format = "lmdeploy-legacy"       // LMDeploy "concurrency:" ... "RPM" lines (2023-07 to 2024-12), profile_generation.py lines
	FormatTRTLLMLegacy        Format = "trtllm-legacy"         // TensorRT-LLM benchmark.py / gptSessionBenchmark "[BENCHMARK] k v ..." line
	FormatTRTLLMManager       Format = "trtllm-manager"        // TensorRT-LLM benchmarks/cpp gptManagerBenchmark "[BENCHMARK] k v" lines
	FormatVLLMMultiTurn       Format = "vllm-multi-turn"       // vLLM benchmark_serving_multi_turn.py "Statistics summary" (multiturn.go)
	FormatVLLMOmni            Format = "vllm-omni"             // vllm-omni bench serve table with Text/Audio/Image/Video Result sub-banners (omni.go)
	FormatOpenVINOGenAI       Format = "openvino-genai"        // OpenVINO GenAI benchmark_genai sample's lines (openvino.go)
	FormatFireworksBench      Format = "llm-bench"             // Fireworks llm_bench (Locust) exit Summary (fireworks.go)
	FormatPerfAnalyzer        Format = "perf-analyzer"         // Triton perf_analyzer, one block per measured load (perfanalyzer.go)
	FormatOllama              Format = "ollama-verbose"        // ollama run --verbose timings after an answer (ollama.go)
	FormatLoadGen             Format = "mlperf-loadgen"        // MLPerf LoadGen results summary (loadgen.go)
	FormatTGIBenchmark        Format = "tgi-benchmark"         // TGI text-generation-benchmark tables, one block per batch size (tgibench.go)
	FormatAISBench            Format = "aisbench"              // AISBench ais_bench --mode perf tables (aisbench.go)
	FormatFireworksCSV        Format = "llm-bench-csv"         // Fireworks llm_bench --summary-file, one block per row (fwcsv.go)
	FormatLMDeployCSV         Format = "lmdeploy-csv"          // LMDeploy's result CSV files, one block per row (lmcsv.go)
)

// ClientCommand names the client that printed a block as a study's
// benchmark.tool does: the command that runs it, or the tool's name.
func (b *Block) ClientCommand() string {
	switch b.Tool {
	case ToolVLLM:
		return "vllm bench serve"
	case ToolSGLang:
		return "python3 -m sglang.bench_serving"
	case "":
		return "unknown"
	}
	return b.Tool
}

// Tools named in Block.Tool.
const (
	ToolVLLM      = "vllm"
	ToolSGLang    = "sglang"
	ToolTRTLLM    = "tensorrt-llm"
	ToolGenAIPerf = "genai-perf"
	ToolAIPerf    = "aiperf"
	ToolGuideLLM  = "guidellm"

	ToolLlamaBench = "llama-bench" // llama.cpp's llama-bench
	ToolLLMPerf    = "llmperf"
	ToolEvalScope  = "evalscope"
	ToolLMDeploy   = "lmdeploy"

	ToolOpenVINOGenAI  = "openvino-genai"
	ToolFireworksBench = "fireworks-llm-bench"
	ToolPerfAnalyzer   = "perf_analyzer"
	ToolOllama         = "ollama"
	ToolLoadGen        = "mlperf-loadgen"
	ToolTGI            = "tgi"
	ToolAISBench       = "aisbench"
)

// Definition says how a block's throughputs were computed, so that a
// validator applies only the identities that hold for them.
type Definition string

const (
	// CountOverDuration: throughput = count / benchmark duration (vLLM, SGLang, TRT-LLM serving).
	CountOverDuration Definition = "count/duration"
	// TimeSeriesMean: throughput is a mean over a time series (guidellm).
	TimeSeriesMean Definition = "time-series-mean"
	// PerRequestMean: the mean over requests of a per-request rate (TensorRT-LLM
	// user throughput, GenAI-Perf/AIPerf output token throughput per user);
	// not a count / duration.
	PerRequestMean Definition = "per-request-mean"
	// PeakBucket: the busiest one-second bucket of a run (vLLM/SGLang peak
	// output throughput and peak concurrent requests); it may exceed the mean
	// throughput or the concurrency limit.
	PeakBucket Definition = "peak-bucket"
	// Recomputed: computed by perflab from the per-request arrays of a JSON
	// result (numpy's mean, population std and linear percentiles over the
	// successful requests), not printed by the tool.
	Recomputed Definition = "recomputed"
	// Derived: computed by perflab from two printed values (trtllm-bench
	// total tokens = average length x number of requests); Decimals covers
	// the rounding of both.
	Derived Definition = "derived"
	// PerRepetitionMean: llama-bench's t/s, the mean over the repetitions of
	// a test of (prompt + generated tokens) / that repetition's time, with
	// the sample standard deviation (n-1) beside it; not a count / duration.
	PerRepetitionMean Definition = "per-repetition-mean"
	// StaticBatch: timings of one static batch run to completion in the
	// benchmark's own process (vLLM bench latency, SGLang bench_one_batch).
	// A latency is the wall time of the whole batch or of one of its phases
	// (statistics over the timed iterations); a throughput is the batch's
	// tokens of the phase it names over that phase's time, from counts that
	// are not printed. No count/duration identity can be checked.
	StaticBatch Definition = "static-batch"
)

// Label is one printed line of a block: its label and raw value as printed.
type Label struct {
	Label string `json:"label"`
	Value string `json:"value"`
	Line  int    `json:"line"`
}

// Metric is one canonical value with the line it was read from and the number
// of decimals it was printed with (for interval arithmetic on rounding).
//
// Value is in the canonical unit of its key (milliseconds for *_ms keys,
// seconds for duration), converted if the block printed another unit.
// Decimals counts the digits printed after the decimal point, shifted by the
// conversion: "24.11" seconds read as 24110 ms has Decimals -1, so the
// rounding half-width 0.5*10^-Decimals stays right (5 ms). Raw is the value
// exactly as printed, unit included.
type Metric struct {
	Value    float64
	Decimals int
	Line     int
	Raw      string
}

// Block is one result block, or one failed run (Format FormatError, Failure
// set, no metrics).
type Block struct {
	File    string `json:"file"`
	Line    int    `json:"line"` // 1-based line of the block's first line (a JSON object's '{')
	EndLine int    `json:"end_line"`
	Format  Format `json:"format"`
	// Tool is the program that printed the block (ToolVLLM, ToolSGLang ...;
	// empty for FormatUnknown and FormatError) and Version the release or
	// layout era its labels show ("v0.13+", "2025-09+ (p50 column)").
	Tool    string `json:"tool,omitempty"`
	Version string `json:"version,omitempty"`
	// Definition is how the block's throughputs were computed; Definitions
	// names the metrics that follow another one (a per-request mean, a peak
	// bucket, a value recomputed from per-request arrays), so a validator
	// applies an identity only to the metrics it holds for: see DefinitionOf.
	Definition  Definition            `json:"definition,omitempty"`
	Definitions map[string]Definition `json:"-"`
	Metrics     map[string]Metric     `json:"-"`
	Labels      []Label               `json:"labels"`
	Truncated   bool                  `json:"truncated,omitempty"` // no closing rule before the input ended
	// Requests holds the per-request samples of a JSON result that has the
	// per-request arrays (vLLM --save-result, SGLang --output-details).
	Requests *RequestData `json:"-"`
	// Intervals are the confidence intervals a tool printed for metrics it
	// averaged over repeated runs (AIPerf's aggregate export).
	Intervals map[string]Interval `json:"-"`
	// Failure is set for a failed run (Format FormatError).
	Failure *Failure `json:"-"`
	// Problems are the block's lines that could not be read as the block's
	// format promises (a known label with a value that is not a number, a
	// banner whose labels are not a serving result). Reading goes on.
	Problems []*SyntaxError `json:"-"`
}

// Value returns a canonical metric's value and whether the block has it.
func (b *Block) Value(key string) (float64, bool) {
	m, ok := b.Metrics[key]
	return m.Value, ok
}

// DefinitionOf returns the definition a metric follows: its own entry in
// Definitions, else the block's Definition.
func (b *Block) DefinitionOf(key string) Definition {
	if d, ok := b.Definitions[key]; ok {
		return d
	}
	return b.Definition
}

// Failure is a failed run: an error printed where a result would be
// ("RuntimeError: CUDA out of memory", "# Crash ...", a Python repr
// ValueError("...")).
type Failure struct {
	Kind    string // the exception name, or "Crash"
	Message string // the rest of the line, as printed
}

// RequestData holds the per-request samples of a JSON result, for
// distributions. Latencies are in ms and come from successful requests only
// (errors == ""); TPOT only from requests with more than one output token.
// ITL stats are recomputed from the flattened itls but the gaps themselves
// are not kept (they are a list per request).
type RequestData struct {
	Count      int       // entries in the arrays, failed requests included
	Failed     int       // entries with a non-empty error
	TTFT       []float64 // ms
	TPOT       []float64 // ms
	E2EL       []float64 // ms
	InputLens  []int
	OutputLens []int
	ITLs       int // number of inter-token gaps pooled for the ITL stats
}

// SyntaxError is a problem at a position in an input file.
type SyntaxError struct {
	File string
	Line int
	Msg  string
	// Suspect marks a value that was read but is no finite number (nan,
	// inf): the output is intact, the measurement is not.
	Suspect bool
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
}
