package report

import (
	"github.com/perflab/perflab/internal/benchlog"
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

// With per-request arrays, the budget's own goodput counts the requests
// whose TTFT, TPOT and E2EL each keep the limits, over the duration.
func TestBudgetGoodput(t *testing.T) {
	run := testRun("json", "JSON", 1, "sharegpt", "1200.00")
	setMetric(run, "sharegpt", "duration", "2.00", 3)
	// TPOT = (E2EL - TTFT) / (out - 1): 10, 40, 10 and 0 (one token) ms.
	run.Logs[0].Blocks[0].Requests = &benchlog.RequestData{Count: 5, Failed: 1,
		TTFT:       []float64{50, 60, 150, 90},
		E2EL:       []float64{140, 420, 240, 90},
		OutputLens: []int{10, 10, 10, 1},
	}
	s := testStudy(study.Throughput, 1, run)
	s.SLO = &study.SLO{Stat: "p99", TTFT: 100, TPOT: 20}
	r := Build(s, nil)
	if r.SLO == nil || !r.SLO.BudgetGoodput {
		t.Fatalf("slo = %+v", r.SLO)
	}
	// Good: the first (50 ms, 10 ms) and the last (90 ms, one token); the
	// second misses the TPOT limit, the third the TTFT limit.
	g := r.SLO.Runs[0].BudgetGoodput
	if g == nil || g.Good != 2 || g.Total != 4 || g.Value.Measured != 1 || g.Value.Source.Line != 3 {
		t.Fatalf("goodput = %+v, want 2 of 4 requests over 2.00 s = 1.00 req/s, from the duration's line 3", g)
	}

	run.Logs[0].Blocks[0].Requests.E2EL = nil // no latencies: no TPOT, no goodput
	if r := Build(s, nil); r.SLO.BudgetGoodput || r.SLO.Runs[0].BudgetGoodput != nil {
		t.Error("a goodput without per-request latencies")
	}
}

// With repeats, the budget's goodput is the mean over every repeat, with
// its interval, not the first repeat's.
func TestBudgetGoodputOverRepeats(t *testing.T) {
	run := repeated("json", "1000.00", "1010.00", "990.00")
	good := [][]float64{{50, 60, 70, 80}, {50, 60, 150, 150}, {50, 150, 150, 150}} // TTFTs: 4, 2 and 1 keep 100 ms
	for i := range run.Logs {
		b := &run.Logs[i].Blocks[0]
		b.Metrics["duration"] = metric("2.00", 3)
		b.Requests = &benchlog.RequestData{Count: 4, TTFT: good[i], E2EL: []float64{200, 200, 200, 200}, OutputLens: []int{1, 1, 1, 1}}
	}
	s := testStudy(study.Throughput, 8, run)
	s.SLO = &study.SLO{Stat: "p99", TTFT: 100}
	g := Build(s, nil).SLO.Runs[0].BudgetGoodput
	// 2, 1 and 0.5 req/s: mean 7/6, over 12 requests of which 7 are good.
	if g == nil || g.Value.Repeats != 3 || !near(g.Value.Measured, 7.0/6) || g.Good != 7 || g.Total != 12 || g.Value.HalfWidth <= 0 {
		t.Fatalf("goodput = %+v, want the mean of 2, 1 and 0.5 req/s over 3 repeats", g)
	}
}
