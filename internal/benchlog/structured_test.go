package benchlog

import (
	"math"
	"os"
	"strings"
	"testing"
)

// TestAIPerfAggregateIntervals: the aggregate export's interval of a
// metric is kept beside its mean, in the metric's unit, with the runs.
func TestAIPerfAggregateIntervals(t *testing.T) {
	data, err := os.ReadFile("testdata/aiperf_aggregate.json")
	if err != nil {
		t.Fatal(err)
	}
	blocks, err := Parse("aiperf_aggregate.json", strings.NewReader(string(data)))
	if err != nil || len(blocks) != 1 {
		t.Fatalf("blocks %d, err %v", len(blocks), err)
	}
	b := blocks[0]
	iv, ok := b.Intervals["p99_ttft_ms"]
	if !ok || math.Abs(iv.Low-64.28966669637463) > 1e-9 || math.Abs(iv.High-76.71033330362537) > 1e-9 || iv.Runs != 3 || iv.Level != 0.95 {
		t.Errorf("p99_ttft_ms interval = %+v (found %v)", iv, ok)
	}
	if _, ok := b.Intervals["mean_e2el_ms"]; ok {
		t.Error("an interval was kept for a metric whose unit is refused")
	}
	if b.DefinitionOf("request_throughput") != RunMean {
		t.Errorf("request_throughput follows %q, want %q", b.DefinitionOf("request_throughput"), RunMean)
	}
}

// TestBenchReportUnits: a Benchmark Report's seconds and seconds per token
// become ms, and a unit the schema does not allow for a metric is never
// read as another.
func TestBenchReportUnits(t *testing.T) {
	const report = `{"version": "0.2.1", "run": {"uid": "a", "time": {"duration": "PT1M30.5S"}},
"results": {"request_performance": {"aggregate": {
 "latency": {"time_per_output_token": {"units": "s/token", "mean": 0.0125, "p99": 0.02},
             "request_latency": {"units": "ms/token", "mean": 3.5},
             "time_to_first_token": {"units": "ms", "mean": 80}},
 "throughput": {"output_token_rate": {"units": "queries/s", "mean": 9}}}}}}`
	blocks, err := Parse("r.json", strings.NewReader(report))
	if err != nil || len(blocks) != 1 {
		t.Fatalf("blocks %d, err %v", len(blocks), err)
	}
	b := blocks[0]
	for key, want := range map[string]float64{"mean_tpot_ms": 12.5, "p99_tpot_ms": 20, "mean_ttft_ms": 80, "duration": 90.5} {
		if v, ok := b.Value(key); !ok || v != want {
			t.Errorf("%s = %v (found %v), want %v", key, v, ok, want)
		}
	}
	for _, key := range []string{"mean_e2el_ms", "output_throughput"} {
		if _, ok := b.Value(key); ok {
			t.Errorf("%s was read from a unit the schema does not allow for it", key)
		}
	}
	if len(b.Problems) != 2 {
		t.Errorf("problems = %v, want one per refused unit", b.Problems)
	}
}

func TestISOSeconds(t *testing.T) {
	for in, want := range map[string]float64{"PT60S": 60, "PT1H2M3.5S": 3723.5, "P1DT1S": 86401, "PT0.25S": 0.25} {
		if got, ok := isoSeconds(in); !ok || got != want {
			t.Errorf("isoSeconds(%q) = %v, %v; want %v", in, got, ok, want)
		}
	}
	for _, in := range []string{"", "P", "PT", "60", "PT-1S", "1 minute"} {
		if _, ok := isoSeconds(in); ok {
			t.Errorf("isoSeconds(%q) read a duration", in)
		}
	}
}
