package report

import (
	"sort"

	"github.com/perflab/perflab/internal/benchlog"

	"github.com/perflab/perflab/internal/study"
)

// SLORun is one run's latencies against the study's SLO, on the main
// workload.
type SLORun struct {
	RunResult
	Values []*Value // one per limit of the SLO; nil where the log prints none
	Meets  bool     // every limit kept, every value printed
	// Borderline: some limit is inside the interval of its value, or
	// crossed by one of its repeats (see Borderline).
	Borderline bool
	// Goodput is the requests per second that met the benchmark's own
	// SLO flags (vllm bench serve --goodput), when the log prints it.
	Goodput *Value
	// BudgetGoodput is the goodput at the study's budget, worked out from
	// the per-request arrays of a saved JSON result; nil without them.
	BudgetGoodput *BudgetGoodput
}

// BudgetGoodput is how many requests kept every limit of a budget, each
// on its own, and what that makes per second of the benchmark.
type BudgetGoodput struct {
	Value       Value // requests per second, sourced to the duration's line
	Good, Total int   // requests that kept every limit; requests that completed
}

// SLOResult ranks the runs that have a result on the main workload, best
// headline first, and names the best one that keeps the SLO.
type SLOResult struct {
	SLO    *study.SLO
	Limits []study.SLOLimit
	Runs   []SLORun
	Best   *SLORun // nil when no run keeps it
	// Tied are the other runs within the budget that cannot be told from
	// Best on the headline.
	Tied []*SLORun
	// Goodput: some run's log prints its goodput.
	Goodput bool
	// BudgetGoodput: some run's per-request arrays give one.
	BudgetGoodput bool
}

// slo judges every comparable run against the study's SLO.
func (r *Report) slo() *SLOResult {
	s := r.Study
	if s.SLO == nil || r.Main == nil {
		return nil
	}
	res := &SLOResult{SLO: s.SLO, Limits: s.SLO.Limits()}
	for _, run := range s.Runs {
		rr := r.runResult(run)
		if !rr.Comparable() {
			continue
		}
		sr := SLORun{RunResult: rr, Meets: true}
		for _, l := range res.Limits {
			v := r.mainValue(run, l.Key)
			sr.Values = append(sr.Values, v)
			sr.Meets = sr.Meets && v != nil && v.Measured <= l.Limit
			sr.Borderline = sr.Borderline || Borderline(v, l.Limit)
		}
		if sr.Goodput = r.mainValue(run, "request_goodput"); sr.Goodput != nil {
			res.Goodput = true
		}
		if sr.BudgetGoodput = budgetGoodput(s, rr); sr.BudgetGoodput != nil {
			res.BudgetGoodput = true
		}
		res.Runs = append(res.Runs, sr)
	}
	better := func(a, b *Value) bool {
		if r.Headline.HigherBetter {
			return a.Effective() > b.Effective()
		}
		return a.Effective() < b.Effective()
	}
	sort.SliceStable(res.Runs, func(i, j int) bool { return better(res.Runs[i].Headline, res.Runs[j].Headline) })
	for i := range res.Runs {
		if res.Runs[i].Meets {
			res.Best = &res.Runs[i]
			break
		}
	}
	res.Tied = r.tiedWithBest(res)
	return res
}

// budgetGoodput applies the budget's limits to every completed request of
// a run's main result, as vllm bench serve --goodput does with its own: a
// request is good when its TTFT, its TPOT ((E2EL - TTFT) / (output tokens
// - 1), 0 for one token) and its E2EL each keep their limit; the goodput
// is the good requests over the benchmark's duration. With repeats, it is
// the mean over every repeat that kept its per-request arrays, with its
// 95 % interval, and Good and Total count the requests of all of them.
// nil unless the first result kept its arrays, aligned, and prints its
// duration.
func budgetGoodput(s *study.Study, rr RunResult) *BudgetGoodput {
	g := goodputOf(s.SLO, rr.Block, rr.LogFile, rr.Run)
	if g == nil || rr.Headline == nil {
		return g
	}
	g.Value.Workload = rr.Headline.Workload
	var xs []float64
	var samples []Sample
	good, total := 0, 0
	for i := range rr.Run.Logs {
		lg := &rr.Run.Logs[i]
		if lg.Workload != rr.Headline.Workload || lg.Repeat == 0 || lg.Point != nil || len(lg.Blocks) == 0 {
			continue
		}
		if rg := goodputOf(s.SLO, &lg.Blocks[0], lg.File, rr.Run); rg != nil {
			xs = append(xs, rg.Value.Measured)
			samples = append(samples, Sample{Measured: rg.Value.Measured, Source: rg.Value.Source})
			good, total = good+rg.Good, total+rg.Total
		}
	}
	if len(xs) > 1 {
		g.Value.Measured, g.Value.HalfWidth = MeanInterval(xs)
		g.Value.Repeats, g.Value.Samples = len(xs), samples
		g.Good, g.Total = good, total
	}
	return g
}

// goodputOf is the goodput of one result block at a budget (see
// budgetGoodput), or nil.
func goodputOf(slo *study.SLO, b *benchlog.Block, file string, run *study.Run) *BudgetGoodput {
	if b == nil {
		return nil
	}
	dur, ok := b.Metrics["duration"]
	if !ok || !(dur.Value > 0) {
		return nil
	}
	good, total, ok := requestsKept(slo, b)
	if !ok {
		return nil
	}
	g := &BudgetGoodput{Good: good, Total: total}
	g.Value = Value{Run: run.ID, Metric: "request_goodput", Measured: float64(g.Good) / dur.Value, Decimals: 2,
		Replicas: 1, GPUs: run.GPUs, Source: Source{File: file, Line: dur.Line, Label: "duration"}}
	return g
}

// keeps reports whether a latency keeps a limit; a zero limit is none.
func keeps(limit, ms float64) bool { return limit <= 0 || ms <= limit }
