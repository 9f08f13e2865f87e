package report

import (
	"math"
	"testing"

	"github.com/perflab/perflab/internal/benchlog"
	"github.com/perflab/perflab/internal/study"
)

// keptRequests is the per-request data of total one-token requests, good
// of them with a TTFT of 50 ms, the others 500 ms.
func keptRequests(good, total int) *benchlog.RequestData {
	rd := &benchlog.RequestData{Count: total}
	for i := range total {
		ttft := 500.0
		if i < good {
			ttft = 50
		}
		rd.TTFT, rd.E2EL, rd.OutputLens = append(rd.TTFT, ttft), append(rd.E2EL, ttft), append(rd.OutputLens, 1)
	}
	return rd
}

// Goodput over a sweep is the highest load per GPU at which 90 % of the
// requests or more keep every limit: a (1 GPU) keeps it up to concurrency
// 4 (9 of 10); b (2 GPUs) misses it at 4 but keeps it again at 16, the
// highest load that does, as DistServe reads it.
func TestSweepGoodput(t *testing.T) {
	s := sweepStudy(&study.SLO{Stat: "p99", TTFT: 100})
	kept := map[string][][2]int{"a": {{10, 10}, {9, 10}, {5, 10}}, "b": {{10, 10}, {8, 10}, {19, 20}}}
	for _, run := range s.Runs[:2] {
		for i := range run.Logs {
			run.Logs[i].Blocks[0].Requests = keptRequests(kept[run.ID][i][0], kept[run.ID][i][1])
		}
	}
	rep := Build(s, nil)
	sr := rep.Sweeps[0]
	if ag := rep.Analysis().Sweeps[0].Goodput; len(ag) != 2 || ag[1].Run != "b" || *ag[1].Load != 16 || *ag[1].LoadPerGPU != 8 ||
		*ag[1].Attainment != 0.95 || ag[1].LoadKey != study.SweepConcurrency || ag[1].Target != 0.9 {
		t.Errorf("analysis goodput %+v", ag)
	}
	for i, want := range []struct {
		load, perGPU float64
		good, total  int
	}{{4, 4, 9, 10}, {16, 8, 19, 20}} {
		g := sr.Curves[i].Goodput
		if g == nil || g.Point == nil || g.Point.Load.Measured != want.load || g.PerGPU != want.perGPU ||
			g.Point.Attainment.Good != want.good || g.Point.Attainment.Total != want.total {
			t.Errorf("%s: goodput %+v, want load %v (%v per GPU), %d of %d requests", sr.Curves[i].Run.ID, g, want.load, want.perGPU, want.good, want.total)
		}
	}

	s.Runs[0].Logs[2].Blocks[0].Requests = keptRequests(1, 10)
	s.Runs[0].Logs[1].Blocks[0].Requests = keptRequests(8, 10)
	s.Runs[0].Logs[0].Blocks[0].Requests = keptRequests(8, 10)
	if g := Build(s, nil).Sweeps[0].Curves[0].Goodput; g == nil || g.Point != nil {
		t.Errorf("no load keeps 90 %%, yet goodput %+v", g)
	}

	s.Runs[0].Logs[1].Blocks[0].Requests = nil // one load without arrays: nothing said
	if g := Build(s, nil).Sweeps[0].Curves[0].Goodput; g != nil {
		t.Errorf("a load without per-request arrays, yet goodput %+v", g)
	}
	s.SLO = nil
	if g := Build(s, nil).Sweeps[0].Curves[1].Goodput; g != nil {
		t.Errorf("no budget, yet goodput %+v", g)
	}
}

// A load measured several times counts the requests of every repeat, and
// none when one repeat lacks its arrays.
func TestPointAttainmentOverRepeats(t *testing.T) {
	slo := &study.SLO{TTFT: 100}
	b1, b2 := &benchlog.Block{Requests: keptRequests(10, 10)}, &benchlog.Block{Requests: keptRequests(7, 10)}
	pb := study.PointBlock{Block: b1, Repeats: []study.LogBlock{{Block: b1}, {Block: b2}}}
	if a := pointAttainment(slo, pb); a == nil || *a != (Attainment{Good: 17, Total: 20, Low: 0.7, High: 1}) {
		t.Errorf("attainment %+v, want 17 of 20, repeats from 70 to 100 %%", a)
	}
	pb.Repeats[1].Block = &benchlog.Block{}
	if a := pointAttainment(slo, pb); a != nil {
		t.Errorf("a repeat without arrays, yet attainment %+v", a)
	}
}

// The attainment's interval is Wilson's (19 of 20: 76.4 to 99.1 %); a
// load is borderline when the interval holds the target or its repeats
// fall on both sides of it.
func TestAttainmentIntervalAndBorderline(t *testing.T) {
	lo, hi := Attainment{Good: 19, Total: 20}.Interval()
	if math.Abs(lo-0.7639) > 1e-4 || math.Abs(hi-0.9911) > 1e-4 {
		t.Errorf("19 of 20: interval %.4f-%.4f, want 0.7639-0.9911", lo, hi)
	}
	if lo, hi := (Attainment{Good: 20, Total: 20}).Interval(); hi != 1 || lo <= 0.8 || lo >= 0.9 {
		t.Errorf("20 of 20: interval %.4f-%.4f", lo, hi)
	}
	for _, c := range []struct {
		a    Attainment
		want bool
	}{
		{Attainment{Good: 19, Total: 20, Low: 0.95, High: 0.95}, true},     // the interval holds 90 %
		{Attainment{Good: 950, Total: 1000, Low: 0.95, High: 0.95}, false}, // 93.5-96.3 %
		{Attainment{Good: 500, Total: 1000, Low: 0.5, High: 0.5}, false},
		{Attainment{Good: 1900, Total: 2000, Low: 0.85, High: 0.99}, true}, // a repeat below 90 %
	} {
		if got := c.a.Borderline(GoodputTarget); got != c.want {
			t.Errorf("%+v: borderline %v, want %v", c.a, got, c.want)
		}
	}
}

// A goodput is borderline when its load, or a higher one that fell short,
// could go the other way; clear counts on both sides make it firm.
func TestSweepGoodputBorderline(t *testing.T) {
	s := sweepStudy(&study.SLO{Stat: "p99", TTFT: 100})
	run := s.Runs[0]
	set := func(counts ...[2]int) *SweepGoodput {
		for i := range run.Logs {
			run.Logs[i].Blocks[0].Requests = keptRequests(counts[i][0], counts[i][1])
		}
		return Build(s, nil).Sweeps[0].Curves[0].Goodput
	}
	if g := set([2]int{1000, 1000}, [2]int{990, 1000}, [2]int{500, 1000}); g == nil || g.Point == nil || g.Point.Load.Measured != 4 || g.Borderline {
		t.Errorf("firm goodput at 4: %+v", g)
	}
	if g := set([2]int{1000, 1000}, [2]int{990, 1000}, [2]int{89, 100}); g == nil || g.Point.Load.Measured != 4 || !g.Borderline {
		t.Errorf("the next load misses by one request in 100, yet %+v", g)
	}
	if g := set([2]int{1000, 1000}, [2]int{19, 20}, [2]int{0, 20}); g == nil || g.Point.Load.Measured != 4 || !g.Borderline {
		t.Errorf("19 of 20 at the goodput's load, yet %+v", g)
	}
	if pts := Build(s, nil).Analysis().Sweeps[0].Points; len(pts) == 0 || len(pts[0].AttainmentInterval) != 2 || pts[0].AttainmentInterval[1] != 1 {
		t.Errorf("analysis points %+v: each with its attainment's interval", pts)
	}
	if ag := Build(s, nil).Analysis().Sweeps[0].Goodput[0]; !ag.Borderline || len(ag.AttainmentInterval) != 2 || math.Abs(ag.AttainmentInterval[0]-0.7639) > 1e-4 {
		t.Errorf("analysis goodput %+v", ag)
	}
}
