package report

import (
	"testing"

	"github.com/perflab/perflab/internal/study"
)

// TestAnswer: the answer is the main workload's change, and its costs are
// the worse changes of the rows that trade something for it, as ranges:
// a throughput lost on one row, TTFT and TPOT longer beyond the threshold
// on rows where they are, a latency within the threshold left out.
func TestAnswer(t *testing.T) {
	base := testRun("base", "Base", 8, "sharegpt", "1000.00", "random-32k", "1000.00")
	opt := testRun("opt", "Opt", 8, "sharegpt", "1500.00", "random-32k", "900.00")
	// sharegpt: TTFT +20 %, TPOT +5 % (within the threshold: no cost);
	// random-32k: TTFT +80 %, TPOT +40 %.
	for _, m := range []struct {
		run                *study.Run
		workload, key, raw string
	}{
		{base, "sharegpt", "mean_ttft_ms", "100.00"}, {opt, "sharegpt", "mean_ttft_ms", "120.00"},
		{base, "sharegpt", "mean_tpot_ms", "10.00"}, {opt, "sharegpt", "mean_tpot_ms", "10.50"},
		{base, "random-32k", "mean_ttft_ms", "100.00"}, {opt, "random-32k", "mean_ttft_ms", "180.00"},
		{base, "random-32k", "mean_tpot_ms", "10.00"}, {opt, "random-32k", "mean_tpot_ms", "14.00"},
	} {
		setMetric(m.run, m.workload, m.key, m.raw, 20)
	}
	s := testStudy(study.Throughput, 8, base, opt)
	s.Baseline = study.Config{Runs: []string{"base"}}
	s.Recommended = study.Config{Runs: []string{"opt"}}
	a := Build(s, nil).Answer()
	if a == nil || a.Run != "Opt" || a.Workload != "sharegpt" || !near(a.Change.Percent, 50) {
		t.Fatalf("answer %+v, want Opt +50 %% on sharegpt", a)
	}
	if a.Rows != 2 || a.AllRows != 2 {
		t.Errorf("rows with a cost: %d of %d, want 2 of 2", a.Rows, a.AllRows)
	}
	want := []CostRange{
		{Metric: TotalThroughput.Key, Low: -10, High: -10, Rows: 1},
		{Metric: "mean_ttft_ms", Low: 20, High: 80, Rows: 2},
		{Metric: "mean_tpot_ms", Low: 40, High: 40, Rows: 1},
	}
	if len(a.Costs) != len(want) {
		t.Fatalf("costs %+v, want %+v", a.Costs, want)
	}
	for i, c := range a.Costs {
		w := want[i]
		if c.Metric != w.Metric || !near(c.Low, w.Low) || !near(c.High, w.High) || c.Rows != w.Rows {
			t.Errorf("cost %d: %+v, want %+v", i, c, w)
		}
	}
}

// TestAnswerCostsNothing: a recommendation better everywhere, its latency
// within the threshold, costs nothing; without a main row, no answer.
func TestAnswerCostsNothing(t *testing.T) {
	base := testRun("base", "Base", 8, "sharegpt", "1000.00")
	opt := testRun("opt", "Opt", 8, "sharegpt", "1100.00")
	setMetric(base, "sharegpt", "mean_ttft_ms", "100.00", 20)
	setMetric(opt, "sharegpt", "mean_ttft_ms", "110.00", 20) // exactly the threshold
	s := testStudy(study.Throughput, 8, base, opt)
	s.Baseline = study.Config{Runs: []string{"base"}}
	s.Recommended = study.Config{Runs: []string{"opt"}}
	if a := Build(s, nil).Answer(); a == nil || len(a.Costs) != 0 || a.Rows != 0 {
		t.Errorf("answer %+v, want no cost", a)
	}
	s.Recommended = study.Config{}
	if a := Build(s, nil).Answer(); a != nil {
		t.Errorf("no recommendation: answer %+v, want none", a)
	}
}
