package pipeline

import (
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/benchlog"
)

// TestSeedBlocksParse reads every result block of the seed studies: each log
// holds one complete vLLM block whose every printed number becomes its
// canonical metric, on its own line.
func TestSeedBlocksParse(t *testing.T) {
	t.Parallel()
	var logs []string
	for _, seed := range []string{"qwen3-235b-a22b-a100", "qwen3-32b-a100"} {
		found, err := filepath.Glob("../../results/" + seed + "/runs/*/*.log")
		if err != nil {
			t.Fatal(err)
		}
		logs = append(logs, found...)
	}
	if len(logs) != 30 {
		t.Fatalf("found %d seed logs, want 30 (15 per study)", len(logs))
	}
	want := []string{"completed", "duration", "total_input_tokens", "total_output_tokens", "request_throughput",
		"output_throughput", "max_output_tokens_per_s", "max_concurrent_requests", "total_token_throughput",
		"mean_ttft_ms", "median_ttft_ms", "p99_ttft_ms", "mean_tpot_ms", "median_tpot_ms", "p99_tpot_ms",
		"mean_itl_ms", "median_itl_ms", "p99_itl_ms"}
	sort.Strings(want)
	for _, file := range logs {
		f, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		blocks, err := benchlog.Parse(file, f)
		f.Close()
		if err != nil {
			t.Errorf("%s: %v", file, err)
			continue
		}
		if len(blocks) != 1 {
			t.Errorf("%s: %d blocks, want 1", file, len(blocks))
			continue
		}
		b := blocks[0]
		if b.Format != benchlog.FormatVLLM || b.Definition != benchlog.CountOverDuration || b.Truncated || len(b.Problems) > 0 {
			t.Errorf("%s: format %s, definition %s, truncated %v, problems %v", file, b.Format, b.Definition, b.Truncated, b.Problems)
		}
		if b.Line != 1 || b.EndLine != 23 {
			t.Errorf("%s: block at lines %d-%d, want 1-23", file, b.Line, b.EndLine)
		}
		var keys []string
		for k := range b.Metrics {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		if strings.Join(keys, " ") != strings.Join(want, " ") {
			t.Errorf("%s: metrics %v, want %v", file, keys, want)
		}
		// Every printed number is the value of the metric read on its line.
		values := 0
		for _, l := range b.Labels {
			x, err := strconv.ParseFloat(l.Value, 64)
			if err != nil {
				continue
			}
			values++
			found := false
			for _, m := range b.Metrics {
				if m.Line == l.Line && m.Value == x {
					found = true
				}
			}
			if !found {
				t.Errorf("%s:%d: %s %s has no metric with that value", file, l.Line, l.Label, l.Value)
			}
		}
		if values != len(want) {
			t.Errorf("%s: %d numeric labels, want %d", file, values, len(want))
		}
	}
}
