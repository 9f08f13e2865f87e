package benchlog

import (
	"strings"
	"testing"
)

// TestUnitIdentities: a latency that breaks an identity is reported on its
// line and not filed; the others stay.
func TestUnitIdentities(t *testing.T) {
	m := func(v float64, line int) Metric { return Metric{Value: v, Line: line, Raw: "x"} }
	b := &Block{File: "f", Metrics: map[string]Metric{
		"mean_ttft_ms": m(900, 3), "mean_e2el_ms": m(0.9, 4), // e2e below TTFT: one of them is in the wrong unit
		"p50_itl_ms": m(20, 5), "median_itl_ms": m(20, 5), "p90_itl_ms": m(2, 6), // percentiles fall
		"p50_tpot_ms": m(10, 7), "p99_tpot_ms": m(30, 8), "mean_tpot_ms": m(40, 9), "max_tpot_ms": m(35, 10),
		"p10_ttft_ms": m(100, 11), "p10_e2el_ms": m(1000, 12),
		"duration": m(10, 1), "output_throughput": m(100, 2), "completed": m(10, 13), "mean_output_len": m(1000, 14),
	}}
	unitIdentities(b, "Tool")
	for _, k := range []string{"mean_ttft_ms", "mean_e2el_ms", "p50_itl_ms", "median_itl_ms", "p90_itl_ms", "mean_tpot_ms", "duration"} {
		if _, ok := b.Metrics[k]; ok {
			t.Errorf("%s kept", k)
		}
	}
	for _, k := range []string{"p50_tpot_ms", "p99_tpot_ms", "max_tpot_ms", "p10_ttft_ms", "p10_e2el_ms", "output_throughput"} {
		if _, ok := b.Metrics[k]; !ok {
			t.Errorf("%s dropped", k)
		}
	}
	lines := map[int]bool{}
	for _, p := range b.Problems {
		lines[p.Line] = true
		if !strings.Contains(p.Msg, "cannot be decided") {
			t.Errorf("problem %q", p.Msg)
		}
	}
	for _, l := range []int{1, 3, 4, 5, 6, 9} {
		if !lines[l] {
			t.Errorf("no problem on line %d: %v", l, b.Problems)
		}
	}
}
