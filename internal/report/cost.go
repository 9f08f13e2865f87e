package report

import (
	"math"
	"sort"

	"github.com/perflab/perflab/internal/study"
)

// CostRun is one run's cost on the main workload at the study's price.
type CostRun struct {
	RunResult
	Output           *Value  // output tokens per second, as logged
	TokensPerGPUHour float64 // output tokens one GPU gives in an hour
	PerMillion       float64 // price of a million output tokens
	// PerMillionTotal is the price of a million tokens in and out (total
	// token throughput); 0 when the log prints no total throughput.
	PerMillionTotal float64
	// TiedWith is the id of the run listed before it whose cost it cannot
	// be told from (its output per GPU is within noise of it): the first
	// of its group of ties. Empty when the run costs measurably more than
	// the runs before it.
	TiedWith string
}

// CostResult lists the runs with an output throughput on the main
// workload, cheapest per token first.
type CostResult struct {
	Price *study.Price
	Runs  []CostRun
}

// cost works out, for every comparable run, what its output tokens cost at
// the study's price: output tok/s x 3600 / GPUs tokens per GPU-hour, and
// the price of a GPU-hour over that, per million tokens.
func (r *Report) cost() *CostResult {
	s := r.Study
	if s.Price == nil || s.Price.PerGPUHour <= 0 || r.Main == nil {
		return nil
	}
	res := &CostResult{Price: s.Price}
	for _, run := range s.Runs {
		rr := r.runResult(run)
		if !rr.Comparable() || run.GPUs <= 0 {
			continue
		}
		out := r.mainValue(run, "output_throughput")
		if out == nil || out.Measured <= 0 {
			continue
		}
		perHour := out.Measured * 3600 / float64(run.GPUs)
		cr := CostRun{RunResult: rr, Output: out, TokensPerGPUHour: perHour, PerMillion: s.Price.PerGPUHour * 1e6 / perHour}
		if total := r.mainValue(run, TotalThroughput.Key); total != nil && total.Measured > 0 {
			cr.PerMillionTotal = s.Price.PerGPUHour * 1e6 * float64(run.GPUs) / (total.Measured * 3600)
		}
		res.Runs = append(res.Runs, cr)
	}
	sort.SliceStable(res.Runs, func(i, j int) bool { return res.Runs[i].PerMillion < res.Runs[j].PerMillion })
	// Every pair of the order is one family (family.go).
	vals := make([]Value, len(res.Runs))
	for i := range res.Runs {
		vals[i] = outputPerGPU(res.Runs[i].Output)
	}
	tied, _ := RankTies(r.BandOf(OutputThroughput.Key), vals) // measured once: not among r.Bands
	leader := 0                                               // the first of the current group of ties
	for i := 1; i < len(res.Runs); i++ {
		if !tied[i] {
			leader = i
			continue
		}
		res.Runs[i].TiedWith = res.Runs[leader].Run.ID
	}
	return res
}

// outputPerGPU is an output throughput per GPU, as measured (its repeats
// too): the cost of runs on different numbers of GPUs compares what each
// GPU gives.
func outputPerGPU(v *Value) Value {
	per := *v
	gpus := float64(max(v.GPUs, 1))
	per.Measured, per.Replicas, per.HalfWidth = v.Measured/gpus, 1, v.HalfWidth/gpus
	per.Samples = make([]Sample, len(v.Samples))
	for i, sm := range v.Samples {
		per.Samples[i] = sm
		per.Samples[i].Measured = sm.Measured / gpus
	}
	return per
}

// PointCost is what a million tokens cost at a sweep point, at the
// study's price, as cost works it out for a run.
type PointCost struct {
	Output float64 // per million output tokens
	Total  float64 // per million tokens in and out; 0 when the log prints no total throughput
}

// pointCost is the cost at a sweep point; nil when the point has no
// throughput.
func pointCost(price *study.Price, p *SweepPoint) *PointCost {
	if price == nil || price.PerGPUHour <= 0 || p.Output.GPUs <= 0 || !(p.Output.Measured > 0) || math.IsInf(p.Output.Measured, 0) {
		return nil
	}
	perHour := p.Output.Measured * 3600 / float64(p.Output.GPUs)
	c := &PointCost{Output: price.PerGPUHour * 1e6 / perHour}
	if t := p.Total; t != nil && t.Measured > 0 && !math.IsInf(t.Measured, 0) {
		c.Total = price.PerGPUHour * 1e6 * float64(p.Output.GPUs) / (t.Measured * 3600)
	}
	return c
}
