package benchlog

import (
	"strings"
	"testing"
)

// TestInferencesAreNotThroughput: perf_analyzer's infer/sec is neither a
// request nor a token rate, whatever else the log holds.
func TestInferencesAreNotThroughput(t *testing.T) {
	for _, in := range []string{
		"Request concurrency: 4\n  Client: \n    Request count: 10\n    Throughput: 75.6 infer/sec\n",
		"Throughput: 75.6 infer/sec\n",
		"Request concurrency: 4\n  Client: \n    Throughput: 75.6\n",
	} {
		blocks, _ := Parse("pa.txt", strings.NewReader(in))
		for _, b := range blocks {
			for _, k := range []string{"request_throughput", "output_throughput", "total_token_throughput", "input_throughput"} {
				if m, ok := b.Metrics[k]; ok {
					t.Errorf("%q: %s = %v read from an infer/sec line", in, k, m.Value)
				}
			}
		}
	}
}

// TestUnitlessInferenceRateIsAProblem: a throughput printed without its unit
// is not read and is reported on its line.
func TestUnitlessInferenceRateIsAProblem(t *testing.T) {
	in := "Request concurrency: 4\n  Client: \n    Request count: 10\n    Throughput: 75.6\n    Avg latency: 100 usec\n"
	blocks, err := Parse("pa.txt", strings.NewReader(in))
	if err != nil || len(blocks) != 1 {
		t.Fatalf("want one block, got %d (%v)", len(blocks), err)
	}
	b := blocks[0]
	if _, ok := b.Metrics["inferences_per_s"]; ok {
		t.Error("a unitless throughput was read")
	}
	if len(b.Problems) != 1 || !strings.Contains(b.Problems[0].Error(), "pa.txt:4:") {
		t.Errorf("want one problem on line 4, got %v", b.Problems)
	}
}
