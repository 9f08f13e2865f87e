package check

import (
	"fmt"
	"strings"

	"github.com/perflab/perflab/internal/study"
)

// Rule ids of the rules on sweeps (docs/checks.md).
const (
	RuleSweepPoint   = "sweep-point"
	RuleSweepMissing = "sweep-missing"
)

// sweepRules checks each run's logs of its swept workloads: the load a
// block prints must be the point its file name gives, or, in a tool's log
// of every load, a point of the sweep (sweep-point); each point of the
// sweep should have a result (sweep-missing).
func sweepRules(s *study.Study, r *study.Run, add func(Diagnostic)) {
	if r.Failed() {
		return
	}
	for i := range s.Workloads {
		w := &s.Workloads[i]
		if w.Sweep == nil {
			continue
		}
		subject := r.ID + "/" + w.ID
		measured := false
		for j := range r.Logs {
			lg := &r.Logs[j]
			if lg.Workload != w.ID {
				continue
			}
			measured = true
			for k := range lg.Blocks {
				b := &lg.Blocks[k]
				m, ok := b.Metrics[w.Sweep.Key]
				if !ok || (k > 0 && lg.Point != nil) {
					continue // no load printed; a second block is the loader's problem
				}
				switch {
				case lg.Point != nil && !lg.Point.Matches(m.Value):
					add(Diagnostic{Rule: RuleSweepPoint, Severity: Error, File: b.File, Line: m.Line, Subject: subject,
						Printed: m.Raw, Computed: lg.Point.Raw,
						Message: fmt.Sprintf("the block prints %s %s, but its file name gives %s: rename the log after the load it measured, or move it to the run it belongs to", w.Sweep.Key, m.Raw, lg.Point.Raw)})
				case lg.Point == nil:
					if _, ok := w.Sweep.Point(m.Value); !ok {
						add(Diagnostic{Rule: RuleSweepPoint, Severity: Error, File: b.File, Line: m.Line, Subject: subject,
							Printed: m.Raw, Computed: pointList(w.Sweep),
							Message: fmt.Sprintf("the block prints %s %s, which is not a point of the sweep of workload %s (%s:%d lists %s): add the load there, written as the log prints it", w.Sweep.Key, m.Raw, w.ID, w.Sweep.Pos.File, w.Sweep.Pos.Line, pointList(w.Sweep))})
					}
				}
			}
		}
		if !measured {
			continue // a run need not measure every workload
		}
		have := map[float64]bool{}
		for _, pb := range r.SweepBlocks(w) {
			have[pb.Point.Value] = true
		}
		var missing []string
		for _, p := range w.Sweep.Points {
			if !have[p.Value] {
				missing = append(missing, p.Raw)
			}
		}
		if len(missing) > 0 {
			add(Diagnostic{Rule: RuleSweepMissing, Severity: Warning, File: w.Sweep.Pos.File, Line: w.Sweep.Pos.Line, Subject: subject,
				Printed: strings.Join(missing, ", "),
				Message: fmt.Sprintf("run %s has no result of workload %s at %s %s: its curve lacks these loads; add their logs (%s.%s<load>.log), or acknowledge it", r.ID, w.ID, w.Sweep.Key, strings.Join(missing, ", "), w.ID, w.Sweep.Prefix())})
		}
	}
}

// pointList writes a sweep's points as declared: "1, 4, 16".
func pointList(sw *study.Sweep) string {
	var pts []string
	for _, p := range sw.Points {
		pts = append(pts, p.Raw)
	}
	return strings.Join(pts, ", ")
}
