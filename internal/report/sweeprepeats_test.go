package report

import (
	"fmt"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/study"
)

// sweepRepeat is repeat n of run a at concurrency 4 (chat.c4.run-<n>.log).
func sweepRepeat(n int, out, tpot string) study.Log {
	lg := sweepLog("a", "4", "output_throughput", out, "median_tpot_ms", tpot)
	lg.Repeat = n
	lg.File = fmt.Sprintf("runs/a/chat.c4.run-%d.log", n)
	lg.Blocks[0].File = lg.File
	return lg
}

// sweepRepeatStudy is sweepStudy with a@4 measured three times: 200, 260
// and 300 tok/s at 15, 16 and 17 ms, a mean of 253.33 tok/s at 16 ms. Its
// first repeat alone (200 at 15 ms) is beaten by b@4 (250 at 12 ms); the
// mean is not: it joins the frontier.
func sweepRepeatStudy(slo *study.SLO) *study.Study {
	s := sweepStudy(slo)
	a := s.Runs[0]
	a.Logs = []study.Log{a.Logs[0], sweepRepeat(1, "200.00", "15.00"), sweepRepeat(2, "260.00", "16.00"), sweepRepeat(3, "300.00", "17.00"), a.Logs[2]}
	return s
}

func TestSweepRepeatsAreMeans(t *testing.T) {
	sr := Build(sweepRepeatStudy(nil), nil).Sweeps[0]
	a4 := &sr.Curves[0].Points[1]
	if a4.Load.Expr() != "4" || len(a4.Repeats) != 3 || a4.LogFile != "runs/a/chat.c4.run-1.log" {
		t.Fatalf("a@4: load %s, %d repeats, file %s", a4.Load.Expr(), len(a4.Repeats), a4.LogFile)
	}
	// mean 253.33, s = 50.33, t(0.975, 2) = 4.303: ± 125.03; TPOT 16 ± 2.48.
	if !a4.Output.Repeated() || a4.Output.Repeats != 3 || a4.Output.Expr() != "253.33" || a4.Output.HalfWidthExpr() != "125.03" {
		t.Errorf("output %s ± %s (%d repeats)", a4.Output.Expr(), a4.Output.HalfWidthExpr(), a4.Output.Repeats)
	}
	if a4.TPOT == nil || a4.TPOT.Expr() != "16.00" || a4.TPOT.HalfWidthExpr() != "2.48" || a4.TPOT.Repeats != 3 {
		t.Errorf("TPOT %v", a4.TPOT)
	}
	if got := fmt.Sprintf("%.2f ± %.2f", a4.PerGPU(), a4.PerGPUHalfWidth()); got != "253.33 ± 125.03" {
		t.Errorf("per GPU %s", got)
	}
	// Each repeat's figure is traceable to its file and line.
	var samples []string
	for _, sm := range a4.Output.Samples {
		samples = append(samples, fmt.Sprintf("%s:%d=%g", sm.Source.File, sm.Source.Line, sm.Measured))
	}
	if want := "runs/a/chat.c4.run-1.log:2=200 runs/a/chat.c4.run-2.log:2=260 runs/a/chat.c4.run-3.log:2=300"; strings.Join(samples, " ") != want {
		t.Errorf("samples %v\nwant %s", samples, want)
	}
	// A load measured once has no interval: b@4, a@1.
	if b4 := sr.Curves[1].Points[1]; b4.Output.Repeated() || b4.Repeats != nil || sr.Curves[0].Points[0].Output.Repeated() {
		t.Error("a load measured once is shown as a mean")
	}
	var front []string
	for _, p := range sr.Frontier {
		front = append(front, pointName(p))
	}
	if strings.Join(front, " ") != "b@1 a@1 b@4 a@4 b@16" {
		t.Errorf("frontier %v, want b@1 a@1 b@4 a@4 b@16 (a@4 by its mean)", front)
	}
}

// The best point within the budget reads the means: a@4's first repeat
// keeps a 15.5 ms limit, its mean of 16 ms does not.
func TestSweepRepeatsBudget(t *testing.T) {
	cases := []struct {
		slo  study.SLO
		best string
	}{
		{study.SLO{Stat: "median", TPOT: 20}, "a@4"},   // 253.33/GPU beats b@4's 250; its first repeat (200) would not
		{study.SLO{Stat: "median", TPOT: 15.5}, "b@4"}, // a@4's mean TPOT, 16 ms, breaks it
	}
	for _, c := range cases {
		slo := c.slo
		sr := Build(sweepRepeatStudy(&slo), nil).Sweeps[0]
		if sr.Best == nil || pointName(sr.Best) != c.best {
			t.Errorf("TPOT ≤ %g: best %v, want %s", c.slo.TPOT, sr.Best, c.best)
		}
	}
}

// BenchmarkSweepRepeats is BenchmarkSweep with every load measured three
// times: 16 configurations x 64 loads x 3 repeats, with an SLO.
func BenchmarkSweepRepeats(b *testing.B) {
	var pts []study.SweepPoint
	for i := 1; i <= study.MaxSweepPoints; i++ {
		pts = append(pts, study.SweepPoint{Value: float64(i), Raw: fmt.Sprint(i)})
	}
	s := &study.Study{ID: "bench", Objective: study.Throughput, SLO: &study.SLO{Stat: "median", TPOT: 40},
		Hardware:  study.Hardware{GPUsPerNode: 8, Nodes: 1},
		Workloads: []study.Workload{{ID: "chat", Sweep: &study.Sweep{Key: study.SweepConcurrency, Points: pts}}}}
	for r := 0; r < 16; r++ {
		run := &study.Run{ID: fmt.Sprintf("r%02d", r), GPUs: 1 + r%4}
		for _, p := range pts {
			for k := 1; k <= 3; k++ {
				out := fmt.Sprintf("%.2f", p.Value*float64(100+r*7+k))
				tpot := fmt.Sprintf("%.2f", 5+p.Value*float64(1+r%5)/4+float64(k)/10)
				lg := sweepLog(run.ID, p.Raw, "output_throughput", out, "median_tpot_ms", tpot, "max_concurrency", p.Raw)
				lg.Repeat = k
				run.Logs = append(run.Logs, lg)
			}
		}
		s.Runs = append(s.Runs, run)
	}
	b.ReportAllocs()
	for b.Loop() {
		if rep := Build(s, nil); len(rep.Sweeps[0].Frontier) == 0 || !rep.Sweeps[0].Curves[0].Points[0].Output.Repeated() {
			b.Fatal("no frontier, or no means")
		}
	}
}
