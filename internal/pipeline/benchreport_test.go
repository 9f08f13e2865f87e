package pipeline

import (
	"bytes"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/benchlog"
	"github.com/perflab/perflab/internal/downloads"
)

// TestBenchReports: every result block of the repository's studies has a
// Benchmark Report in the downloads, whose structure is the schema's and
// which reads back through perflab's own reader to the block's figures.
func TestBenchReports(t *testing.T) {
	t.Parallel()
	p, files := buildRepo(t, repoDirs)
	n := 0
	for _, res := range p.Results {
		for _, run := range res.Study.Runs {
			for li := range run.Logs {
				lg := &run.Logs[li]
				for bi := range lg.Blocks {
					b := &lg.Blocks[bi]
					name := downloads.BenchReportName(res.Study.ID, run.ID, lg, bi)
					data, ok := files[name]
					if !ok {
						t.Errorf("%s:%d: no report %s", lg.File, b.Line, name)
						continue
					}
					n++
					for _, e := range checkBenchReport(data) {
						t.Errorf("%s: %s", name, e)
					}
					roundTrip(t, name, data, b)
				}
			}
		}
	}
	if n == 0 {
		t.Fatal("no report checked")
	}
}

// roundTrip reads a report back and compares each figure it gives with the
// block's.
func roundTrip(t *testing.T, name string, data []byte, want *benchlog.Block) {
	t.Helper()
	blocks, err := benchlog.Parse(name, bytes.NewReader(data))
	if err != nil || len(blocks) != 1 {
		t.Errorf("%s: read back %d blocks, %v", name, len(blocks), err)
		return
	}
	got := blocks[0]
	if got.Format != benchlog.FormatBenchReport || len(got.Problems) > 0 {
		t.Errorf("%s: read back as %s, problems %v", name, got.Format, got.Problems)
	}
	if len(got.Metrics) < 3 {
		t.Errorf("%s: only %d figures read back", name, len(got.Metrics))
	}
	for k, m := range got.Metrics {
		w, ok := want.Metrics[k]
		if k == "request_rate" || k == "max_concurrency" {
			continue // the load may come from the file name or study.yaml
		}
		if !ok {
			t.Errorf("%s: %s = %v read back, the block has none", name, k, m.Value)
			continue
		}
		if math.Abs(m.Value-w.Value) > 1e-9*math.Max(1, math.Abs(w.Value)) {
			t.Errorf("%s: %s = %v read back, the block has %v", name, k, m.Value, w.Value)
		}
	}
}

// TestBenchReportSchemaCheck: the structure check finds what the schema
// refuses, so that TestBenchReports can fail.
func TestBenchReportSchemaCheck(t *testing.T) {
	t.Parallel()
	bad := `{"version": "0.2.1", "run": {"uid": 7}, "perflab": {},
"scenario": {"load": {"metadata": {}, "native": {}, "standardized": {"tool": "t", "tool_version": "", "source": "random",
  "input_seq_len": {"distribution": "other", "value": 5}, "concurrency": 2.5}}},
"results": {"request_performance": {"aggregate": {
  "latency": {"time_to_first_token": {"units": "ms/token", "mean": 1}, "request_latency": {"units": "ms", "p50": 3}},
  "requests": {"failures": 1}}}}}`
	errs := strings.Join(checkBenchReport([]byte(bad)), "\n")
	for _, want := range []string{
		`$: member "perflab" is not in the schema`,
		`$.run.uid: json.Number, want a string`,
		`$.scenario.load.standardized.concurrency: 2.5, want an integer`,
		`$.results.request_performance.aggregate.latency.time_to_first_token.units: ms/token, want one of ms, s`,
		`$.results.request_performance.aggregate.latency.request_latency: required member "mean" missing`,
		`$.results.request_performance.aggregate.requests: required member "total" missing`,
	} {
		if !strings.Contains(errs, want) {
			t.Errorf("not found: %s\nin:\n%s", want, errs)
		}
	}
}

// TestBenchReportExamples: the schema's own example reports pass the
// structure check, which is therefore not stricter than the schema.
func TestBenchReportExamples(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("../benchlog/testdata/benchreport_v02_example.json")
	if err != nil {
		t.Fatal(err)
	}
	// The v0.2 example, dated 0.2.1: the newer schema only adds members.
	data = bytes.Replace(data, []byte(`"version": "0.2"`), []byte(`"version": "0.2.1"`), 1)
	// Its unbounded concurrency is Python's Infinity, which is not JSON.
	data = bytes.ReplaceAll(data, []byte(`: Infinity`), []byte(`: 1`))
	if errs := checkBenchReport(data); len(errs) > 0 {
		t.Errorf("the schema's example fails the check:\n%s", strings.Join(errs, "\n"))
	}
}
