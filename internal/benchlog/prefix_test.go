package benchlog

import (
	"fmt"
	"maps"
	"os"
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
		if !maps.EqualFunc(got[0].Metrics, want[0].Metrics, func(a, b Metric) bool { return a.Value == b.Value && a.Decimals == b.Decimals }) {
			t.Errorf("%s: %d metrics, want %d:\n%v", name, len(got[0].Metrics), len(want[0].Metrics), got[0].Metrics)
		}
	}
}
