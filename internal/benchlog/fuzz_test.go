package benchlog

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"testing"
)

// FuzzParse checks that no input makes the parser panic, loop or return
// blocks that break its invariants.
func FuzzParse(f *testing.F) {
	for _, file := range inputFiles(f) {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte("x Serving Benchmark Result\nSuccessful requests: 1e400\nBenchmark duration: 1e-5 s\nMean Latency(s): 2.5e3\n=========="))
	f.Fuzz(func(t *testing.T, data []byte) {
		lines := bytes.Count(data, []byte("\n")) + 1
		blocks, err := Parse("fuzz.log", bytes.NewReader(data))
		if err != nil {
			if _, ok := err.(*SyntaxError); !ok || len(blocks) != 0 {
				t.Fatalf("err = %v with %d blocks", err, len(blocks))
			}
			return
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
			if b.Format == FormatUnknown && len(b.Metrics) != 0 {
				t.Fatalf("unknown block %d has metrics", i)
			}
			for k, m := range b.Metrics {
				if m.Line < b.Line || m.Line > b.EndLine || math.IsNaN(m.Value) || math.IsInf(m.Value, 0) {
					t.Fatalf("block %d: %s = %+v outside lines %d-%d or not finite", i, k, m, b.Line, b.EndLine)
				}
			}
			if _, err := json.Marshal(b); err != nil {
				t.Fatalf("block %d: %v", i, err)
			}
		}
	})
}
