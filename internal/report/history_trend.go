package report

import "github.com/perflab/perflab/internal/study"

// P99TPOT is the tail of the time per output token.
var P99TPOT = Metric{Key: "p99_tpot_ms", Unit: "ms"}

// trend is a metric of a run's workload over its history's versions, then
// its own logs on current, judged; ok when at least two versions have a
// result to compare.
func (r *Report) trend(run *study.Run, w study.Workload, m Metric, current string) (Trend, bool) {
	t := Trend{Workload: w, Metric: m}
	results := 0
	add := func(version string, isCurrent bool, logs []study.Log) {
		p := VersionPoint{Version: version, Current: isCurrent}
		if !run.Failed() || !isCurrent {
			p.Value = r.logValue(run, logs, w.ID, m)
		}
		if p.Value != nil {
			results++
		}
		t.Points = append(t.Points, p)
	}
	for i := range run.History {
		h := &run.History[i]
		logs := h.Logs
		if r.Excluded[HistorySubject(run.ID, h.Version.Raw)] != "" {
			logs = nil // measured on another model: shown without a result
		}
		add(h.Version.Raw, false, logs)
	}
	add(current, true, run.Logs)
	if results < 2 {
		return Trend{}, false // nothing to compare
	}
	r.judgeTrend(&t)
	return t, true
}

// tails are the main workload's P99 TTFT and TPOT trends of a run, those
// with two results or more.
func (r *Report) tails(run *study.Run, current string) []Trend {
	if r.Main == nil {
		return nil
	}
	var out []Trend
	for _, m := range []Metric{P99TTFT, P99TPOT} {
		if m.Key == r.Headline.Key {
			continue
		}
		if t, ok := r.trend(run, *r.Main, m, current); ok {
			out = append(out, t)
		}
	}
	return out
}
