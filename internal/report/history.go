package report

import "github.com/perflab/perflab/internal/study"

// HistoryResult is one run's headline metric over the engine versions it
// was measured on: its history folders, then its own logs.
type HistoryResult struct {
	Run    *study.Run
	Engine *study.Engine
	// Trends are the workloads with a result on at least two versions, the
	// main workload first, then in the study's order.
	Trends []Trend
	// Tails are the main workload's P99 TTFT and P99 TPOT over the same
	// versions, judged by the same rules: a regression in the tail that
	// the headline hides.
	Tails []Trend
}

// Trend is one metric of one workload of a run over versions.
type Trend struct {
	Workload study.Workload
	Metric   Metric
	Points   []VersionPoint // oldest version first; the run's own logs last
}

// VersionPoint is a run's result on one engine version.
type VersionPoint struct {
	Version string // as the history folder or study.yaml writes it
	Current bool   // the run's own logs, on the version study.yaml gives
	Value   *Value // nil: no result for the workload on this version
	// Change is against the previous version with a result; nil for the
	// first.
	Change *Change
	// Drift is against the earliest result within HistoryWindow versions
	// before, when that is not the previous one: a slow decline that no
	// single step shows.
	Drift     *Change
	DriftFrom string // the version Drift is against
	// Regression: Change (Rule RegressionStep) or, failing that, Drift (Rule
	// RegressionDrift) is measurably worse.
	Regression bool
	Rule       string
}

// HistoryWindow is how many earlier results a version is compared with at
// most: the one before it, and the earliest of the window for drift.
const HistoryWindow = 3

// The rules that make a version a regression.
const (
	RegressionStep  = "step"  // worse than the version before
	RegressionDrift = "drift" // worse than the earliest of the window
)

// Regressions returns the points of a trend that are regressions.
func (t *Trend) Regressions() []*VersionPoint {
	var out []*VersionPoint
	for i := range t.Points {
		if t.Points[i].Regression {
			out = append(out, &t.Points[i])
		}
	}
	return out
}

// history computes the trends of every run with a history, in run order.
func (r *Report) history() []HistoryResult {
	var out []HistoryResult
	for _, run := range r.Study.Runs {
		if len(run.History) == 0 {
			continue
		}
		hr := HistoryResult{Run: run, Engine: r.Study.Engine(run.Engine)}
		current := ""
		if hr.Engine != nil {
			current = hr.Engine.Version
		}
		var order []study.Workload
		if r.Main != nil {
			order = append(order, *r.Main)
		}
		for _, w := range r.Study.Workloads {
			if r.Main == nil || w.ID != r.Main.ID {
				order = append(order, w)
			}
		}
		for _, w := range order {
			if t, ok := r.trend(run, w, r.Headline, current); ok {
				hr.Trends = append(hr.Trends, t)
			}
		}
		if len(hr.Trends) > 0 {
			hr.Tails = r.tails(run, current)
			out = append(out, hr)
		}
	}
	return out
}

// HistorySubject names one version of a run's history in the runs
// excluded from comparisons: <run>@<version>.
func HistorySubject(run, version string) string { return run + "@" + version }

// logValue is a metric of a workload in the logs of a run's version, as
// a cell of the conclusion gives it.
func (r *Report) logValue(run *study.Run, logs []study.Log, workload string, m Metric) *Value {
	version := *run
	version.Logs = logs
	v, _, _ := r.value(&version, workload, m.Key)
	if v != nil && !m.HigherBetter {
		v.Replicas = 1 // latency is per request: never projected
	}
	return v
}

// judgeTrend compares each version of a trend with the one before and,
// for drift, with the earliest result within HistoryWindow before it.
func (r *Report) judgeTrend(t *Trend) {
	var prevs []*Value
	var versions []string
	for i := range t.Points {
		p := &t.Points[i]
		if p.Value == nil {
			continue
		}
		if n := len(prevs); n > 0 {
			p.Change = r.compare(t.Metric, *prevs[n-1], *p.Value)
			if n > 1 {
				k := max(0, n-HistoryWindow)
				p.Drift, p.DriftFrom = r.compare(t.Metric, *prevs[k], *p.Value), versions[k]
			}
			switch {
			case !p.Change.Better && !p.Change.Noise:
				p.Regression, p.Rule = true, RegressionStep
			case p.Drift != nil && !p.Drift.Better && !p.Drift.Noise:
				p.Regression, p.Rule = true, RegressionDrift
			}
		}
		prevs, versions = append(prevs, p.Value), append(versions, p.Version)
	}
}
