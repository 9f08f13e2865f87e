package report

import (
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/study"
)

// TestCostPerMillionTotal: 2 USD per GPU-hour on 4 GPUs at 1000 total
// tok/s is 8 USD per 3.6 million tokens: 2.2222 per million in and out;
// without a total throughput, none.
func TestCostPerMillionTotal(t *testing.T) {
	run := testRun("a", "A", 4, "sharegpt", "1000.00")
	setMetric(run, "sharegpt", "output_throughput", "400.00", 11)
	s := testStudy(study.Throughput, 4, run)
	s.Price = &study.Price{PerGPUHour: 2, Currency: "USD"}
	c := Build(s, nil).Cost.Runs[0]
	if !near(c.PerMillionTotal, 8e6/3.6e6) || !near(c.PerMillion, 8e6/(400*3600)) {
		t.Errorf("per million: total %v, output %v", c.PerMillionTotal, c.PerMillion)
	}
	delete(run.Logs[0].Blocks[0].Metrics, TotalThroughput.Key)
	if c := Build(s, nil).Cost; len(c.Runs) > 0 && c.Runs[0].PerMillionTotal != 0 {
		t.Errorf("no total throughput, yet %v per million", c.Runs[0].PerMillionTotal)
	}
}

// TestPointCost: 2 USD per GPU-hour, 400 output tok/s on 4 GPUs is 100
// tok/s per GPU, 360000 tokens per GPU-hour: 5.5556 USD per million; 1000
// total tok/s, 2.2222 per million in and out; a point without throughput
// has no cost.
func TestPointCost(t *testing.T) {
	price := &study.Price{PerGPUHour: 2, Currency: "USD"}
	p := &SweepPoint{Output: Value{Measured: 400, GPUs: 4, Replicas: 1}}
	if got := pointCost(price, p); got == nil || !near(got.Output, 2e6/360000) || got.Total != 0 {
		t.Errorf("cost %+v, want %v output, no total", got, 2e6/360000)
	}
	p.Total = &Value{Measured: 1000, GPUs: 4, Replicas: 1}
	if got := pointCost(price, p); got == nil || !near(got.Total, 8e6/3.6e6) {
		t.Errorf("cost %+v, want %v per million in and out", got, 8e6/3.6e6)
	}
	p.Output.Measured = 0
	if got := pointCost(price, p); got != nil {
		t.Errorf("no throughput, yet a cost of %+v", *got)
	}
}

// TestBestPointCost: the best point within the budget is priced, output
// and total tokens: b@16, 1400 output and 2100 total tok/s on 2 GPUs at 3
// per GPU-hour; without a price, no cost.
func TestBestPointCost(t *testing.T) {
	s := sweepStudy(&study.SLO{Stat: "median", TPOT: 100})
	s.Runs[1].Logs[2].Blocks[0].Metrics[TotalThroughput.Key] = metric("2100.00", 9)
	if sr := Build(s, nil).Sweeps[0]; sr.BestCost != nil {
		t.Errorf("no price, yet a cost %+v", sr.BestCost)
	}
	s.Price = &study.Price{PerGPUHour: 3, Currency: "USD"}
	sr := Build(s, nil).Sweeps[0]
	if sr.Best == nil || pointName(sr.Best) != "b@16" {
		t.Fatalf("best %v, want b@16", sr.Best)
	}
	if c := sr.BestCost; c == nil || !near(c.Output, 6e6/(1400*3600)) || !near(c.Total, 6e6/(2100*3600)) {
		t.Errorf("best point's cost %+v, want %v output, %v total", c, 6e6/(1400*3600), 6e6/(2100*3600))
	}
}

// TestCostOrderTies: the cost order joins runs whose output per GPU the
// verdict cannot tell apart. b (512 tok/s on 8 GPUs, 3 repeats) is the
// cheapest; a (510, 3 repeats) is within noise of it; d (255 on 4 GPUs,
// one run) gives each GPU what a gives, so it ties too, though its total
// is half; c (405) costs measurably more and starts a group of its own.
func TestCostOrderTies(t *testing.T) {
	a := repeated("a", "1000.00", "1000.00", "1000.00")
	setRepeatMetric(a, "sharegpt", "output_throughput", "500.00", "510.00", "520.00")
	b := repeated("b", "1000.00", "1000.00", "1000.00")
	setRepeatMetric(b, "sharegpt", "output_throughput", "505.00", "512.00", "519.00")
	c := repeated("c", "1000.00", "1000.00", "1000.00")
	setRepeatMetric(c, "sharegpt", "output_throughput", "400.00", "405.00", "410.00")
	d := testRun("d", "D", 4, "sharegpt", "1000.00")
	setMetric(d, "sharegpt", "output_throughput", "255.00", 11)
	s := testStudy(study.Throughput, 8, a, b, c, d)
	s.Price = &study.Price{PerGPUHour: 2, Currency: "USD"}
	var got []string
	for _, cr := range Build(s, nil).Cost.Runs {
		got = append(got, cr.Run.ID+":"+cr.TiedWith)
	}
	if want := "b: a:b d:b c:"; strings.Join(got, " ") != want {
		t.Errorf("cost order %q, want %q", strings.Join(got, " "), want)
	}
}
