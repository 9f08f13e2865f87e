package study_test

import (
	"testing"

	"github.com/perflab/perflab/internal/benchlog"
	"github.com/perflab/perflab/internal/study"
)

// benchReport is a small llm-d Benchmark Report v0.2.1 in YAML.
const benchReport = `results:
  request_performance:
    aggregate:
      latency:
        time_to_first_token:
          mean: 0.25
          units: s
      requests:
        failures: 0
        total: 200
      throughput:
        total_token_rate:
          mean: 1000.0
          units: tokens/s
run:
  uid: 0b6f2a
version: 0.2.1
`

// TestLoadBenchReport: a <workload>.yaml in a run folder is read as a
// Benchmark Report, like a .log.
func TestLoadBenchReport(t *testing.T) {
	files := validFiles()
	delete(files, "runs/vllm/sharegpt.log")
	files["runs/vllm/sharegpt.yaml"] = benchReport
	s, problems, err := study.Load(mapFS(files), "results/x", "x")
	if err != nil {
		t.Fatal(err)
	}
	if len(problems) != 0 {
		t.Fatalf("problems: %v", problems)
	}
	b := s.Run("vllm").Result("sharegpt")
	if b == nil || b.Format != benchlog.FormatBenchReportYAML {
		t.Fatalf("result = %+v", b)
	}
	if v, _ := b.Value("mean_ttft_ms"); v != 250 {
		t.Errorf("mean_ttft_ms = %v, want 250 (0.25 s)", v)
	}
	if v, _ := b.Value("total_token_throughput"); v != 1000 {
		t.Errorf("total_token_throughput = %v, want 1000", v)
	}
}
