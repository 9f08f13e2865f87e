package report

import (
	"testing"

	"github.com/perflab/perflab/internal/study"
)

// TestAllRunsSweepPerLoad: a swept workload gets a row per load, each
// run's value at that load; never one figure averaged over its loads.
func TestAllRunsSweepPerLoad(t *testing.T) {
	a := &study.Run{ID: "a", Name: "A", GPUs: 2, Logs: []study.Log{
		sweepLog("a", "1", "total_token_throughput", "100.00"),
		sweepLog("a", "16", "total_token_throughput", "900.00"),
	}}
	b := &study.Run{ID: "b", Name: "B", GPUs: 2, Logs: []study.Log{
		sweepLog("b", "16", "total_token_throughput", "1000.00"),
		sweepLog("b", "1", "total_token_throughput", "110.00"),
	}}
	sweep := &study.Sweep{Key: study.SweepConcurrency, Points: []study.SweepPoint{{Value: 1, Raw: "1"}, {Value: 16, Raw: "16"}}}
	s := &study.Study{ID: "sweep", Objective: study.Throughput, Hardware: study.Hardware{GPU: "GPU", GPUsPerNode: 2, Nodes: 1},
		Workloads: []study.Workload{{ID: "chat", Dataset: "sharegpt", Main: true, Sweep: sweep}}, Runs: []*study.Run{a, b}}
	table := Build(s, nil).AllRuns()
	if table == nil {
		t.Fatal("no table")
	}
	want := map[string][2]float64{"1": {100, 110}, "16": {900, 1000}}
	n := 0
	for _, row := range table.Rows {
		if row.Metric.Key != TotalThroughput.Key {
			continue
		}
		n++
		if row.Load == nil || row.LoadKey != study.SweepConcurrency {
			t.Fatalf("row without its load: %+v", row)
		}
		w, ok := want[row.Load.Raw]
		if !ok || row.Values[0] == nil || row.Values[1] == nil || row.Values[0].Measured != w[0] || row.Values[1].Measured != w[1] {
			t.Errorf("load %s: %v, %v; want %v", row.Load.Raw, row.Values[0], row.Values[1], w)
		}
	}
	if n != 2 {
		t.Errorf("%d throughput rows, want one per load (2)", n)
	}
}

// TestFrontierTies: of two identical points, both are marked on the
// frontier.
func TestFrontierTies(t *testing.T) {
	s := sweepStudy(nil)
	// b at 16 becomes identical to a at 16 per GPU: 1200 over 2 GPUs = 600 at 40 ms.
	s.Runs[1].Logs[2] = sweepLog("b", "16", "max_concurrency", "16", "output_throughput", "1200.00", "median_tpot_ms", "40.00")
	sr := Build(s, nil).Sweeps[0]
	var a16, b16 *SweepPoint
	for i := range sr.Curves {
		for j := range sr.Curves[i].Points {
			if p := &sr.Curves[i].Points[j]; p.Load.Measured == 16 {
				if p.Run.ID == "a" {
					a16 = p
				} else {
					b16 = p
				}
			}
		}
	}
	if a16 == nil || b16 == nil || !a16.Frontier || !b16.Frontier {
		t.Errorf("identical points a@16 %v and b@16 %v: both must be on the frontier", a16 != nil && a16.Frontier, b16 != nil && b16.Frontier)
	}
}
