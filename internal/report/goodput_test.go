package report

import (
	"testing"

	"github.com/perflab/perflab/internal/study"
)

// The latency budget shows the goodput a log prints, and says whether any
// log prints one.
func TestSLOGoodput(t *testing.T) {
	with := testRun("fast", "Fast", 1, "sharegpt", "1200.00")
	setMetric(with, "sharegpt", "p99_ttft_ms", "90.00", 14)
	setMetric(with, "sharegpt", "request_goodput", "7.25", 8)
	without := testRun("slow", "Slow", 1, "sharegpt", "1000.00")
	setMetric(without, "sharegpt", "p99_ttft_ms", "120.00", 14)
	s := testStudy(study.Throughput, 1, with, without)
	s.SLO = &study.SLO{Stat: "p99", TTFT: 100}
	r := Build(s, nil)
	if r.SLO == nil || !r.SLO.Goodput || len(r.SLO.Runs) != 2 {
		t.Fatalf("slo = %+v", r.SLO)
	}
	fast, slow := r.SLO.Runs[0], r.SLO.Runs[1]
	if g := fast.Goodput; g == nil || g.Measured != 7.25 || g.Source.Line != 8 || g.Source.File == "" {
		t.Errorf("goodput of fast = %+v, want 7.25 from its log line 8", g)
	}
	if slow.Goodput != nil || slow.Meets || !fast.Meets {
		t.Errorf("slow: goodput %+v, meets %v; fast meets %v", slow.Goodput, slow.Meets, fast.Meets)
	}

	s.Runs = []*study.Run{without}
	if r := Build(s, nil); r.SLO.Goodput {
		t.Error("no log prints a goodput, yet the budget has a goodput column")
	}
}
