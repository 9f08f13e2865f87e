package benchlog

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFormats checks, for one block of each format, its position, tool,
// definitions and a few metrics with their decimals and lines.
func TestFormats(t *testing.T) {
	tests := []struct {
		file      string
		block     int
		format    Format
		tool      string
		version   string // prefix
		line, end int
		metrics   []want
		defs      map[string]Definition
		absent    []string
	}{
		{file: "vllm_save_result.json", format: FormatVLLMJSON, tool: ToolVLLM, version: "v0.11.1+", line: 1, end: 103,
			metrics: []want{{"duration", 0.731, 3, 12}, {"mean_ttft_ms", 56.400000000000006, 15, 23}, {"p95_ttft_ms", 88.41, 6, 54}},
			defs:    map[string]Definition{"p95_ttft_ms": Recomputed, "mean_ttft_ms": CountOverDuration, "max_output_tokens_per_s": PeakBucket},
			absent:  []string{"request_rate", "request_goodput"}},
		{file: "vllm_append.json", block: 1, format: FormatVLLMJSON, tool: ToolVLLM, version: "v0.6.4-v0.10", line: 2, end: 2,
			metrics: []want{{"request_goodput", 4.8, 1, 2}, {"request_rate", 8, 1, 2}}},
		{file: "vllm_append.json", format: FormatVLLMJSON, tool: ToolVLLM, version: "early 2024", line: 1, end: 1,
			metrics: []want{{"request_throughput", 3.4001870411, 10, 1}, {"duration", 294.10146725, 8, 1}},
			absent:  []string{"request_rate"}},
		{file: "sglang_output.jsonl", block: 1, format: FormatSGLangJSONL, tool: ToolSGLang, line: 2, end: 2,
			metrics: []want{{"total_token_throughput", 240, 1, 2}, {"mean_e2el_ms", 500, 1, 2}, {"spec_decode_acceptance_length", 2.31, 2, 2}},
			absent:  []string{"std_e2el_ms", "std_ttft_ms", "request_rate"}},
		{file: "trtllm_bench.txt", format: FormatTRTLLMBench, tool: ToolTRTLLM, version: "Apr 2025+", line: 4, end: 88,
			metrics: []want{{"duration", 4.0245476, 7, 43}, {"completed", 1000, 0, 33}, {"total_output_tokens", 128000, 1, 36},
				{"p99_e2el_ms", 4015.9, 4, 66}, {"median_tpot_ms", 20.9, 4, 56}},
			defs: map[string]Definition{"total_output_tokens": Derived, "user_throughput": PerRequestMean, "duration": CountOverDuration}},
		{file: "trtllm_bench_report.json", format: FormatTRTLLMBenchJS, tool: ToolTRTLLM, line: 1, end: 22,
			metrics: []want{{"duration", 4.024547612, 9, 7}, {"completed", 1000, 0, 5}, {"p99_ttft_ms", 1600, 1, 17}}},
		{file: "genai_perf_ns.txt", format: FormatGenAIPerf, tool: ToolGenAIPerf, version: "2024-03", line: 2, end: 13,
			metrics: []want{{"mean_ttft_ms", 13.266974, 6, 6}, {"request_throughput", 4.44, 2, 13}, {"mean_output_len", 60, 0, 9}}},
		{file: "genai_perf_2025.txt", format: FormatGenAIPerf, tool: ToolGenAIPerf, version: "2025-01+", line: 1, end: 15,
			metrics: []want{{"mean_ttft_ms", 1146.31, 2, 4}, {"mean_tpot_ms", 18.71, 2, 7}, {"output_throughput_per_user", 54.6, 2, 8}, {"completed", 40, 2, 14}},
			defs:    map[string]Definition{"output_throughput_per_user": PerRequestMean},
			absent:  []string{"mean_itl_ms"}},
		{file: "aiperf_table.txt", format: FormatAIPerf, tool: ToolAIPerf, version: "2025-09+", line: 2, end: 25,
			metrics: []want{{"duration", 15.19, 2, 22}, {"output_throughput", 515.76, 2, 14}, {"median_ttft_ms", 16.62, 2, 6}, {"completed", 200, 2, 18}}},
		{file: "genai_perf_export.csv", format: FormatGenAIPerfCSV, tool: ToolGenAIPerf, line: 1, end: 12,
			metrics: []want{{"mean_ttft_ms", 1146.31, 2, 2}, {"completed", 40, 2, 12}, {"output_throughput", 1261.45, 2, 10}},
			absent:  []string{"median_output_throughput_per_user"}},
		{file: "aiperf_export.csv", format: FormatAIPerfCSV, tool: ToolAIPerf, version: "2026", line: 1, end: 13,
			metrics: []want{{"duration", 15.19, 2, 8}, {"total_output_tokens", 7832, 0, 3}, {"failed", 0, 0, 10}}},
		{file: "failures.txt", format: FormatError, line: 5, end: 5},
		{file: "guidellm_v02_sweep.txt", format: FormatGuideLLMConsole, tool: ToolGuideLLM, version: "v0.2", line: 37, end: 37,
			metrics: []want{{"mean_e2el_ms", 640, -1, 37}, {"completed", 46, 0, 24}, {"duration", 30, 1, 24}, {"request_throughput", 1.55, 2, 37}},
			defs:    map[string]Definition{"request_throughput": TimeSeriesMean},
			absent:  []string{"request_rate", "max_concurrency"}},
		{file: "guidellm_v02_sweep.txt", block: 3, format: FormatGuideLLMConsole, tool: ToolGuideLLM, line: 40, end: 40,
			metrics: []want{{"request_rate", 12.72, 2, 40}, {"incomplete", 12, 0, 27}, {"p99_tpot_ms", 7.7, 1, 40}}},
		{file: "guidellm_v03_wrapped.txt", block: 4, format: FormatGuideLLMConsole, tool: ToolGuideLLM, version: "v0.3", line: 68, end: 69,
			metrics: []want{{"completed", 539, 0, 45}, {"failed", 2, 0, 45}, {"total_input_tokens", 138577, 0, 46}, {"request_rate", 18.3, 2, 68},
				{"median_e2el_ms", 1620, -1, 69}, {"mean_ttft_ms", 48.1, 1, 69}}},
		{file: "guidellm_v04_sweep.txt", block: 4, format: FormatGuideLLMConsole, tool: ToolGuideLLM, version: "v0.4-v0.5", line: 83, end: 83,
			metrics: []want{{"duration", 30.1, 1, 17}, {"median_e2el_ms", 1600, -2, 69}, {"p95_tpot_ms", 13.4, 1, 69}, {"request_throughput", 18, 1, 83},
				{"median_input_len", 256, 1, 55}},
			absent: []string{"completed", "request_rate"}},
		{file: "guidellm_report.json", block: 1, format: FormatGuideLLMJSON, tool: ToolGuideLLM, version: "v0.2-v0.3", line: 1143, end: 2284,
			metrics: []want{{"completed", 213, 0, 2216}, {"num_prompts", 218, 0, 2219}, {"request_rate", 7.13, 2, 1177}, {"median_e2el_ms", 730, -1, 1431},
				{"p99.9_ttft_ms", 29.061199999999996, 15, 1743}, {"total_input_tokens", 54762.3, 1, 1536}},
			defs: map[string]Definition{"output_throughput": TimeSeriesMean}},
		{file: "guidellm_report_v04.json", block: 1, format: FormatGuideLLMJSON, tool: ToolGuideLLM, version: "v0.4+", line: 1, end: 1,
			metrics: []want{{"max_concurrency", 32, 0, 1}, {"completed", 931, 0, 1}, {"median_e2el_ms", 1020, -1, 1}},
			absent:  []string{"request_rate"}},
		{file: "guidellm_report_sweep.yaml", block: 1, format: FormatGuideLLMYAML, tool: ToolGuideLLM, version: "v0.4+", line: 1738, end: 3466,
			metrics: []want{{"completed", 716, 0, 2721}, {"duration", 30, 1, 1785}, {"median_e2el_ms", 4080, -1, 2583}, {"request_throughput", 23.87, 2, 2773}},
			absent:  []string{"request_rate", "max_concurrency"}},
		{file: "llmperf_console.txt", format: FormatLLMPerf, tool: ToolLLMPerf, version: "token_benchmark_ray.py", line: 3, end: 74,
			metrics: []want{{"completed", 100, 0, 73}, {"request_throughput", 3.1809216421330406, 15, 74}, {"mean_ttft_ms", 282.9163520487671, 14, 23},
				{"median_e2el_ms", 3282.031945208212, 12, 29}, {"user_throughput", 42.09954222895763, 14, 45}},
			defs:   map[string]Definition{"user_throughput": PerRequestMean, "output_throughput": CountOverDuration},
			absent: []string{"mean_itl_ms", "mean_tpot_ms", "duration"}},
		{file: "llmperf_summary.json", format: FormatLLMPerfJSON, tool: ToolLLMPerf, version: "summary.json (results version 2023-08-31)", line: 1, end: 78,
			metrics: []want{{"completed", 100, 0, 75}, {"max_concurrency", 10, 0, 9}, {"max_input_len", 900, 0, 58}, {"request_throughput", 3.1809216421330406, 15, 76}}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			blocks, err := Parse(tt.file, bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			b := blocks[tt.block]
			if b.Format != tt.format || b.Tool != tt.tool || !strings.HasPrefix(b.Version, tt.version) {
				t.Errorf("format %q tool %q version %q, want %q %q %q...", b.Format, b.Tool, b.Version, tt.format, tt.tool, tt.version)
			}
			if b.Line != tt.line || b.EndLine != tt.end {
				t.Errorf("lines %d-%d, want %d-%d", b.Line, b.EndLine, tt.line, tt.end)
			}
			for _, w := range tt.metrics {
				m, ok := b.Metrics[w.key]
				if !ok {
					t.Errorf("no %s", w.key)
					continue
				}
				if m.Value != w.value || m.Decimals != w.decimals || m.Line != w.line {
					t.Errorf("%s = %v (%d decimals, line %d), want %v (%d, line %d)", w.key, m.Value, m.Decimals, m.Line, w.value, w.decimals, w.line)
				}
			}
			for k, d := range tt.defs {
				if got := b.DefinitionOf(k); got != d {
					t.Errorf("DefinitionOf(%s) = %s, want %s", k, got, d)
				}
			}
			for _, k := range tt.absent {
				if _, ok := b.Metrics[k]; ok {
					t.Errorf("unexpected %s", k)
				}
			}
		})
	}
}

func TestRequestData(t *testing.T) {
	f, err := os.Open("testdata/vllm_save_result.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	blocks, err := Parse("r.json", f)
	if err != nil {
		t.Fatal(err)
	}
	r := blocks[0].Requests
	if r == nil || r.Count != 5 || r.Failed != 1 || len(r.TTFT) != 4 || len(r.TPOT) != 4 || len(r.E2EL) != 4 || r.ITLs != 10 {
		t.Fatalf("requests = %+v", r)
	}
	if r.TTFT[0] != 41.2 || r.OutputLens[2] != 5 || r.InputLens[3] != 77 {
		t.Errorf("samples = %v %v %v", r.TTFT, r.OutputLens, r.InputLens)
	}
	if len(blocks[0].Problems) != 0 {
		t.Errorf("problems = %v", blocks[0].Problems)
	}
}

func TestPercentile(t *testing.T) {
	x := []float64{1, 2, 3, 4}
	for _, c := range []struct{ p, want float64 }{{0, 1}, {50, 2.5}, {99, 3.97}, {100, 4}, {25, 1.75}} {
		if got := percentile(x, c.p); got < c.want-1e-12 || got > c.want+1e-12 {
			t.Errorf("percentile(%v) = %v, want %v", c.p, got, c.want)
		}
	}
	if m, s := meanStd(x); m != 2.5 || s < 1.118033 || s > 1.118034 {
		t.Errorf("mean %v std %v", m, s)
	}
}

// TestLookalikes: inputs that resemble a result must not give one.
func TestLookalikes(t *testing.T) {
	for name, in := range map[string]string{
		"python dict":         "{'duration': 1.0, 'completed': 3}\n",
		"log with bracket":    "[2024-08-27 18:11:56] INFO completed 3 requests\n",
		"telemetry table":     "┏━━━┳━━━┓\n┃ Metric ┃ avg ┃\n┡━━━╇━━━┩\n│ GPU Power Usage (W) │ 310.20 │\n└───┴───┘\n",
		"csv of another tool": "Metric,Value\nAccuracy (%),91.2\n",
		"json config":         `{"model": "x", "tp": 8}` + "\n",
		"engine only":         "= ENGINE DETAILS\n=====================\nModel: x\n=====================\n",
		"error log level":     "Error: connection refused\nException: x\n",
		// Rich box tables, guidellm v0.1's among them, are not guidellm's
		// v0.2+ output, whatever their titles and columns.
		"guidellm v0.1 rich table": "Performance Stats by Benchmark\n┏━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━┓\n┃ Benchmark   ┃ Request Latency ┃\n" +
			"┡━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━┩\n│ synchronous │ 0.64 s          │\n└─────────────┴─────────────────┘\n",
		"rich table under a guidellm title": "Benchmarks Stats:\n┏━━━━━━━━━━━━━┳━━━━━━━━━━━━┓\n┃ Benchmark   ┃ Per Second ┃\n" +
			"┡━━━━━━━━━━━━━╇━━━━━━━━━━━━┩\n│ synchronous │       1.55 │\n└─────────────┴────────────┘\n",
		"rich table under a v0.4 title": "ℹ Server Throughput Statistics\n┏━━━━━━━━━━━━━┳━━━━━━━━━━┓\n┃ Benchmark   ┃ Requests ┃\n" +
			"┡━━━━━━━━━━━━━╇━━━━━━━━━━┩\n│ synchronous │ 1.6      │\n└─────────────┴──────────┘\n",
		"pipe table of another tool": "ℹ Server Throughput Statistics\n|=======|=======|\n| Model | Score |\n|-------|-------|\n| x     | 1.6   |\n|=======|=======|\n",
		"pipe table without title":   "|=======|=======|\n| Model | Score |\n| Mean  | Sec   |\n|-------|-------|\n| x     | 1.6   |\n|=======|=======|\n",
		"guidellm title then prose":  "Benchmarks Info:\nno benchmark was run\n",
		"llmperf metric name alone":  "inter_token_latency_s\nsomething else\n",
		"yaml of another tool":       "benchmarks:\n- name: x\n  score: 1\n",
	} {
		blocks, err := Parse(name, strings.NewReader(in))
		if err == nil || len(blocks) != 0 {
			t.Errorf("%s: %d blocks, err %v", name, len(blocks), err)
		}
	}
}

func TestWriteCSV(t *testing.T) {
	var blocks []Block
	for _, f := range []string{"aiperf_export.csv", "failures.txt", "vllm_v040.txt"} {
		data, _ := os.ReadFile(filepath.Join("testdata", f))
		b, err := Parse(f, bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		blocks = append(blocks, b...)
	}
	var buf bytes.Buffer
	if err := WriteCSV(&buf, blocks); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 4 {
		t.Fatalf("%d lines:\n%s", len(lines), buf.String())
	}
	if !strings.HasPrefix(lines[0], "file,line,end_line,format,tool,version,definition,truncated,failure,completed,failed,duration,total_input_tokens,total_output_tokens,request_throughput,") {
		t.Errorf("header = %s", lines[0])
	}
	if !strings.Contains(lines[0], "mean_ttft_ms,median_ttft_ms,std_ttft_ms,min_ttft_ms,max_ttft_ms,p1_ttft_ms,p5_ttft_ms,p10_ttft_ms") {
		t.Errorf("statistics out of order: %s", lines[0])
	}
	if !strings.Contains(lines[2], "error,,,,false,RuntimeError: CUDA out of memory") {
		t.Errorf("failure row = %s", lines[2])
	}
}

func TestFloatArray(t *testing.T) {
	for in, want := range map[string]string{
		" [1, 2.5e-3 , -0] ": "[1 0.0025 -0] true",
		"[]":                 "[] true",
		"null":               "[] true",
		"[1,]":               "[] false",
		`["NaN", 1]`:         "[] false",
		"[1] x":              "[] false",
		"[1 2]":              "[] false",
	} {
		v, ok := floatArray([]byte(in))
		if got := fmt.Sprint(v, ok); got != want {
			t.Errorf("floatArray(%q) = %s, want %s", in, got, want)
		}
	}
	for in, want := range map[string]string{
		"[[1, 2], [], [3]]": "[[1 2] [] [3]] true",
		"[]":                "[] true",
		"[[1], 2]":          "[] false",
		"[[1]":              "[] false",
	} {
		v, ok := floatArrays([]byte(in))
		if got := fmt.Sprint(v, ok); got != want {
			t.Errorf("floatArrays(%q) = %s, want %s", in, got, want)
		}
	}
}

// TestGuideLLMCut: a guidellm console output cut inside its last table gives
// the rows read, marked truncated, with the earlier table's values.
func TestGuideLLMCut(t *testing.T) {
	for _, c := range []struct {
		file  string
		lines int
		rows  int
	}{{"guidellm_v02_sweep.txt", 39, 3}, {"guidellm_v03_wrapped.txt", 64, 2}, {"guidellm_v04_sweep.txt", 81, 3}} {
		data, err := os.ReadFile(filepath.Join("testdata", c.file))
		if err != nil {
			t.Fatal(err)
		}
		cut := strings.Join(strings.SplitAfter(string(data), "\n")[:c.lines], "")
		blocks, err := Parse(c.file, strings.NewReader(cut))
		if err != nil {
			t.Fatal(err)
		}
		if len(blocks) != c.rows {
			t.Fatalf("%s cut at %d lines: %d blocks, want %d", c.file, c.lines, len(blocks), c.rows)
		}
		for _, b := range blocks {
			_, dur := b.Metrics["duration"]
			if !b.Truncated || !dur || len(b.Problems) == 0 {
				t.Errorf("%s:%d: truncated %v, duration %v, problems %v", c.file, b.Line, b.Truncated, dur, b.Problems)
			}
		}
	}
}

// TestGuideLLMTwoRuns: two runs printed one after the other give their own
// blocks; a title seen twice starts the second run.
func TestGuideLLMTwoRuns(t *testing.T) {
	data, err := os.ReadFile("testdata/guidellm_v03_sync.txt")
	if err != nil {
		t.Fatal(err)
	}
	blocks, err := Parse("two.txt", strings.NewReader(string(data)+"INFO next run\n"+string(data)))
	if err != nil {
		t.Fatal(err)
	}
	if len(blocks) != 2 || blocks[1].Line <= blocks[0].EndLine || blocks[0].Metrics["completed"].Value != 46 || blocks[1].Metrics["completed"].Line <= blocks[0].EndLine {
		t.Fatalf("blocks %+v", blocks)
	}
}
