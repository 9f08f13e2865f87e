package benchlog

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOfflineFormats checks, for the offline and latency benchmarks, a block
// of each layout era: position, tool, version, definition and metrics with
// their decimals and lines.
func TestOfflineFormats(t *testing.T) {
	tests := []struct {
		file      string
		nblocks   int
		block     int
		format    Format
		tool      string
		version   string // prefix
		def       Definition
		line, end int
		metrics   []want
		absent    []string
	}{
		{file: "vllm_throughput_2024.txt", nblocks: 1, format: FormatVLLMThroughput, tool: ToolVLLM, version: "v0.1-v0.6",
			def: CountOverDuration, line: 4, end: 4,
			metrics: []want{{"request_throughput", 4.55, 2, 4}, {"total_token_throughput", 2058.20, 2, 4}},
			absent:  []string{"output_throughput", "total_input_tokens"}},
		{file: "vllm_throughput_late2024.txt", nblocks: 1, format: FormatVLLMThroughput, tool: ToolVLLM, version: "late 2024+",
			def: CountOverDuration, line: 3, end: 3,
			metrics: []want{{"request_throughput", 9.81, 2, 3}, {"total_token_throughput", 7533.75, 2, 3}, {"output_throughput", 2511.25, 2, 3}}},
		{file: "vllm_throughput_2025.txt", nblocks: 2, block: 1, format: FormatVLLMThroughput, tool: ToolVLLM, version: "2025+",
			def: CountOverDuration, line: 9, end: 11,
			metrics: []want{{"request_throughput", 5.24, 2, 9}, {"total_input_tokens", 127689, 0, 10}, {"total_output_tokens", 128000, 0, 11}}},
		{file: "vllm_throughput_output.json", nblocks: 1, format: FormatVLLMThroughputJSON, tool: ToolVLLM, version: "--output-json",
			def: CountOverDuration, line: 1, end: 7,
			metrics: []want{{"duration", 187.04973121592775, 14, 2}, {"completed", 1000, 0, 3}, {"total_tokens", 511378, 0, 4},
				{"request_throughput", 5.346171809493878, 15, 5}, {"total_token_throughput", 2733.9146475953603, 13, 6}}},
		{file: "vllm_latency_2023.txt", nblocks: 1, format: FormatVLLMLatency, tool: ToolVLLM, version: "v0.1+",
			def: StaticBatch, line: 5, end: 5,
			metrics: []want{{"mean_e2el_ms", 1219.202483648932, 12, 5}}},
		{file: "vllm_latency_2024.txt", nblocks: 1, format: FormatVLLMLatency, tool: ToolVLLM, version: "10-90%",
			def: StaticBatch, line: 4, end: 9,
			metrics: []want{{"p10_e2el_ms", 1203.2689558569266, 13, 5}, {"p90_e2el_ms", 1243.288952199769, 12, 9}},
			absent:  []string{"p99_e2el_ms", "std_e2el_ms"}},
		{file: "vllm_latency_newest.txt", nblocks: 1, format: FormatVLLMLatency, tool: ToolVLLM, version: "newest",
			def: StaticBatch, line: 5, end: 12,
			metrics: []want{{"mean_e2el_ms", 1225.8005867887657, 13, 5}, {"std_e2el_ms", 14.048458885352678, 15, 6}, {"p99_e2el_ms", 1248.088177264326, 12, 12}}},
		{file: "vllm_latency_output.json", nblocks: 1, format: FormatVLLMLatencyJSON, tool: ToolVLLM, version: "--output-json, newest",
			def: StaticBatch, line: 1, end: 44,
			metrics: []want{{"mean_e2el_ms", 1225.8005867887657, 13, 2}, {"p50_e2el_ms", 1228.3832202056817, 13, 39}}},
		{file: "sglang_one_batch.txt", nblocks: 2, format: FormatSGLangOneBatch, tool: ToolSGLang, version: "Decode N. Batch size",
			def: StaticBatch, line: 13, end: 20,
			metrics: []want{{"prefill_latency_ms", 32.15, 2, 13}, {"prefill_throughput", 31845.88, 2, 13}, {"batch_size", 1, 0, 14},
				{"median_decode_latency_ms", 7.14, 2, 19}, {"duration", 0.144, 3, 20}, {"total_token_throughput", 7240.79, 2, 20}}},
		{file: "sglang_one_batch_median.txt", nblocks: 2, block: 1, format: FormatSGLangOneBatch, tool: ToolSGLang, version: "Prefill and Total",
			def: StaticBatch, line: 18, end: 19,
			metrics: []want{{"duration", 0.032, 3, 19}},
			absent:  []string{"median_decode_latency_ms", "batch_size"}},
		{file: "sglang_bench_latency_2024.txt", nblocks: 1, format: FormatSGLangOneBatch, tool: ToolSGLang, version: "bench_latency",
			def: StaticBatch, line: 11, end: 18,
			metrics: []want{{"mean_decode_latency_ms", 7.41, 2, 17}, {"mean_decode_throughput", 134.91, 2, 17}}},
		{file: "sglang_offline.txt", nblocks: 1, format: FormatSGLangOffline, tool: ToolSGLang, version: "2025+",
			def: CountOverDuration, line: 7, end: 18,
			metrics: []want{{"completed", 1000, 0, 9}, {"duration", 71.23, 2, 10}, {"total_token_throughput", 5927.76, 2, 17}},
			absent:  []string{"last_gen_throughput"}},
		{file: "sglang_offline_2024.txt", nblocks: 1, format: FormatSGLangOffline, tool: ToolSGLang, version: "late 2024",
			def: CountOverDuration, line: 6, end: 16,
			metrics: []want{{"request_throughput", 14.04, 2, 12}}},
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
			if len(blocks) != tt.nblocks {
				t.Fatalf("%d blocks, want %d", len(blocks), tt.nblocks)
			}
			b := blocks[tt.block]
			if b.Format != tt.format || b.Tool != tt.tool || !strings.HasPrefix(b.Version, tt.version) || b.Definition != tt.def {
				t.Errorf("format %q tool %q version %q definition %q, want %q %q %q... %q", b.Format, b.Tool, b.Version, b.Definition, tt.format, tt.tool, tt.version, tt.def)
			}
			if b.Line != tt.line || b.EndLine != tt.end || b.Truncated || len(b.Problems) > 0 {
				t.Errorf("lines %d-%d truncated %v problems %v, want %d-%d", b.Line, b.EndLine, b.Truncated, b.Problems, tt.line, tt.end)
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
			for _, k := range tt.absent {
				if _, ok := b.Metrics[k]; ok {
					t.Errorf("unexpected %s", k)
				}
			}
		})
	}
}

// TestOfflineProse: ordinary prose that starts like a result line is not one,
// and does not hide the result printed next to it.
func TestOfflineProse(t *testing.T) {
	data, err := os.ReadFile("testdata/offline_prose.md")
	if err != nil {
		t.Fatal(err)
	}
	if blocks, err := Parse("notes.md", bytes.NewReader(data)); err == nil || len(blocks) != 0 {
		t.Fatalf("prose read as %d blocks (err %v)", len(blocks), err)
	}
	log := "Throughput: our offline numbers follow.\n" +
		"Throughput: 5.35 requests/s, 2733.92 total tokens/s, 1368.62 output tokens/s\n" +
		"Throughput: that is 2x the old release.\n" +
		"Total num prompt tokens:  255378\n"
	blocks, err := Parse("mixed.md", strings.NewReader(log))
	if err != nil {
		t.Fatal(err)
	}
	if len(blocks) != 1 || blocks[0].Line != 2 || blocks[0].EndLine != 2 || len(blocks[0].Metrics) != 3 {
		t.Fatalf("blocks = %+v", blocks)
	}
}

// TestOfflineWarmup: SGLang's warm-up run is read and dropped; a log with
// nothing after "Warmup ..." has no result.
func TestOfflineWarmup(t *testing.T) {
	run := "Prefill. latency: 0.03155 s, throughput:  32458.82 token/s\nTotal. latency:  0.142 s, throughput:   7312.66 token/s\n"
	if blocks, err := Parse("w.log", strings.NewReader("Warmup ...\n"+run)); err == nil || len(blocks) != 0 {
		t.Fatalf("warm-up read as %d blocks (err %v)", len(blocks), err)
	}
	blocks, err := Parse("w.log", strings.NewReader("Warmup ...\n"+run+"Benchmark ...\n"+run+run))
	if err != nil || len(blocks) != 2 || blocks[0].Line != 5 || blocks[1].Line != 7 {
		t.Fatalf("blocks = %+v, err %v", blocks, err)
	}
}
