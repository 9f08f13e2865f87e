package report

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
}

// RunColumn is one run of the all-runs table.
type RunColumn struct {
	ID, Name string
}

// AllRunsRow is one metric of one workload: a value per column, nil where
// the run has no log for the workload or its log does not print the metric.
type AllRunsRow struct {
	Workload string
	Metric   Metric
	Values   []*Value
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

// AllRuns computes the all-runs table. A run that failed, was excluded from
// comparisons or has no value at all is left out; a row no column has a
// value in is left out. It is nil with fewer than two runs to compare.
func (r *Report) AllRuns() *AllRuns {
	metrics := append([]Metric{r.Headline}, comparedLatencies...)
	type column struct {
		run    RunColumn
		values []*Value // by workload, then metric
	}
	var cols []column
	for _, run := range r.Study.Runs {
		if run.Failed() || r.Excluded[run.ID] != "" {
			continue
		}
		col := column{run: RunColumn{ID: run.ID, Name: run.Name}, values: make([]*Value, 0, len(r.Study.Workloads)*len(metrics))}
		has := false
		for _, w := range r.Study.Workloads {
			for _, m := range metrics {
				v, _, _ := r.value(run, w.ID, m.Key)
				if v != nil && !m.HigherBetter {
					v.Replicas = 1 // latency is per request: never projected
				}
				has = has || v != nil
				col.values = append(col.values, v)
			}
		}
		if has {
			cols = append(cols, col)
		}
	}
	if len(cols) < 2 {
		return nil
	}
	t := &AllRuns{First: -1, Second: -1}
	for i, c := range cols {
		t.Runs = append(t.Runs, c.run)
		if len(r.Baseline) > 0 && c.run.ID == r.Baseline[0].ID {
			t.First = i
		}
		if len(r.Recommended) > 0 && c.run.ID == r.Recommended[0].ID {
			t.Second = i
		}
	}
	if t.First < 0 || t.Second < 0 || t.First == t.Second {
		t.First, t.Second = 0, 1
	}
	k := 0
	for _, w := range r.Study.Workloads {
		for _, m := range metrics {
			row := AllRunsRow{Workload: w.ID, Metric: m, Values: make([]*Value, len(cols))}
			has := false
			for i := range cols {
				row.Values[i] = cols[i].values[k]
				has = has || row.Values[i] != nil
			}
			if has {
				t.Rows = append(t.Rows, row)
			}
			k++
		}
	}
	return t
}
