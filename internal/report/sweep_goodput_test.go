package report

import (
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
			*g.Point.Attainment != (Attainment{want.good, want.total}) {
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
	if a := pointAttainment(slo, pb); a == nil || *a != (Attainment{17, 20}) {
		t.Errorf("attainment %+v, want 17 of 20", a)
	}
	pb.Repeats[1].Block = &benchlog.Block{}
	if a := pointAttainment(slo, pb); a != nil {
		t.Errorf("a repeat without arrays, yet attainment %+v", a)
	}
}
