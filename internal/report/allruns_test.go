package report

import (
	"testing"

	"github.com/perflab/perflab/internal/study"
)

func TestAllRuns(t *testing.T) {
	tp8 := testRun("tp8", "TP8", 8, "sharegpt", "3792.50")
	setMetric(tp8, "sharegpt", "mean_ttft_ms", "120.5", 12)
	setMetric(tp8, "sharegpt", "mean_tpot_ms", "30.25", 14)
	tp4 := testRun("tp4", "TP4", 4, "sharegpt", "3019.19", "random-32k", "900.00")
	setMetric(tp4, "sharegpt", "mean_ttft_ms", "100.0", 12)
	failed := &study.Run{ID: "broken", Name: "broken", Engine: "vllm", GPUs: 8, Error: "OOM"}
	other := testRun("other-model", "Other", 8, "sharegpt", "9999.00")
	s := testStudy(study.Throughput, 8, tp8, tp4, failed, other)
	s.Baseline = study.Config{Runs: []string{"tp8"}}
	s.Recommended = study.Config{Runs: []string{"tp4"}}
	r := Build(s, map[string]string{"other-model": "model-mismatch"})
	a := r.AllRuns()
	if a == nil {
		t.Fatal("no all-runs table")
	}
	// Runs in the study's (sorted) order; failed and excluded runs left out.
	if len(a.Runs) != 2 || a.Runs[0].ID != "tp4" || a.Runs[1].ID != "tp8" {
		t.Fatalf("runs = %+v, want tp4, tp8", a.Runs)
	}
	if a.First != 1 || a.Second != 0 {
		t.Errorf("first, second = %d, %d; want the baseline (1) and the recommended run (0)", a.First, a.Second)
	}
	// sharegpt: throughput, mean TTFT, mean TPOT; random-32k: throughput.
	// No row for a metric no run prints.
	want := []struct {
		workload, metric string
		tp4, tp8         string // Expr, "" for none
	}{
		{"sharegpt", "total_token_throughput", "3019.19 x 2", "3792.50"},
		{"sharegpt", "mean_ttft_ms", "100.0", "120.5"},
		{"sharegpt", "mean_tpot_ms", "", "30.25"},
		{"random-32k", "total_token_throughput", "900.00 x 2", ""},
	}
	if len(a.Rows) != len(want) {
		t.Fatalf("%d rows, want %d: %+v", len(a.Rows), len(want), a.Rows)
	}
	expr := func(v *Value) string {
		if v == nil {
			return ""
		}
		return v.Expr()
	}
	for i, w := range want {
		row := a.Rows[i]
		if row.Workload != w.workload || row.Metric.Key != w.metric || expr(row.Values[0]) != w.tp4 || expr(row.Values[1]) != w.tp8 {
			t.Errorf("row %d = %s %s [%q %q], want %s %s [%q %q]", i, row.Workload, row.Metric.Key,
				expr(row.Values[0]), expr(row.Values[1]), w.workload, w.metric, w.tp4, w.tp8)
		}
	}
	// Each value keeps its source line.
	if v := a.Rows[1].Values[1]; v.Source.File != "runs/tp8/sharegpt.log" || v.Source.Line != 12 {
		t.Errorf("tp8 mean TTFT from %s:%d, want runs/tp8/sharegpt.log:12", v.Source.File, v.Source.Line)
	}
	// The change between two columns is the report's own: the headline's
	// change from TP8 to TP4 is the conclusion row's.
	ch := NewChange(a.Rows[0].Metric, *a.Rows[0].Values[1], *a.Rows[0].Values[0])
	if row := r.RowByWorkload("sharegpt"); FormatPercent(ch.Percent) != FormatPercent(row.Change.Percent) || ch.Better != row.Change.Better {
		t.Errorf("change %s, conclusion %s", FormatPercent(ch.Percent), FormatPercent(row.Change.Percent))
	}
	// Lower is better on latency, which is never projected.
	lat := NewChange(a.Rows[1].Metric, *a.Rows[1].Values[1], *a.Rows[1].Values[0])
	if !lat.Better || a.Rows[1].Values[0].Projected() {
		t.Errorf("TTFT 120.5 -> 100.0: better = %v, projected = %v", lat.Better, a.Rows[1].Values[0].Projected())
	}
}

func TestAllRunsNeedsTwoRuns(t *testing.T) {
	s := testStudy(study.Throughput, 8, testRun("tp8", "TP8", 8, "sharegpt", "3792.50"))
	s.Baseline = study.Config{Runs: []string{"tp8"}}
	s.Recommended = study.Config{Runs: []string{"tp8"}}
	if a := Build(s, nil).AllRuns(); a != nil {
		t.Errorf("one run: table %+v, want none", a)
	}
}
