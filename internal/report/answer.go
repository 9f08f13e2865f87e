package report

import (
	"cmp"
	"slices"
)

// TradeOffThreshold is how much longer (in percent) the recommended
// configuration may make mean TTFT or mean TPOT before it costs the reader
// something the report must say (check's trade-off rule).
const TradeOffThreshold = 10.0

// tradeOffLatencies are the latencies a recommendation may trade for its
// gain, in the order a page names them.
var tradeOffLatencies = []string{"mean_ttft_ms", "mean_tpot_ms"}

// RowCost is one way a conclusion row's recommended configuration is worse
// than its baseline: the headline worse, or a latency more than
// TradeOffThreshold longer. From and To are the values as logged, for a
// latency; Percent is (To/From - 1) x 100, unrounded.
type RowCost struct {
	Metric   string
	Percent  float64
	From, To string
}

// Costs lists what the recommended configuration costs on a row, the
// headline first, then the latencies in tradeOffLatencies' order.
func (row Row) Costs(headline Metric) []RowCost {
	if row.Change == nil || row.Baseline == nil || row.Optimized == nil {
		return nil
	}
	var costs []RowCost
	if !row.Change.Better && row.Change.Percent != 0 { // a tie costs nothing
		costs = append(costs, RowCost{Metric: headline.Key, Percent: row.Change.Percent})
	}
	for _, key := range tradeOffLatencies {
		a, okA := row.Baseline.Block.Metrics[key]
		b, okB := row.Optimized.Block.Metrics[key]
		if !okA || !okB || a.Value <= 0 {
			continue
		}
		// The margin keeps a change of exactly the threshold (100.00 ->
		// 110.00 gives 10.000000000000009) quiet.
		if p := (b.Value/a.Value - 1) * 100; p > TradeOffThreshold+1e-9 {
			costs = append(costs, RowCost{Metric: key, Percent: p, From: a.Raw, To: b.Raw})
		}
	}
	return costs
}

// Answer is what a reader takes in first: the recommended configuration's
// change on the main workload, and what it costs on the conclusion rows
// where it trades something for it.
type Answer struct {
	Run      string  // the recommended configuration's name
	Workload string  // the main workload's id
	Change   *Change // on the main workload
	// Costs holds, per metric the recommendation makes worse on some
	// row, the range of those changes: the headline first, then mean TTFT
	// and mean TPOT. Empty: it costs nothing beyond the threshold.
	Costs []CostRange
	// Rows is how many conclusion rows, of all the table's, cost something.
	Rows, AllRows int
}

// CostRange is the least and the most a metric is made worse, in percent
// (unrounded), over the rows where it is, and on how many rows.
type CostRange struct {
	Metric    string
	Low, High float64
	Rows      int
}

// Answer gives the headline answer of the report; nil without a change on
// the main workload.
func (r *Report) Answer() *Answer {
	if r.Main == nil || len(r.Recommended) == 0 {
		return nil
	}
	main := r.RowByWorkload(r.Main.ID)
	if main == nil || main.Change == nil || main.Optimized == nil {
		return nil
	}
	a := &Answer{Run: r.Recommended[0].Name, Workload: r.Main.ID, Change: main.Change, AllRows: len(r.Rows)}
	byMetric := map[string]int{} // metric -> its index in a.Costs
	for _, key := range append([]string{r.Headline.Key}, tradeOffLatencies...) {
		byMetric[key] = -1
	}
	for _, row := range r.Rows {
		costs := row.Costs(r.Headline)
		if len(costs) > 0 {
			a.Rows++
		}
		for _, c := range costs {
			if i := byMetric[c.Metric]; i >= 0 {
				cr := &a.Costs[i]
				cr.Low, cr.High, cr.Rows = min(cr.Low, c.Percent), max(cr.High, c.Percent), cr.Rows+1
				continue
			}
			byMetric[c.Metric] = len(a.Costs)
			a.Costs = append(a.Costs, CostRange{Metric: c.Metric, Low: c.Percent, High: c.Percent, Rows: 1})
		}
	}
	// The headline first, then the latencies in their order.
	rank := func(key string) int { return slices.Index(tradeOffLatencies, key) }
	slices.SortStableFunc(a.Costs, func(x, y CostRange) int { return cmp.Compare(rank(x.Metric), rank(y.Metric)) })
	return a
}
