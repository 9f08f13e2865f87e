package benchlog

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A block copied from a log whose lines carry a prefix (a timestamp, a
// rank, grep -n's line number, docker compose's container name) reads as
// the same block without it.
func TestLinePrefixes(t *testing.T) {
	plain, err := os.ReadFile("testdata/vllm_2026_full.txt")
	if err != nil {
		t.Fatal(err)
	}
	want, err := Parse("x.log", strings.NewReader(string(plain)))
	if err != nil || len(want) != 1 {
		t.Fatalf("the plain block: %v, %d blocks", err, len(want))
	}
	prefixes := map[string]func(i int) string{
		"rank":      func(int) string { return "[rank0]: " },
		"timestamp": func(i int) string { return fmt.Sprintf("2025-06-01 10:05:%02d,%03d - INFO - ", i%60, i*7%1000) },
		"vllm log":  func(i int) string { return fmt.Sprintf("INFO 06-01 10:05:%02d [api_server.py:%d] ", i%60, 90+i*13) },
		"grep -n":   func(i int) string { return fmt.Sprintf("%d:", 95+i) }, // crosses from 2 to 3 digits
		"compose":   func(int) string { return "vllm-bench-1  | " },
	}
	for name, prefix := range prefixes {
		var b strings.Builder
		for i, line := range strings.Split(strings.TrimRight(string(plain), "\n"), "\n") {
			b.WriteString(prefix(i) + line + "\n")
		}
		got, err := Parse("x.log", strings.NewReader(b.String()))
		if err != nil || len(got) != 1 {
			t.Errorf("%s: %v, %d blocks", name, err, len(got))
			continue
		}
		if len(got[0].Problems) > 0 {
			t.Errorf("%s: problems %v", name, got[0].Problems)
		}
		// The load lines printed before the banner (prelines.go) are read
		// through a prefix shared with the line before (logprefix.go).
		wantMetrics := maps.Clone(want[0].Metrics)
		if !maps.EqualFunc(got[0].Metrics, wantMetrics, func(a, b Metric) bool { return a.Value == b.Value && a.Decimals == b.Decimals }) {
			t.Errorf("%s: %d metrics, want %d:\n%v", name, len(got[0].Metrics), len(wantMetrics), got[0].Metrics)
		}
	}
}

// Every console output of testdata reads the same when each of its lines
// carries the prefix of a log collector or a paste (stripPrefixes), and
// when its lines end with CRLF.
func TestLogPrefixesEveryFormat(t *testing.T) {
	prefixes := map[string]func(i int) string{
		"quote":     func(int) string { return "> " },
		"quote2":    func(int) string { return "> > " },
		"compose":   func(int) string { return "perf-bench-1  | " },
		"compose1":  func(int) string { return "proj_bench_1   | " },
		"kubectl":   func(i int) string { return fmt.Sprintf("2025-06-01T10:05:%02d.%09dZ ", i%60, i*7919%1000000000) },
		"buildkite": func(i int) string { return fmt.Sprintf("[2025-06-01T10:05:%02dZ] ", i%60) },
		"offset":    func(i int) string { return fmt.Sprintf("2025-06-01T10:05:%02d+08:00 ", i%60) },
		"rank":      func(int) string { return "[rank3]: " },
		"ray":       func(i int) string { return fmt.Sprintf("(RayWorker pid=%d, ip=10.0.0.7) ", 4000+i%3) },
		"compose+t": func(i int) string { return fmt.Sprintf("bench-1  | 2025-06-01T10:05:%02d.5Z ", i%60) },
		"list":      func(int) string { return "   > " },
		"grep -n":   func(i int) string { return fmt.Sprintf("%d:", i+1) },
		"grep -A":   func(i int) string { return fmt.Sprintf("%d%c", i+1, ":-"[min(i, 1)]) },
		"cat -n":    func(i int) string { return fmt.Sprintf("%6d\t", i+1) },
		"grep+comp": func(i int) string { return fmt.Sprintf("%d:bench-1  | ", i+1) },
	}
	var files []string
	for _, pat := range []string{"testdata/*.txt", "testdata/*.md"} {
		m, err := filepath.Glob(pat)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		want, wantErr := Parse("x.log", bytes.NewReader(data))
		lines := strings.SplitAfter(string(data), "\n")
		variants := map[string]string{"crlf": strings.ReplaceAll(string(data), "\n", "\r\n")}
		for name, prefix := range prefixes {
			if file == "testdata/prefix_grep.txt" && (strings.HasPrefix(name, "grep") || name == "cat -n") {
				continue // one line number inside another: not a paste
			}
			var b strings.Builder
			for i, line := range lines {
				if line != "" {
					b.WriteString(prefix(i) + line)
				}
			}
			variants[name] = b.String()
		}
		for name, text := range variants {
			got, err := Parse("x.log", strings.NewReader(text))
			if (err != nil) != (wantErr != nil) || len(got) != len(want) {
				t.Errorf("%s, %s: %d blocks (%v), want %d (%v)", file, name, len(got), err, len(want), wantErr)
				continue
			}
			for i := range got {
				g, w := got[i], want[i]
				if g.Format != w.Format || g.Line != w.Line || g.EndLine != w.EndLine ||
					!maps.EqualFunc(g.Metrics, w.Metrics, func(a, b Metric) bool { return a.Value == b.Value && a.Decimals == b.Decimals && a.Line == b.Line }) {
					t.Errorf("%s, %s: block %d is %s lines %d-%d with %d metrics, want %s lines %d-%d with %d", file, name, i,
						g.Format, g.Line, g.EndLine, len(g.Metrics), w.Format, w.Line, w.EndLine, len(w.Metrics))
				}
			}
		}
	}
}

func TestLogPrefixShapes(t *testing.T) {
	for _, c := range []struct{ line, want string }{
		{"> Successful requests: 1", "Successful requests: 1"},
		{">> > x", "x"},
		{"  > x", "x"},
		{"bench-1  | x", "x"},
		{"proj_vllm_bench_1 | x", "x"},
		{"[rank12]: x", "x"},
		{"(pid=77) x", "x"},
		{"(EngineCore_DP0 pid=77) x", "x"},
		{"2025-06-01T10:05:01Z x", "x"},
		{"2025-06-01T10:05:01.123456789+08:00 x", "x"},
		{"[2025-06-01T10:05:01Z] x", "x"},
		{"bench-1  | 2025-06-01T10:05:01.5Z > x", "x"},
		{"[1,0]<stdout>:x", "x"},
		{"[12,3]<stderr>: x", "x"},
		{"slurm-824.out:x", "x"},
		{"slurm-824.out:12:x", "x"},
		{"logs/run-3.log:Successful requests: 1", "Successful requests: 1"},
		// Not prefixes.
		{"http://host:8000/v1 x", ""},
		{"[1,0] x", ""},
		{"[1,0]<stdin>:x", ""},
		{"slurm-824.out-x", ""}, // a context line, before any matching line taught the name
		{"Benchmark duration (s): 1.00", ""},
		{"INFO 06-01 10:05:01 [api_server.py:1] x", ""},
		{"Mean TTFT (ms):                          1.00", ""},
		{"| model | size |", ""},
		{"llama 7B Q4_0 | 3.56 GiB |", ""},
		{"bench | x", ""},
		{"(1%, 5%, 50%)", ""},
		{"(pid) x", ""},
		{"[2025-06-01 10:05:01 TP0] x", ""},
		{"2025-06-01 10:05:01,123 - evalscope - INFO - x", ""},
		{"[Latency] P50    : 1.0", ""},
		{"    Input tokens | 1 |", ""},
	} {
		got := string((&Scanner{prefixes: prefixes{nextNum: -1}}).stripPrefixes([]byte(c.line)))
		want := c.want
		if want == "" {
			want = c.line
		}
		if got != want {
			t.Errorf("stripPrefixes(%q) = %q, want %q", c.line, got, want)
		}
	}
	for _, c := range []struct {
		line    string
		n, size int
		ok      bool
	}{
		{"12:x", 12, 3, true},
		{"12-x", 12, 3, true},
		{"    12\tx", 12, 7, true},
		{"  12:x", 0, 0, false},
		{"12 x", 0, 0, false},
		{"12.5 x", 0, 0, false},
		{"x", 0, 0, false},
	} {
		n, size, ok := lineNumber([]byte(c.line))
		if n != c.n || size != c.size || ok != c.ok {
			t.Errorf("lineNumber(%q) = %d, %d, %v; want %d, %d, %v", c.line, n, size, ok, c.n, c.size, c.ok)
		}
	}
}

// Every console output of testdata reads the same behind a log prefix
// perflab does not know by name (pytest's live log, SGLang's logger), on
// its blocks with or without a banner, as long as the line before the
// block carries the prefix too (logprefix.go).
func TestUnknownLogPrefixesEveryFormat(t *testing.T) {
	prefixes := map[string]func(i int) string{
		"pytest": func(i int) string { return fmt.Sprintf("INFO     bench.serving:test_serving.py:%d ", 40+i%7) },
		"sglang": func(i int) string { return fmt.Sprintf("[2025-06-01 10:05:%02d TP0] ", i%60) },
	}
	files, err := filepath.Glob("testdata/*.txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		base := filepath.Base(file)
		if strings.HasPrefix(base, "prefix_") || base == "messy_whitespace.txt" || base == "vllm_2023_oneline.txt" {
			// A named prefix under an unknown one, tabs and CRs mixed in one
			// block, and lines run together before any prefix: not a paste.
			continue
		}
		want, wantErr := Parse("x.log", bytes.NewReader(data))
		if wantErr != nil {
			continue
		}
		for name, prefix := range prefixes {
			var b strings.Builder
			b.WriteString(prefix(0) + "starting the benchmark\n")
			for i, line := range strings.SplitAfter(string(data), "\n") {
				if line != "" {
					b.WriteString(prefix(i+1) + line)
				}
			}
			got, err := Parse("x.log", strings.NewReader(b.String()))
			if err != nil || len(got) != len(want) {
				t.Errorf("%s, %s: %d blocks (%v), want %d", file, name, len(got), err, len(want))
				continue
			}
			for i := range got {
				g, w := got[i], want[i]
				if g.Format != w.Format || g.Line != w.Line+1 || g.EndLine != w.EndLine+1 ||
					!maps.EqualFunc(g.Metrics, w.Metrics, func(a, b Metric) bool { return a.Value == b.Value && a.Decimals == b.Decimals && a.Line == b.Line+1 }) {
					t.Errorf("%s, %s: block %d is %s lines %d-%d with %d metrics, want %s lines %d-%d with %d", file, name, i,
						g.Format, g.Line, g.EndLine, len(g.Metrics), w.Format, w.Line+1, w.EndLine+1, len(w.Metrics))
				}
			}
		}
	}
}

// TestPrefixLearntReadsTheLineBefore: the line before the one that
// teaches a log prefix is read again under it, so that SGLang's "Warmup
// ..." on a paste's first line still marks the warm-up run, which is not
// a result.
func TestPrefixLearntReadsTheLineBefore(t *testing.T) {
	data, err := os.ReadFile("testdata/sglang_one_batch_logger.txt")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	blocks, err := Parse("x.log", strings.NewReader(strings.Join(lines[4:], "")))
	if err != nil || len(blocks) != 1 {
		t.Fatalf("%d blocks (%v), want the benchmark run only", len(blocks), err)
	}
	if d := blocks[0].Metrics["duration"]; d.Value != 0.957 {
		t.Errorf("duration %v: the warm-up run was read as the result", d.Value)
	}
}
