package report

import (
	"testing"

	"github.com/perflab/perflab/internal/study"
)

// TestMainFigure: the landing page's figure is the recommended
// configuration's throughput per GPU on the main workload, at the load its
// log prints; two studies match only on the same GPU, workload and load.
func TestMainFigure(t *testing.T) {
	build := func(load string) *Report {
		base := testRun("tp8", "TP8", 8, "sharegpt", "3792.50")
		opt := testRun("tp4", "TP4", 4, "sharegpt", "3019.19")
		setMetric(opt, "sharegpt", "max_concurrency", load, 3)
		s := testStudy(study.Throughput, 8, base, opt)
		s.Baseline = study.Config{Runs: []string{"tp8"}}
		s.Recommended = study.Config{Runs: []string{"tp4"}}
		return Build(s, nil)
	}
	m := build("64").MainFigure()
	if m == nil || !m.PerGPU || !near(m.Figure, 3019.19/4) || m.Run != "TP4" || m.LoadKey != "max_concurrency" || m.Load != "64" || m.Dataset != "sharegpt" {
		t.Fatalf("main figure %+v, want TP4's 3019.19 / 4 GPUs at concurrency 64 on sharegpt", m)
	}
	same, other := build("64").MainFigure(), build("32").MainFigure()
	if m.Matches("A100") != same.Matches("A100") {
		t.Error("the same workload and load on the same GPU do not match")
	}
	if m.Matches("A100") == other.Matches("A100") || m.Matches("A100") == same.Matches("H100") {
		t.Error("another load or another GPU matches")
	}
	lat := testStudy(study.Latency, 8, testRun("a", "A", 8, "sharegpt", "1"))
	if got := Build(lat, nil).MainFigure(); got != nil {
		t.Errorf("no recommended configuration: %+v, want none", got)
	}
}
