package report

import (
	"math"

	"github.com/perflab/perflab/internal/benchlog"
	"github.com/perflab/perflab/internal/study"
)

// GoodputTarget is the share of requests that must keep every limit of the
// budget at a load for the load to count (DistServe's 90 % SLO
// attainment; docs/statistics.md#goodput-over-a-sweep).
const GoodputTarget = 0.9

// Attainment counts the requests of a load that kept every limit of the
// budget, over all its repeats.
type Attainment struct {
	Good, Total int
	// Low and High are the lowest and highest share of one repeat: both
	// Share for a load measured once.
	Low, High float64
}

// Share is the fraction of requests that kept every limit.
func (a Attainment) Share() float64 { return float64(a.Good) / float64(a.Total) }

// Interval is the 95 % Wilson score interval of Share. It treats the
// requests as independent, which those of one run are not (they share a
// queue): it is the least uncertainty the count carries, not all of it.
func (a Attainment) Interval() (lo, hi float64) {
	const z = 1.959963984540054
	n, p := float64(a.Total), a.Share()
	den := 1 + z*z/n
	center := (p + z*z/(2*n)) / den
	half := z * math.Sqrt(p*(1-p)/n+z*z/(4*n*n)) / den
	return max(center-half, 0), min(center+half, 1)
}

// Borderline reports whether the load could fall on the other side of
// target: its interval holds target, or its repeats fall on both sides.
func (a Attainment) Borderline(target float64) bool {
	lo, hi := a.Interval()
	return (lo < target && target <= hi) || (a.Low < target && target <= a.High)
}

// SweepGoodput is a configuration's goodput as DistServe defines it: the
// highest load per GPU at which at least GoodputTarget of the requests
// keep every limit of the budget.
type SweepGoodput struct {
	Point  *SweepPoint // that load; nil when no load measured attains it
	PerGPU float64     // Point's load per GPU
	// Borderline is true when the count could go either way at that
	// load or at a higher one (Attainment.Borderline): another load may
	// be the goodput as likely as this one.
	Borderline bool
}

// pointAttainment counts the requests of a point, every repeat included,
// that keep every limit; nil without a budget or when some block lacks
// aligned per-request arrays: a count that leaves requests out would be a
// guess.
func pointAttainment(slo *study.SLO, pb study.PointBlock) *Attainment {
	if slo == nil {
		return nil
	}
	blocks := []*benchlog.Block{pb.Block}
	if len(pb.Repeats) > 0 {
		blocks = blocks[:0]
		for _, rp := range pb.Repeats {
			blocks = append(blocks, rp.Block)
		}
	}
	a := Attainment{Low: 1}
	for _, b := range blocks {
		good, total, ok := requestsKept(slo, b)
		if !ok || total == 0 {
			return nil
		}
		a.Good, a.Total = a.Good+good, a.Total+total
		share := float64(good) / float64(total)
		a.Low, a.High = min(a.Low, share), max(a.High, share)
	}
	return &a
}

// requestsKept counts the completed requests of a block that keep every
// limit of slo (see budgetGoodput); ok is false without aligned arrays.
func requestsKept(slo *study.SLO, b *benchlog.Block) (good, total int, ok bool) {
	if b == nil || b.Requests == nil {
		return 0, 0, false
	}
	rd := b.Requests
	n := len(rd.TTFT)
	if n == 0 || len(rd.E2EL) != n || len(rd.OutputLens) != n {
		return 0, 0, false
	}
	for i := range n {
		tpot := 0.0
		if out := rd.OutputLens[i]; out > 1 {
			tpot = (rd.E2EL[i] - rd.TTFT[i]) / float64(out-1)
		}
		if keeps(slo.TTFT, rd.TTFT[i]) && keeps(slo.TPOT, tpot) && keeps(slo.E2EL, rd.E2EL[i]) {
			good++
		}
	}
	return good, n, true
}

// sweepGoodput is a curve's goodput, nil unless every point has its
// attainment. Of the loads that attain the target, the highest counts,
// as in DistServe, even when a lower load falls short.
func sweepGoodput(c *SweepCurve) *SweepGoodput {
	g := &SweepGoodput{}
	for i := range c.Points {
		p := &c.Points[i]
		if p.Attainment == nil {
			return nil
		}
		if p.Attainment.Share() >= GoodputTarget && (g.Point == nil || p.Load.Measured > g.Point.Load.Measured) {
			g.Point = p
		}
	}
	if g.Point != nil && g.Point.Load.GPUs > 0 {
		g.PerGPU = g.Point.Load.PerGPU()
	}
	for i := range c.Points {
		p := &c.Points[i]
		if g.Point == nil || p == g.Point || p.Load.Measured > g.Point.Load.Measured {
			g.Borderline = g.Borderline || p.Attainment.Borderline(GoodputTarget)
		}
	}
	return g
}
