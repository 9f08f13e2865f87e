package benchlog

import (
	"bytes"
	"maps"
	"os"
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

// TestGuideLLMTablesByHeader: a guidellm v0.4+ table is known by its
// header rows, whatever its title: edited, or lost.
func TestGuideLLMTablesByHeader(t *testing.T) {
	data, err := os.ReadFile("testdata/guidellm_v04_sweep.txt")
	if err != nil {
		t.Fatal(err)
	}
	want, err := Parse("x.log", bytes.NewReader(data))
	if err != nil || len(want) == 0 {
		t.Fatalf("the original: %v, %d blocks", err, len(want))
	}
	edits := map[string]func(title string) string{
		"renamed": func(title string) string {
			return strings.Replace(title, " Statistics", " Statistics Table-1", 1) + " (edited)"
		},
		"no glyph": func(title string) string { return strings.TrimPrefix(title, "ℹ ") + " of the run" },
		"lost":     func(string) string { return "" },
	}
	for name, edit := range edits {
		var b strings.Builder
		for _, line := range strings.SplitAfter(string(data), "\n") {
			if strings.HasPrefix(line, "ℹ ") {
				line = edit(strings.TrimSuffix(line, "\n")) + "\n"
			}
			b.WriteString(line)
		}
		got, err := Parse("x.log", strings.NewReader(b.String()))
		if err != nil || len(got) != len(want) {
			t.Errorf("%s: %d blocks (%v), want %d", name, len(got), err, len(want))
			continue
		}
		for i := range got {
			if !maps.EqualFunc(got[i].Metrics, want[i].Metrics, func(a, b Metric) bool { return a.Value == b.Value && a.Line == b.Line }) {
				t.Errorf("%s: block %d has %d metrics, want %d", name, i, len(got[i].Metrics), len(want[i].Metrics))
			}
		}
	}
}

// TestGoDuration: Ollama's durations keep their printed decimals in the
// key's unit.
func TestGoDuration(t *testing.T) {
	for _, c := range []struct {
		in, key string
		value   float64
		dec     int
	}{
		{"4.211583542s", "duration", 4.211583542, 9},
		{"28.164ms", "load_duration_ms", 28.164, 3},
		{"1.207s", "prefill_latency_ms", 1207, 0},
		{"83.529µs", "prefill_latency_ms", 0.083529, 6},
		{"1m2.4s", "duration", 62.4, 1},
		{"412.3917ms", "duration", 0.4123917, 7},
	} {
		m, ok := goDuration(c.in, c.key, 1)
		if !ok || m.Value < c.value*(1-1e-12) || m.Value > c.value*(1+1e-12) || m.Decimals != c.dec {
			t.Errorf("goDuration(%q, %s) = %v %d %v, want %v %d", c.in, c.key, m.Value, m.Decimals, ok, c.value, c.dec)
		}
	}
	for _, bad := range []string{"12", "-1s", "1.5 s", "fast"} {
		if _, ok := goDuration(bad, "duration", 1); ok {
			t.Errorf("goDuration(%q) read", bad)
		}
	}
}

// TestLoadGenSamplesAreRequestsOnlyWithTokens: a LoadGen sample is a
// request only when the summary counts tokens (an LLM benchmark).
func TestLoadGenSamplesAreRequestsOnlyWithTokens(t *testing.T) {
	in := "================================================\nMLPerf Results Summary\n================================================\n" +
		"SUT name : QDL\nScenario : Offline\nMode     : PerformanceOnly\nSamples per second: 3125.5\nResult is : VALID\n"
	blocks, err := Parse("summary.txt", strings.NewReader(in))
	if err != nil || len(blocks) != 1 {
		t.Fatalf("want one block, got %d (%v)", len(blocks), err)
	}
	if _, ok := blocks[0].Metrics["request_throughput"]; ok {
		t.Error("samples of a summary without tokens read as requests")
	}
	if m := blocks[0].Metrics["samples_per_s"]; m.Value != 3125.5 || m.Line != 7 {
		t.Errorf("samples_per_s = %+v, want 3125.5 on line 7", m)
	}
}
