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
	// Goodput is the requests per second that met the benchmark's own
	// SLO flags (vllm bench serve --goodput), when the log prints it.
	Goodput *Value
}

// SLOResult ranks the runs that have a result on the main workload, best
// headline first, and names the best one that keeps the SLO.
type SLOResult struct {
	SLO    *study.SLO
	Limits []study.SLOLimit
	Runs   []SLORun
	Best   *SLORun // nil when no run keeps it
	// Goodput: some run's log prints its goodput.
	Goodput bool
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
		}
		if sr.Goodput = r.mainValue(run, "request_goodput"); sr.Goodput != nil {
			res.Goodput = true
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
	return res
}
