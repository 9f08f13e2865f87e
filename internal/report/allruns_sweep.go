package report

import (
	"sort"

	"github.com/perflab/perflab/internal/study"
)

// allRunsLoads are the rows' loads of a workload in the all-runs table:
// one nil (the workload's one figure) unless it is swept, then every load
// any of the runs measured, lowest first.
func allRunsLoads(w *study.Workload, points [][]study.PointBlock) []*study.SweepPoint {
	if w.Sweep == nil {
		return []*study.SweepPoint{nil}
	}
	seen := map[float64]bool{}
	var loads []*study.SweepPoint
	for _, pbs := range points {
		for _, pb := range pbs {
			if !seen[pb.Point.Value] {
				seen[pb.Point.Value] = true
				p := pb.Point
				loads = append(loads, &p)
			}
		}
	}
	sort.SliceStable(loads, func(i, j int) bool { return loads[i].Value < loads[j].Value })
	return loads
}

// allRunsValue is a run's value of a metric on a workload, at a load of a
// sweep (points are the run's) when load is set; latency is never projected.
func (r *Report) allRunsValue(run *study.Run, w *study.Workload, points []study.PointBlock, load *study.SweepPoint, m Metric) *Value {
	var v *Value
	if load == nil {
		v, _, _ = r.value(run, w.ID, m.Key)
	} else {
		for _, pb := range points {
			if pb.Point.Value == load.Value {
				v = PointValue(r.Study, run, w.ID, pb, m.Key)
				if v != nil && m.HigherBetter {
					v.Replicas = replicas(r.Study, run) // as the workload's own figure
				}
				break
			}
		}
	}
	if v != nil && !m.HigherBetter {
		v.Replicas = 1 // latency is per request: never projected
	}
	return v
}
