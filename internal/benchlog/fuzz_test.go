package benchlog

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The fuzz tests check that no input makes the parser panic, loop or return
// blocks that break its invariants. FuzzParse covers every dispatch path
// (seeds of each format); FuzzParseJSON and FuzzParseCSV keep the input in
// the JSON and CSV readers by forcing its first bytes.

// maxSeed leaves the large testdata inputs (guidellm reports of 60-100 KB)
// out of the seed corpus: the fuzzer minimizes every new input it finds,
// which on such a seed takes it minutes. guideSeed stands in for them.
const maxSeed = 16 << 10

const guideSeed = `{"benchmarks": [{"args": {"strategy": {"type_": "constant", "rate": 1e308}}, "request_totals": {"successful": 3},
"duration": 1.5, "metrics": {"request_latency": {"successful": {"mean": 1e308, "median": -0.0, "percentiles": {"p99": "NaN", "p999": 2}}},
"prompt_token_count": {"successful": {"total_sum": 9, "percentiles": {"p50": 3}}}}, "requests": {"successful": [{"prompt": "a"}]}}]}`

func FuzzParse(f *testing.F) {
	for _, file := range inputFiles(f) {
		if data := readSeed(f, file); len(data) <= maxSeed {
			f.Add(data)
		}
	}
	f.Add([]byte(guideSeed))
	f.Add([]byte("benchmarks:\n- config:\n    strategy:\n      rate: 2.0\n      type_: constant\n  duration: 30.0\n  metrics:\n" +
		"    request_latency:\n      successful:\n        mean: .nan\n        percentiles:\n          p999: 1.0e+308\n  requests:\n    successful:\n    - prompt: 'a: b'\n"))
	f.Add([]byte("x Serving Benchmark Result\nSuccessful requests: 1e400\nBenchmark duration: 1e-5 s\nMean Latency(s): 2.5e3\n=========="))
	f.Add([]byte("== Serving Benchmark Result ==\nSuccessful requests: 1\nBenchmark duration (s): 1\n==========\n\nStopping profiler...\ncorrect_rate(%) 1e999 \n\ncorrect_rate(%) nan\n"))
	f.Add([]byte("Statistics summary (assuming 1e9% warmup samples):\nruntime_sec = inf\nrequests_per_sec = 1e999\n----------\n count mean std 99.99% ...\nttft_ms 1.0 8.95e+02 NaN -0.00 ...\nlatency_ms x\n"))
	f.Add([]byte("= PyTorch backend\n===========\n= THROUGHPUT OVERVIEW\n===========\nTotal Token Throughput (tokens/sec): 1e999\nTotal Latency (ms): 0\n[DAR] AVERAGE: nan\n= LATENCY OVERVIEW\n"))
	f.Add([]byte("Throughput: 1e999 tokens/s\n{'total_latency': nan, 'throughput': 'x', 'a': {'b'}}\nThroughput: 2 tokens/s\n{'total_latency': -0.0, 'total_input_tokens': 1e400}\nThroughput: BSZ 1 tokens, Num sequences 1, throughput: inf tokens/s\n[{'total_latency': 1}, {'x\\\\': 2}]\nNone\n"))
	f.Add([]byte("== Serving Benchmark Result ==\nSuccessful requests: 1\nBenchmark duration (s): 1\n=== Text Result ===\nPeak concurrent requests: 2\nPeak concurrent requests: 2\n=== Stage 0 (x) ===\nMean TTFT (ms): nan\n==========\n"))
	f.Add([]byte("= PERFORMANCE OVERVIEW\n===\nNumber of requests: 1e300\nAverage Output Length (tokens): 1e300\nTotal Latency (ms): 1\n"))
	f.Add([]byte("┃ Metric ┃ avg ┃\n│ Request Latency (ns) │ 1,0,0 │\n│ (x) │ │\n"))
	f.Fuzz(func(t *testing.T, data []byte) { checkParse(t, data) })
}

func FuzzParseJSON(f *testing.F) {
	for _, file := range inputFiles(f) {
		if ext := filepath.Ext(file); ext == ".json" || ext == ".jsonl" {
			if data := readSeed(f, file); len(data) <= maxSeed {
				f.Add(data[1:])
			}
		}
	}
	f.Add([]byte(guideSeed[1:]))
	f.Add([]byte(`"duration": 1, "completed": 2, "ttfts": [1e308, 2], "itls": [[1e308], []], "errors": ["", ""]}`))
	f.Fuzz(func(t *testing.T, data []byte) { checkParse(t, append([]byte(`{`), data...)) })
}

func FuzzParseCSV(f *testing.F) {
	for _, file := range inputFiles(f) {
		if filepath.Ext(file) == ".csv" {
			data := readSeed(f, file)
			f.Add(data[bytes.IndexByte(data, ',')+1:])
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkParse(t, append([]byte("Metric,"), data...)) })
}

func readSeed(tb testing.TB, file string) []byte {
	data, err := os.ReadFile(file)
	if err != nil {
		tb.Fatal(err)
	}
	return data
}

func checkParse(t *testing.T, data []byte) {
	lines := bytes.Count(data, []byte("\n")) + 1
	blocks, err := Parse("fuzz.log", bytes.NewReader(data))
	if err != nil {
		if _, ok := err.(*SyntaxError); !ok {
			t.Fatalf("err = %v (%T) with %d blocks", err, err, len(blocks))
		}
	}
	prevEnd := 0
	for i, b := range blocks {
		if b.Line < 1 || b.Line > b.EndLine || b.EndLine > lines {
			t.Fatalf("block %d at lines %d-%d of %d", i, b.Line, b.EndLine, lines)
		}
		if b.Line < prevEnd {
			t.Fatalf("block %d at line %d overlaps the previous one ending at %d", i, b.Line, prevEnd)
		}
		prevEnd = b.EndLine
		if (b.Format == FormatUnknown || b.Format == FormatError) && len(b.Metrics) != 0 {
			t.Fatalf("%s block %d has metrics", b.Format, i)
		}
		if (b.Format == FormatError) != (b.Failure != nil) {
			t.Fatalf("block %d: format %s, failure %v", i, b.Format, b.Failure)
		}
		for k, m := range b.Metrics {
			first := b.Line
			if b.Format == FormatGuideLLMConsole || b.Format == FormatTGIBenchmark {
				first = 1 // a benchmark's rows in earlier tables lie before its block
			}
			if m.Line < first || m.Line > b.EndLine || math.IsNaN(m.Value) || math.IsInf(m.Value, 0) {
				t.Fatalf("block %d: %s = %+v outside lines %d-%d or not finite", i, k, m, b.Line, b.EndLine)
			}
			if strings.TrimSpace(k) == "" {
				t.Fatalf("block %d: empty key", i)
			}
		}
		if _, err := json.Marshal(b); err != nil {
			t.Fatalf("block %d: %v", i, err)
		}
		var buf bytes.Buffer
		if err := WriteCSV(&buf, blocks[i:i+1]); err != nil {
			t.Fatalf("block %d: WriteCSV: %v", i, err)
		}
	}
}
