package report

import (
	"sync"

	"github.com/perflab/perflab/internal/study"
)

// AllRuns is every comparable run of a study against every workload: the
// headline and the key latency metrics of each, so that a reader can put
// any two runs side by side.
type AllRuns struct {
	Runs []RunColumn // comparable runs with at least one value, in the study's order
	Rows []AllRunsRow
	// First and Second are the columns shown side by side at first: the
	// baseline's and the recommended configuration's first runs when both
	// are columns, else the first two columns.
	First, Second int
	// Judged: every pair of columns was judged for likeness (see
	// maxPairRows), so that a page may offer to compare any two.
	Judged bool
}

// RunColumn is one run of the all-runs table.
type RunColumn struct {
	ID, Name string
}

// AllRunsRow is one metric of one workload: a value per column, nil where
// the run has no log for the workload or its log does not print the metric.
type AllRunsRow struct {
	Workload string
	// Load is the point of a swept workload the row is measured at, nil
	// for a workload measured at one load: a sweep is compared load by
	// load, never averaged over its loads.
	Load    *study.SweepPoint
	LoadKey string // the sweep's load metric (study.Sweep.Key) when Load is set
	Metric  Metric
	Values  []*Value
}

// comparedLatencies are the latency metrics shown beside the headline,
// lower better, as the logs print them: a request's first token, the tail
// of it, and its pace. (The mean request latency, which a log may lack and
// the report then works out, is shown only as a latency study's headline.)
var comparedLatencies = []Metric{
	{Key: "mean_ttft_ms", Unit: "ms"},
	{Key: "p99_ttft_ms", Unit: "ms"},
	MeanTPOT,
}

// AllRuns is the all-runs table. A run that failed, was excluded from
// comparisons or has no value at all is left out; a row no column has a
// value in is left out. It is nil with fewer than two runs to compare.
// It is made once, with its pairs' likeness, on first use (the page of
// each language shows it): callers must not change it.
func (r *Report) AllRuns() *AllRuns {
	r.allRuns.once.Do(func() {
		t := r.allRunsTable()
		if t != nil && t.pairRows() <= maxPairRows {
			t.Judged = true
			r.allRuns.likenesses = r.pairLikenesses(t)
		}
		r.allRuns.table = t
	})
	return r.allRuns.table
}

// maxPairRows bounds the work of judging every pair of the all-runs
// table's columns, pairs times rows: a pull request sets the number of
// runs, and the judgement runs within a page's time budget
// (docs/security.md). A real study is far below it (30 runs on 100 rows:
// 43,500). A variable for the tests only.
var maxPairRows int64 = 4_000_000

// pairRows is the number of pairs of columns times the number of rows.
func (t *AllRuns) pairRows() int64 {
	n := int64(len(t.Runs))
	return n * (n - 1) / 2 * int64(len(t.Rows))
}

// allRunsMemo holds what AllRuns made.
type allRunsMemo struct {
	once       sync.Once
	table      *AllRuns
	likenesses []PairLikeness
}

func (r *Report) allRunsTable() *AllRuns {
	metrics := append([]Metric{r.Headline}, comparedLatencies...)
	var runs []*study.Run
	var rows []AllRunsRow // every row, a value per run in runs
	for _, run := range r.Study.Runs {
		if !run.Failed() && r.Excluded[run.ID] == "" {
			runs = append(runs, run)
		}
	}
	for i := range r.Study.Workloads {
		w := &r.Study.Workloads[i]
		points := make([][]study.PointBlock, len(runs)) // by run, when swept
		for j, run := range runs {
			points[j] = run.SweepBlocks(w)
		}
		for _, load := range allRunsLoads(w, points) {
			for _, m := range metrics {
				row := AllRunsRow{Workload: w.ID, Load: load, Metric: m, Values: make([]*Value, len(runs))}
				if w.Sweep != nil {
					row.LoadKey = w.Sweep.Key
				}
				for j, run := range runs {
					row.Values[j] = r.allRunsValue(run, w, points[j], load, m)
				}
				rows = append(rows, row)
			}
		}
	}
	// Columns: runs with a value; rows: those with a value in a column.
	var keep []int
	for j := range runs {
		for _, row := range rows {
			if row.Values[j] != nil {
				keep = append(keep, j)
				break
			}
		}
	}
	if len(keep) < 2 {
		return nil
	}
	t := &AllRuns{First: -1, Second: -1}
	for i, j := range keep {
		run := runs[j]
		t.Runs = append(t.Runs, RunColumn{ID: run.ID, Name: run.Name})
		if len(r.Baseline) > 0 && run.ID == r.Baseline[0].ID {
			t.First = i
		}
		if len(r.Recommended) > 0 && run.ID == r.Recommended[0].ID {
			t.Second = i
		}
	}
	if t.First < 0 || t.Second < 0 || t.First == t.Second {
		t.First, t.Second = 0, 1
	}
	for _, row := range rows {
		kept := row
		kept.Values = make([]*Value, len(keep))
		has := false
		for i, j := range keep {
			kept.Values[i] = row.Values[j]
			has = has || kept.Values[i] != nil
		}
		if has {
			t.Rows = append(t.Rows, kept)
		}
	}
	return t
}
