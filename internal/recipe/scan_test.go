package recipe

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/benchlog"
	"github.com/perflab/perflab/internal/study"
)

// scanByLine is scanLog as it was written first, one line at a time: the
// reference the faster search must agree with.
func scanByLine(lg *study.Log) (echo, bench Item) {
	end := len(lg.Raw)
	if len(lg.Blocks) > 0 && lg.Blocks[0].Line > 0 {
		end = lineOffset(lg.Raw, lg.Blocks[0].Line)
	}
	for n, line := range bytes.Split(lg.Raw[:end], []byte("\n")) {
		t := strings.TrimSpace(strings.TrimSuffix(string(line), "\r"))
		hasMarker := false
		for _, m := range benchMarkers {
			hasMarker = hasMarker || strings.Contains(t, string(m))
		}
		switch {
		case !echo.Known() && strings.Contains(t, "Namespace("):
			echo = Item{t[strings.Index(t, "Namespace("):], lg.File, n + 1}
		case !bench.Known() && hasMarker && !strings.Contains(t, "INFO"):
			bench = Item{strings.TrimPrefix(strings.TrimPrefix(t, "$ "), "+ "), lg.File, n + 1}
		}
	}
	return echo, bench
}

// FuzzScanLog: the search over the whole text finds the lines the
// line-by-line reading finds, wherever the markers, INFO and the first
// block stand.
func FuzzScanLog(f *testing.F) {
	f.Add("INFO x\n$ vllm bench serve --seed 1\nNamespace(seed=3)\n", 0)
	f.Add("Namespace(a) vllm bench serve\nINFO vllm bench serve\n+ aiperf profile -m x\r\nNamespace(b)\n", 3)
	f.Add("  llama-bench -m x  \nINFO: trtllm-bench\ntrtllm-bench --model y\n", 2)
	f.Fuzz(func(t *testing.T, text string, blockLine int) {
		lg := &study.Log{File: "results/s/runs/r/w.log", Raw: []byte(text)}
		if blockLine > 0 {
			lg.Blocks = []benchlog.Block{{Line: blockLine % 50}}
		}
		echo, bench := scanLog(lg)
		wantEcho, wantBench := scanByLine(lg)
		if echo != wantEcho || bench != wantBench {
			t.Errorf("scanLog gives %+v and %+v, line by line %+v and %+v", echo, bench, wantEcho, wantBench)
		}
	})
}

// noisyLog is a log of n lines of server noise, then a benchmark command
// and its echoed arguments.
func noisyLog(n int) *study.Log {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "INFO 12-06 10:00:%02d [loggers.py:116] Engine 000: Avg prompt throughput: %d.5 tokens/s, Running: 12 reqs\n", i%60, i)
	}
	b.WriteString("$ vllm bench serve --model m --seed 5\nNamespace(seed=5)\n")
	return &study.Log{File: "results/s/runs/r/w.log", Raw: []byte(b.String())}
}

// Scanning a log allocates the same whatever its length: no line is
// copied but the two it keeps (a copy of each line made 433 MB of
// garbage for three 64 MiB logs, docs/performance.md).
func TestScanLogAllocations(t *testing.T) {
	allocs := func(n int) (float64, Item) {
		lg := noisyLog(n)
		var bench Item
		return testing.AllocsPerRun(5, func() { _, bench = scanLog(lg) }), bench
	}
	small, bench := allocs(2000)
	large, _ := allocs(4000)
	if bench.Line != 2001 || bench.Value != "vllm bench serve --model m --seed 5" {
		t.Fatalf("bench command %+v, want line 2001", bench)
	}
	if large != small || small > 4 {
		t.Errorf("%v allocations at 2,000 lines, %v at 4,000: want the same few", small, large)
	}
}
