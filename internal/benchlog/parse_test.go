package benchlog

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden.json from the parser's output")

// golden is what a testdata/*.txt file must parse to.
type golden struct {
	Error    string   `json:"error,omitempty"`
	Blocks   []Block  `json:"blocks"`
	Ends     []int    `json:"end_lines"`
	Problems []string `json:"problems,omitempty"`
}

func TestGolden(t *testing.T) {
	files := inputFiles(t)
	if len(files) == 0 {
		t.Fatal("no testdata inputs")
	}
	for _, file := range files {
		base := filepath.Base(file)
		name := strings.TrimSuffix(base, filepath.Ext(base))
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			blocks, err := Parse(base, bytes.NewReader(data))
			g := golden{Blocks: blocks, Ends: []int{}}
			if err != nil {
				g.Error = err.Error()
			}
			for _, b := range blocks {
				g.Ends = append(g.Ends, b.EndLine)
				for _, p := range b.Problems {
					g.Problems = append(g.Problems, p.Error())
				}
			}
			got, err := json.MarshalIndent(g, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			path := filepath.Join("testdata", name+".golden.json")
			if *update {
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s differs from the parser's output (- want, + got):\n%s", path, lineDiff(string(want), string(got)))
			}
		})
	}
}

// inputFiles lists the parser inputs of testdata: *.txt, *.md, *.json (not the
// golden files), *.jsonl, *.csv and *.yaml.
func inputFiles(tb testing.TB) []string {
	var files []string
	for _, pat := range []string{"*.txt", "*.md", "*.json", "*.jsonl", "*.csv", "*.yaml"} {
		m, err := filepath.Glob(filepath.Join("testdata", pat))
		if err != nil {
			tb.Fatal(err)
		}
		for _, f := range m {
			if !strings.HasSuffix(f, ".golden.json") {
				files = append(files, f)
			}
		}
	}
	return files
}

// lineDiff is a small LCS line diff, enough for golden files.
func lineDiff(a, b string) string {
	x, y := strings.Split(a, "\n"), strings.Split(b, "\n")
	n, m := len(x), len(y)
	lcs := make([][]int, n+1)
	for i := range lcs {
		lcs[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if x[i] == y[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out strings.Builder
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && x[i] == y[j]:
			i, j = i+1, j+1
		case j < m && (i == n || lcs[i][j+1] >= lcs[i+1][j]):
			fmt.Fprintf(&out, "%4d + %s\n", j+1, y[j])
			j++
		default:
			fmt.Fprintf(&out, "%4d - %s\n", i+1, x[i])
			i++
		}
	}
	return out.String()
}

// want is one metric a block must have.
type want struct {
	key      string
	value    float64
	decimals int
	line     int
}

func TestBlocks(t *testing.T) {
	tests := []struct {
		file      string
		block     int
		nblocks   int
		format    Format
		def       Definition
		line, end int
		truncated bool
		metrics   []want
		absent    []string
		labels    int // number of labels kept; -1: do not check
	}{
		{
			file: "vllm_2026_full.txt", nblocks: 1, format: FormatVLLM, def: CountOverDuration,
			line: 6, end: 54, labels: 41, // from the "Burstiness factor" line before the banner
			metrics: []want{
				{"burstiness", 1, 1, 6},
				{"completed", 198, 0, 9}, {"failed", 2, 0, 10}, {"max_concurrency", 16, 0, 11},
				{"request_rate", 8, 2, 12}, {"duration", 25.31, 2, 13},
				{"max_output_tokens_per_s", 1390507.5, 2, 18}, {"max_concurrent_requests", 26, 2, 19},
				{"total_token_throughput", 9012.11, 2, 20},
				{"p50_ttft_ms", 41.02, 2, 24}, {"p90_ttft_ms", 70.10, 2, 25}, {"p99.9_ttft_ms", 176543.11, 2, 26},
				{"mean_e2el_ms", 1570.40, 2, 40},
				{"spec_decode_acceptance_rate", 71.25, 2, 46}, {"spec_decode_acceptance_length", 3.85, 2, 47},
				{"spec_decode_num_drafts", 6583, 0, 48}, {"spec_decode_accepted_tokens", 18762, 0, 50},
			},
			absent: []string{"p99_ttft_ms", "std_ttft_ms"},
		},
		{
			// "Traffic request rate: inf" (line 1) is kept as a label, without a metric.
			file: "vllm_v040.txt", nblocks: 1, format: FormatVLLM, def: CountOverDuration, line: 1, end: 19, labels: 14,
			metrics: []want{{"input_throughput", 2640.44, 2, 9}, {"p99_tpot_ms", 259.40, 2, 18}},
			absent:  []string{"request_rate", "total_token_throughput"},
		},
		{
			// The block starts at its "Traffic request rate: inf" (no metric).
			file: "vllm_plain_2024.txt", nblocks: 1, format: FormatVLLMPlain, def: CountOverDuration, line: 2, end: 16, labels: 14,
			metrics: []want{
				{"completed", 1000, 0, 4}, {"duration", 294.101467, 6, 5}, {"request_throughput", 3.40, 2, 8},
				{"mean_ttft_ms", 114960.78, 2, 11}, {"p99_tpot_ms", 661.07, 2, 16},
			},
		},
		{
			// benchmark_guided.py: the correct rate on the Throughput line,
			// then the describe() of each latency (first: a TTFT; next: a
			// gap between engine outputs, not filed as a TPOT).
			file: "vllm_guided_offline.txt", nblocks: 2, format: FormatVLLMThroughput, def: CountOverDuration, line: 4, end: 24, labels: 20,
			metrics: []want{
				{"correct_rate", 97.0, 1, 4}, {"output_throughput", 2109.50, 2, 4}, {"completed", 100, 0, 6},
				{"p50_ttft_ms", 244.190067, 6, 11}, {"median_ttft_ms", 244.190067, 6, 11},
				{"max_next_token_latency_ms", 19.856050, 6, 23},
			},
			absent: []string{"mean_tpot_ms", "mean_itl_ms"},
		},
		{
			file: "vllm_guided_offline.txt", block: 1, nblocks: 2, format: FormatVLLMThroughput, def: CountOverDuration, line: 26, end: 26, labels: 2,
			metrics: []want{{"request_throughput", 4.12, 2, 26}},
			absent:  []string{"correct_rate"},
		},
		{
			// The first layout of February 2024: "Reuqest throughput", and a
			// latency per output token (not a TPOT).
			file: "vllm_plain_2024_02.txt", nblocks: 1, format: FormatVLLMPlain, def: CountOverDuration, line: 2, end: 13, labels: 11,
			metrics: []want{
				{"request_throughput", 4.52, 2, 8}, {"mean_latency_per_output_token_ms", 95.12, 2, 11},
				{"p99_latency_per_output_token_ms", 412, 2, 13}, {"output_throughput", 896.08, 2, 10},
			},
		},
		{
			file: "vllm_2023.txt", nblocks: 1, format: FormatVLLMPlain, def: CountOverDuration, line: 3, end: 7, labels: 5,
			metrics: []want{
				{"duration", 219.64, 2, 3}, {"request_throughput", 4.55, 2, 4},
				{"mean_e2el_ms", 93270, -1, 5}, {"mean_latency_per_output_token_ms", 1520, -1, 7},
			},
		},
		{
			file: "vllm_headerless.txt", nblocks: 1, format: FormatVLLMHeaderless, def: CountOverDuration, line: 3, end: 14, labels: 10,
			metrics: []want{{"completed", 1000, 0, 3}, {"total_token_throughput", 11389.42, 2, 9}, {"p99_ttft_ms", 5737.27, 2, 13}},
		},
		{
			file: "truncated.txt", nblocks: 2, block: 0, format: FormatVLLM, def: CountOverDuration, line: 1, end: 4, truncated: true, labels: 3,
			metrics: []want{{"completed", 10, 0, 2}},
		},
		{
			file: "truncated.txt", nblocks: 2, block: 1, format: FormatVLLM, def: CountOverDuration, line: 5, end: 9, truncated: true, labels: 4,
			metrics: []want{{"total_output_tokens", 400, 0, 9}},
		},
		{
			file: "truncated_fence.txt", nblocks: 1, format: FormatVLLM, def: CountOverDuration, line: 2, end: 5, truncated: true, labels: 3,
		},
		{
			file: "truncated_noise.txt", nblocks: 1, format: FormatVLLM, def: CountOverDuration, line: 1, end: 4, truncated: true, labels: 3,
			metrics: []want{{"total_input_tokens", 219171, 0, 4}},
		},
		{
			file: "sglang.txt", nblocks: 1, format: FormatSGLang, def: CountOverDuration, line: 8, end: 45, labels: 32,
			metrics: []want{
				{"completed", 10, 0, 12}, {"total_output_tokens_retokenized", 1279, 0, 18},
				{"max_concurrent_requests", 10, 0, 23}, {"avg_concurrency", 5.48, 2, 25},
				{"mean_e2el_ms", 963.65, 2, 27}, {"p90_e2el_ms", 1200, 2, 29},
				{"mean_tpot_ms", 0, 2, 36}, {"p95_itl_ms", 8, 2, 42}, {"max_itl_ms", 40, 2, 44},
			},
			absent: []string{"request_rate", "max_concurrency"},
		},
		{
			file: "sglang_typo.txt", nblocks: 1, format: FormatSGLang, def: CountOverDuration, line: 1, end: 25, labels: 20,
			metrics: []want{{"max_concurrency", 64, 0, 4}, {"request_rate", 4, 1, 3}, {"total_token_throughput", 1468.18, 2, 13}},
		},
		{
			file: "trtllm_serve.txt", nblocks: 1, format: FormatTRTLLMServe, def: CountOverDuration, line: 3, end: 34, labels: 26,
			metrics: []want{
				{"num_prompts", 100, 0, 4}, {"failed", 2, 0, 6}, {"user_throughput", 35.2, 2, 13},
				{"std_ttft_ms", 30.5, 2, 17}, {"std_tpot_ms", 2.05, 2, 22}, {"spec_decode_acceptance_length", 1.85, 2, 28},
			},
		},
		{
			file: "other_tool.txt", nblocks: 1, format: FormatUnknown, line: 2, end: 8, labels: 5,
			absent: []string{"completed", "num_prompts", "duration", "mean_e2el_ms"},
		},
		{
			file: "messy_whitespace.txt", nblocks: 1, format: FormatVLLM, def: CountOverDuration, line: 1, end: 13, labels: 10,
			metrics: []want{
				{"completed", 64, 0, 2}, {"duration", 21.05, 2, 3}, {"total_input_tokens", 65536, 0, 4},
				{"request_throughput", 3.04, 2, 6}, {"mean_ttft_ms", 88.1, 2, 10}, {"median_ttft_ms", 80, 2, 11},
				{"p99_ttft_ms", 0, 2, 12},
			},
		},
		{
			file: "noise_isolated.txt", nblocks: 1, format: FormatVLLM, def: CountOverDuration, line: 7, end: 12, labels: 4,
			metrics: []want{{"completed", 3, 0, 8}},
		},
		{
			file: "forks.txt", nblocks: 1, format: FormatVLLM, def: CountOverDuration, line: 1, end: 15, labels: 11,
			metrics: []want{{"mean_ttft_ms", 210.05, 2, 10}},
			absent:  []string{"accuracy_rate"},
		},
		{
			file: "vllm_pooling_goodput.txt", nblocks: 2, format: FormatVLLM, def: CountOverDuration, line: 1, end: 12, labels: 9,
			metrics: []want{{"input_sequence_throughput", 80, 2, 6}, {"p99_e2el_ms", 240, 2, 11}},
			absent:  []string{"mean_ttft_ms", "input_throughput"},
		},
		{
			file: "vllm_pooling_goodput.txt", nblocks: 2, block: 1, format: FormatVLLM, def: CountOverDuration, line: 14, end: 30, labels: 14,
			metrics: []want{{"request_goodput", 7.1, 2, 21}, {"max_concurrency", 25, 0, 16}, {"max_concurrent_requests", 28, 2, 24}},
			absent:  []string{"p99_ttft_ms"},
		},
		{
			file: "guidellm_gpustack.txt", nblocks: 1, format: FormatGuideLLM, def: TimeSeriesMean, line: 3, end: 33, labels: 25,
			metrics: []want{
				{"mean_e2el_ms", 24110, -1, 15}, {"median_e2el_ms", 21900, -1, 16}, {"p99_e2el_ms", 51160, -1, 17},
				{"max_output_tokens_per_s", 20132659.20, 2, 11}, {"p99_ttft_ms", 5737.27, 2, 22},
			},
			absent: []string{"p95_ttft_ms", "p95_tpot_ms", "p95_itl_ms"},
		},
		{
			file: "guidellm_p95.txt", nblocks: 1, format: FormatGuideLLM, def: TimeSeriesMean, line: 4, end: 35, labels: 26,
			metrics: []want{{"p95_e2el_ms", 13390, -1, 18}, {"p95_ttft_ms", 102.52, 2, 23}},
		},
		{
			file: "corpus_two_blocks.txt", nblocks: 2, block: 1, format: FormatVLLM, def: CountOverDuration, line: 30, end: 52, labels: 18,
			metrics: []want{{"completed", 500, 0, 31}, {"p99_itl_ms", 383.79, 2, 51}},
		},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s#%d", tt.file, tt.block), func(t *testing.T) {
			f, err := os.Open(filepath.Join("testdata", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			blocks, err := Parse(tt.file, f)
			if err != nil {
				t.Fatal(err)
			}
			if len(blocks) != tt.nblocks {
				t.Fatalf("got %d blocks, want %d", len(blocks), tt.nblocks)
			}
			b := blocks[tt.block]
			if b.File != tt.file || b.Format != tt.format || b.Definition != tt.def || b.Truncated != tt.truncated {
				t.Errorf("got file %q format %q definition %q truncated %v, want %q %q %q %v",
					b.File, b.Format, b.Definition, b.Truncated, tt.file, tt.format, tt.def, tt.truncated)
			}
			if b.Line != tt.line || b.EndLine != tt.end {
				t.Errorf("block at lines %d-%d, want %d-%d", b.Line, b.EndLine, tt.line, tt.end)
			}
			if tt.labels >= 0 && len(b.Labels) != tt.labels {
				t.Errorf("%d labels, want %d: %v", len(b.Labels), tt.labels, b.Labels)
			}
			for _, w := range tt.metrics {
				m, ok := b.Metrics[w.key]
				if !ok {
					t.Errorf("no %s", w.key)
					continue
				}
				if m.Value != w.value || m.Decimals != w.decimals || m.Line != w.line {
					t.Errorf("%s = %v (%d decimals, line %d), want %v (%d, line %d)",
						w.key, m.Value, m.Decimals, m.Line, w.value, w.decimals, w.line)
				}
				if v, ok := b.Value(w.key); !ok || v != w.value {
					t.Errorf("Value(%q) = %v, %v", w.key, v, ok)
				}
			}
			for _, k := range tt.absent {
				if m, ok := b.Metrics[k]; ok {
					t.Errorf("unexpected %s = %v (line %d)", k, m.Value, m.Line)
				}
			}
			if b.Format == FormatUnknown && len(b.Metrics) != 0 {
				t.Errorf("unknown block has metrics %v", b.Metrics)
			}
		})
	}
}

func TestNoResult(t *testing.T) {
	blocks, err := Parse("empty.log", strings.NewReader("INFO starting\nSuccessful requests: 5\nError type: boom, Count: 3 requests\nthe run crashed\n"))
	if len(blocks) != 0 {
		t.Errorf("got %d blocks", len(blocks))
	}
	var se *SyntaxError
	if !errors.As(err, &se) {
		t.Fatalf("err = %v, want *SyntaxError", err)
	}
	// It names what the file looks like, from the line that says so.
	want := "empty.log:2: no known benchmark output in empty.log: it looks most like vLLM or SGLang bench serve"
	if se.File != "empty.log" || se.Line != 2 || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("err = %q\nwant  %q...", err, want)
	}
}

func TestBadValueIsProblem(t *testing.T) {
	in := "============ Serving Benchmark Result ============\n" +
		"Successful requests:                     1,000\n" +
		"Benchmark duration (s):                  12.00\n" +
		"Total input tokens:                      abc\n" +
		"==================================================\n"
	blocks, err := Parse("bad.log", strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	b := blocks[0]
	if len(b.Problems) != 2 {
		t.Fatalf("problems = %v", b.Problems)
	}
	if p := b.Problems[0]; p.Line != 2 || p.File != "bad.log" || !strings.Contains(p.Msg, `"1,000"`) {
		t.Errorf("problem = %v", p)
	}
	if p := b.Problems[1]; p.Line != 4 {
		t.Errorf("problem = %v", p)
	}
	if _, ok := b.Value("completed"); ok {
		t.Error("completed read from 1,000")
	}
}

// TestLongLines feeds lines much longer than the read buffer: a Namespace
// dump, and a redrawn progress bar with the banner glued to its end, with
// the banner straddling a buffer boundary.
func TestLongLines(t *testing.T) {
	for _, pad := range []int{readBufSize - 5, readBufSize - 12, 3*readBufSize + 7, 5 << 20} {
		var in strings.Builder
		in.WriteString("Namespace(" + strings.Repeat("x='y', ", pad/7) + ")\n")
		in.WriteString(strings.Repeat("\r 50%|█████     | 5/10 [00:01<00:01]", pad/40))
		in.WriteString(strings.Repeat("=", pad%97) + "============ Serving Benchmark Result ============\n")
		in.WriteString("Successful requests:                     10\n")
		in.WriteString("Benchmark duration (s):                  2.50\n")
		in.WriteString("==================================================\n")
		in.WriteString(strings.Repeat("y", pad) + "\nSuccessful requests: 1")
		blocks, err := Parse("long.log", strings.NewReader(in.String()))
		if err != nil {
			t.Fatalf("pad %d: %v", pad, err)
		}
		if len(blocks) != 1 {
			t.Fatalf("pad %d: %d blocks", pad, len(blocks))
		}
		b := blocks[0]
		if b.Line != 2 || b.EndLine != 5 || b.Truncated || b.Format != FormatVLLM {
			t.Errorf("pad %d: block %+v", pad, b)
		}
		if v, _ := b.Value("duration"); v != 2.5 {
			t.Errorf("pad %d: duration %v", pad, v)
		}
	}
}

// TestScanner checks the streaming interface directly.
func TestScanner(t *testing.T) {
	f, err := os.Open("testdata/corpus_two_blocks.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := NewScanner("c.md", f)
	var lines []int
	var kept []*Block
	for sc.Scan() {
		lines = append(lines, sc.Block().Line)
		kept = append(kept, sc.Block())
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(lines) != "[5 30]" {
		t.Errorf("blocks at lines %v, want [5 30]", lines)
	}
	if kept[0] == kept[1] {
		t.Error("Scan reused the Block")
	}
	if sc.Scan() {
		t.Error("Scan after the end returned true")
	}
}

type errReader struct{ n int }

func (r *errReader) Read(p []byte) (int, error) {
	if r.n > 0 {
		r.n = 0
		return copy(p, "============ Serving Benchmark Result ============\nSuccessful requests: 1\n"), nil
	}
	return 0, errors.New("disk on fire")
}

func TestReadError(t *testing.T) {
	blocks, err := Parse("x.log", &errReader{n: 1})
	if err == nil || !strings.Contains(err.Error(), "disk on fire") || !strings.HasPrefix(err.Error(), "x.log:3: ") {
		t.Errorf("err = %v", err)
	}
	if len(blocks) != 1 || !blocks[0].Truncated {
		t.Errorf("blocks = %+v", blocks)
	}
}

func TestMarshalJSON(t *testing.T) {
	b := Block{
		File: "a.log", Line: 3, Format: FormatVLLM, Definition: CountOverDuration,
		Metrics: map[string]Metric{"duration": {Value: 25.31}, "completed": {Value: 1000}, "max": {Value: 2e21}},
		Labels:  []Label{{Label: "Successful requests", Value: "1000", Line: 4}},
	}
	got, err := json.Marshal(b)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"file":"a.log","line":3,"format":"vllm","definition":"count/duration",` +
		`"metrics":{"completed":1000,"duration":25.31,"max":2000000000000000000000},` +
		`"labels":[{"label":"Successful requests","value":"1000"}]}`
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	b.Truncated = true
	got, _ = json.Marshal(&b)
	if !strings.Contains(string(got), `"truncated":true`) {
		t.Errorf("pointer marshal: %s", got)
	}
}

func readTestdata(name string) ([]byte, error) {
	return os.ReadFile(filepath.Join("testdata", name))
}

// TestNoisyLog checks the benchmark's input: every block found, in place.
func TestNoisyLog(t *testing.T) {
	data := makeNoisyLog(8 << 20)
	blocks := blocksOf(t, data)
	if len(blocks) == 0 {
		t.Fatal("no blocks")
	}
	for _, b := range blocks {
		if b.Format != FormatVLLM || b.Truncated || len(b.Labels) != 41 {
			t.Errorf("block at line %d: %s truncated=%v %d labels", b.Line, b.Format, b.Truncated, len(b.Labels))
		}
	}
}

// A file with no result perflab reads names the family it looks like.
func TestNoResultNamesTheClosestFamily(t *testing.T) {
	for text, want := range map[string]string{
		"INFO starting\nresults_ttft_s_mean: 0.52\nresults_inter_token_latency_s_mean: 0.02\n": "llmperf",
		"Benchmarks Stats\n| Rate | TTFT |\n":                                                  "guidellm",
		"Throughput: fast\nrequests/s were high\n":                                             "vLLM bench throughput",
		"INFO server started\nINFO done\n":                                                     "nothing in it looks like",
		"Generate time: 1.2 s\nTokenization time: 0.1 s\n":                                     "this layout of OpenVINO GenAI benchmark_genai yet",
		"[x] locust.main: done\nTotal Latency = 12\nNum Requests = 3\n":                        "this layout of Fireworks llm_bench yet",
	} {
		_, err := Parse("logs/x.log", strings.NewReader(text))
		var se *SyntaxError
		if !errors.As(err, &se) || !strings.Contains(se.Msg, "no known benchmark output in x.log") || !strings.Contains(se.Msg, want) {
			t.Errorf("%q: %v, want a message naming %q", text, err, want)
		}
	}
}
