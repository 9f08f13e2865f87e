package report

import (
	"sort"

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
		if sr.BudgetGoodput = budgetGoodput(s.SLO, rr); sr.BudgetGoodput != nil {
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
// is the good requests over the benchmark's duration. nil unless the
// result kept its per-request arrays, aligned, and prints its duration.
func budgetGoodput(slo *study.SLO, rr RunResult) *BudgetGoodput {
	if rr.Block == nil || rr.Block.Requests == nil {
		return nil
	}
	rd := rr.Block.Requests
	n := len(rd.TTFT)
	dur, ok := rr.Block.Metrics["duration"]
	if n == 0 || len(rd.E2EL) != n || len(rd.OutputLens) != n || !ok || !(dur.Value > 0) {
		return nil
	}
	g := &BudgetGoodput{Total: n}
	for i := range n {
		tpot := 0.0
		if out := rd.OutputLens[i]; out > 1 {
			tpot = (rd.E2EL[i] - rd.TTFT[i]) / float64(out-1)
		}
		if keeps(slo.TTFT, rd.TTFT[i]) && keeps(slo.TPOT, tpot) && keeps(slo.E2EL, rd.E2EL[i]) {
			g.Good++
		}
	}
	g.Value = Value{Run: rr.Run.ID, Metric: "request_goodput", Measured: float64(g.Good) / dur.Value, Decimals: 2,
		Replicas: 1, GPUs: rr.Run.GPUs, Source: Source{File: rr.LogFile, Line: dur.Line, Label: "duration"}}
	if rr.Headline != nil {
		g.Value.Workload = rr.Headline.Workload
	}
	return g
}

// keeps reports whether a latency keeps a limit; a zero limit is none.
func keeps(limit, ms float64) bool { return limit <= 0 || ms <= limit }
