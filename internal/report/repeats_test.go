package report

import (
	"fmt"
	"math"
	"testing"

	"github.com/perflab/perflab/internal/benchlog"
	"github.com/perflab/perflab/internal/study"
)

// tCDF is Student's t distribution function at x > 0, by Simpson's rule
// on its density: an independent check of the quantile table.
func tCDF(x float64, df int) float64 {
	v := float64(df)
	lg1, _ := math.Lgamma((v + 1) / 2)
	lg2, _ := math.Lgamma(v / 2)
	c := math.Exp(lg1-lg2) / math.Sqrt(v*math.Pi)
	f := func(t float64) float64 { return c * math.Pow(1+t*t/v, -(v+1)/2) }
	const n = 20000
	h := x / n
	sum := f(0) + f(x)
	for i := 1; i < n; i++ {
		w := 2.0
		if i%2 == 1 {
			w = 4
		}
		sum += w * f(float64(i)*h)
	}
	return 0.5 + sum*h/3
}

func TestTQuantile975(t *testing.T) {
	for df := 1; df <= 120; df++ {
		if p := tCDF(TQuantile975(df), df); math.Abs(p-0.975) > 2e-6 {
			t.Errorf("df %d: P(T <= %.6f) = %.7f, want 0.975", df, TQuantile975(df), p)
		}
	}
	// Where the table ends, the expansion agrees with it.
	if d := math.Abs(TQuantile975(31) - 2.03951345); d > 1e-5 {
		t.Errorf("t(31) = %.8f, off by %g", TQuantile975(31), d)
	}
	if !math.IsNaN(TQuantile975(0)) {
		t.Errorf("t(0) = %v, want NaN", TQuantile975(0))
	}
}

func TestMeanInterval(t *testing.T) {
	for _, c := range []struct {
		xs         []float64
		mean, half float64
	}{
		// s = 10, n = 3: 4.30265273 x 10 / sqrt(3)
		{[]float64{1000, 1010, 990}, 1000, 24.8413771},
		// s = sqrt(2)/2 ... two values a, b: t(1) x |a-b| / 2
		{[]float64{100, 102}, 101, 12.7062047},
		{[]float64{5, 5, 5, 5}, 5, 0},
		{[]float64{7}, 7, 0},
	} {
		m, h := MeanInterval(c.xs)
		if math.Abs(m-c.mean) > 1e-9 || math.Abs(h-c.half) > 1e-6 {
			t.Errorf("MeanInterval(%v) = %v ± %v, want %v ± %v", c.xs, m, h, c.mean, c.half)
		}
	}
}

// addRepeats gives a run numbered logs of the headline metric on a
// workload, one per printed value, the metric on line 10 of each.
func addRepeats(r *study.Run, workload string, values ...string) {
	for i, raw := range values {
		file := fmt.Sprintf("runs/%s/%s.run-%d.log", r.ID, workload, i+1)
		b := benchlog.Block{File: file, Line: 1, EndLine: 22, Format: benchlog.FormatVLLM, Definition: benchlog.CountOverDuration,
			Metrics: map[string]benchlog.Metric{TotalThroughput.Key: metric(raw, 10)}}
		r.Logs = append(r.Logs, study.Log{Workload: workload, Repeat: i + 1, File: file, Blocks: []benchlog.Block{b}})
	}
}

func repeated(id string, values ...string) *study.Run {
	r := testRun(id, id, 8)
	addRepeats(r, "sharegpt", values...)
	return r
}

// TestRepeatsDecide: with repeats on both sides, a test decides (see
// verdict_test.go), not whether the intervals overlap; a single run
// against repeats is held against their prediction interval, and one run
// a side against the variation assumed for a throughput (2.5 %: a change
// must pass 1.96 x sqrt(2) x 2.5 = 6.93 %).
//
// a: 990, 1000, 1010 -> 1000 ± 24.84 = [975.16, 1024.84]
// b: 1040, 1050, 1060 -> 1050 ± 24.84 = [1025.16, 1074.84], apart from a
// c: 1020, 1030, 1040 -> 1030 ± 24.84 = [1005.16, 1054.84], overlaps a, but
// Welch's t = 3.67 on 4 df, p = 0.021: a change
// one run at 1030 against a: t = 30 / (10 x sqrt(4/3)) = 2.60 on 2 df,
// p = 0.12; at 1060, t = 5.20, p = 0.035
func TestRepeatsDecide(t *testing.T) {
	for _, c := range []struct {
		name    string
		base    *study.Run
		opt     *study.Run
		percent float64
		noise   bool
		better  bool
	}{
		{"intervals apart", repeated("a", "990", "1000", "1010"), repeated("b", "1040", "1050", "1060"), 5, false, true},
		{"intervals overlap, Welch p = 0.021", repeated("a", "990", "1000", "1010"), repeated("c", "1020", "1030", "1040"), 3, false, true},
		{"worse, apart", repeated("b", "1040", "1050", "1060"), repeated("a", "990", "1000", "1010"), (1000.0/1050 - 1) * 100, false, false},
		{"single outside the interval, inside the prediction interval", repeated("a", "990", "1000", "1010"), testRun("s", "s", 8, "sharegpt", "1030.00"), 3, true, true},
		{"single outside the prediction interval", repeated("a", "990", "1000", "1010"), testRun("s", "s", 8, "sharegpt", "1060.00"), 6, false, true},
		{"single inside the interval, outside the band", repeated("a", "990", "1000", "1010"), testRun("s", "s", 8, "sharegpt", "1020.00"), 2, true, true},
		{"single against a mean, inside the band", repeated("a", "990", "1000", "1010"), testRun("s", "s", 8, "sharegpt", "1005.00"), 0.5, true, true},
		{"single runs inside the band", testRun("s1", "s1", 8, "sharegpt", "1000.00"), testRun("s2", "s2", 8, "sharegpt", "1005.00"), 0.5, true, true},
		{"single runs past the band, under 6.93 %", testRun("s1", "s1", 8, "sharegpt", "1000.00"), testRun("s2", "s2", 8, "sharegpt", "1020.00"), 2, true, true},
		{"single runs past 6.93 %", testRun("s1", "s1", 8, "sharegpt", "1000.00"), testRun("s2", "s2", 8, "sharegpt", "1075.00"), 7.5, false, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := testStudy(study.Throughput, 8, c.base, c.opt)
			s.Baseline = study.Config{Runs: []string{c.base.ID}}
			s.Recommended = study.Config{Runs: []string{c.opt.ID}}
			s.Steps = []study.Step{{ID: "x", Runs: []string{c.opt.ID}, Reference: c.base.ID}}
			r := Build(s, nil)
			for _, ch := range []*Change{r.RowByWorkload("sharegpt").Change, r.StepByID("x").Change} {
				if ch == nil {
					t.Fatal("no change")
				}
				if math.Abs(ch.Percent-c.percent) > 1e-9 || ch.Noise != c.noise || ch.Better != c.better {
					t.Errorf("change = %+.4f %%, noise %v, better %v; want %+.4f %%, noise %v, better %v", ch.Percent, ch.Noise, ch.Better, c.percent, c.noise, c.better)
				}
			}
		})
	}
}

// TestRepeatsValue: the value of a repeated workload is the mean, with its
// interval and every repeat's file and line.
func TestRepeatsValue(t *testing.T) {
	a := repeated("a", "990.00", "1000.00", "1010.00")
	s := testStudy(study.Throughput, 8, a)
	v, b, file := Measure(s, a, "sharegpt", TotalThroughput.Key)
	if v == nil || b == nil {
		t.Fatal("no value")
	}
	if v.Measured != 1000 || v.Repeats != 3 || math.Abs(v.HalfWidth-24.8413771) > 1e-6 {
		t.Errorf("value = %v ± %v (%d repeats), want 1000 ± 24.84 (3)", v.Measured, v.HalfWidth, v.Repeats)
	}
	if v.Expr() != "1000.00" || v.HalfWidthExpr() != "24.84" {
		t.Errorf("shown as %s ± %s", v.Expr(), v.HalfWidthExpr())
	}
	if file != "runs/a/sharegpt.run-1.log" || v.Source.File != file || v.Source.Line != 10 {
		t.Errorf("source = %+v, file %s; want the first repeat's line 10", v.Source, file)
	}
	if len(v.Samples) != 3 {
		t.Fatalf("samples = %+v", v.Samples)
	}
	for i, sm := range v.Samples {
		if want := fmt.Sprintf("runs/a/sharegpt.run-%d.log", i+1); sm.Source.File != want || sm.Source.Line != 10 {
			t.Errorf("sample %d from %+v, want %s:10", i, sm.Source, want)
		}
	}
	// A single log: no repeats, no interval, no samples.
	one := testRun("one", "one", 8, "sharegpt", "1000.00")
	v, _, _ = Measure(testStudy(study.Throughput, 8, one), one, "sharegpt", TotalThroughput.Key)
	if v.Repeated() || v.HalfWidth != 0 || v.Samples != nil {
		t.Errorf("single value = %+v", v)
	}
	// Projected onto the node: the interval scales with the value.
	half := repeated("h", "990.00", "1000.00", "1010.00")
	half.GPUs = 4
	v, _, _ = Measure(testStudy(study.Throughput, 8, half), half, "sharegpt", TotalThroughput.Key)
	if lo, hi := v.Interval(); math.Abs(lo-(2000-2*24.8413771)) > 1e-6 || math.Abs(hi-(2000+2*24.8413771)) > 1e-6 {
		t.Errorf("projected interval = [%v, %v]", lo, hi)
	}
}

// setRepeatMetric puts a printed value of key into repeat n of a run's
// workload (the logs addRepeats made), on line 12.
func setRepeatMetric(r *study.Run, workload, key string, values ...string) {
	for i, raw := range values {
		for j := range r.Logs {
			if lg := &r.Logs[j]; lg.Workload == workload && lg.Repeat == i+1 {
				lg.Blocks[0].Metrics[key] = metric(raw, 12)
			}
		}
	}
}

// TestRepeatsBudgetAndCost: the latency budget and the cost per token read
// the means of the repeats too.
func TestRepeatsBudgetAndCost(t *testing.T) {
	a := repeated("a", "990.00", "1000.00", "1010.00")
	setRepeatMetric(a, "sharegpt", "output_throughput", "500.00", "510.00", "520.00")
	setRepeatMetric(a, "sharegpt", "p99_ttft_ms", "90.00", "100.00", "110.00")
	s := testStudy(study.Throughput, 8, a)
	a.GPUs = 8
	s.SLO = &study.SLO{Stat: "p99", TTFT: 100}
	s.Price = &study.Price{PerGPUHour: 2, Currency: "USD"}
	s.Baseline = study.Config{Runs: []string{"a"}}
	s.Recommended = study.Config{Runs: []string{"a"}}
	r := Build(s, nil)
	if r.Cost == nil || len(r.Cost.Runs) != 1 {
		t.Fatalf("cost = %+v", r.Cost)
	}
	out := r.Cost.Runs[0].Output
	if out.Measured != 510 || out.Repeats != 3 || out.Replicas != 1 {
		t.Errorf("cost reads %v (%d repeats, %d replicas), want the mean 510 of 3, unprojected", out.Measured, out.Repeats, out.Replicas)
	}
	// 510 tok/s x 3600 / 8 GPUs = 229500 tokens per GPU-hour
	if got := r.Cost.Runs[0].TokensPerGPUHour; got != 229500 {
		t.Errorf("tokens per GPU-hour = %v, want 229500", got)
	}
	if r.SLO == nil || len(r.SLO.Runs) != 1 {
		t.Fatalf("slo = %+v", r.SLO)
	}
	// The mean p99 TTFT is 100 ms: it keeps a 100 ms budget, though one
	// repeat (110 ms) does not.
	if sr := r.SLO.Runs[0]; !sr.Meets || sr.Values[0].Measured != 100 || sr.Values[0].Repeats != 3 {
		t.Errorf("slo run: meets %v, p99 TTFT %+v", sr.Meets, sr.Values[0])
	}
}

// BenchmarkBuildRepeats builds the report of ten runs that each repeated
// the main workload MaxRepeats (100) times.
func BenchmarkBuildRepeats(b *testing.B) {
	var runs []*study.Run
	var ids []string
	for i := 0; i < 10; i++ {
		values := make([]string, study.MaxRepeats)
		for j := range values {
			values[j] = fmt.Sprintf("%d.00", 1000+10*i+j%7)
		}
		id := fmt.Sprintf("r%d", i)
		runs = append(runs, repeated(id, values...))
		ids = append(ids, id)
	}
	s := testStudy(study.Throughput, 8, runs...)
	s.Baseline = study.Config{Runs: ids[:1]}
	s.Recommended = study.Config{Runs: ids[9:]}
	s.Steps = []study.Step{{ID: "x", Runs: ids[1:], Reference: ids[0]}}
	b.ReportAllocs()
	for b.Loop() {
		Build(s, nil)
	}
}
