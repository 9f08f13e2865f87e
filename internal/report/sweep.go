package report

import (
	"path"
	"sort"
	"strings"

	"github.com/perflab/perflab/internal/benchlog"
	"github.com/perflab/perflab/internal/study"
)

// A sweep measures each configuration of a workload at several loads
// (concurrencies or request rates): each configuration gives a curve of
// output throughput per GPU (higher is better) against latency (lower is
// better). The latency of the curve is the median TPOT, which every tool
// that sweeps prints and which the load moves most directly; P99 TTFT is
// shown beside it when the log prints it.

// Metrics of a sweep point.
var (
	OutputThroughput = Metric{Key: "output_throughput", Unit: "tok/s", HigherBetter: true}
	MedianTPOT       = Metric{Key: "median_tpot_ms", Unit: "ms", HigherBetter: false}
	P99TTFT          = Metric{Key: "p99_ttft_ms", Unit: "ms", HigherBetter: false}
)

// SweepPoint is one configuration at one load of a sweep.
type SweepPoint struct {
	Run     *study.Run
	LogFile string
	Block   *benchlog.Block
	// Load is the point: the concurrency or request rate the block prints,
	// or, when it prints none, the one its file name gives (Source.Line 0).
	Load Value
	// The figures of the point: with repeats, each the mean of the
	// repeats with its 95 % interval (Value.Repeated).
	Output Value  // output token throughput, as measured (never projected)
	TPOT   *Value // median TPOT: the curve's latency; nil when not printed
	TTFT   *Value // P99 TTFT; nil when not printed
	Total  *Value // total token throughput, for its cost; nil without a price or when not printed
	// Repeats are the logs of every repeat of the load (LogFile and Block
	// are the first's); nil for a load measured once.
	Repeats []study.LogBlock
	// With an SLO: the latencies it limits, one per limit (nil where not
	// printed), and whether the point keeps every limit.
	SLO   []*Value
	Meets bool
	// Attainment counts the requests that kept every limit; nil without
	// a budget or per-request arrays.
	Attainment *Attainment
	// Frontier: no other point of the sweep has at least its throughput per
	// GPU at no more latency, with one of the two strictly better.
	Frontier bool
	// NearFrontier: off the frontier, yet no frontier point beats it
	// measurably: each with at least its throughput per GPU at no more
	// latency is within noise of it on both (see nearFrontier).
	NearFrontier bool
}

// PerGPU is the point's output throughput per GPU: the y of its curve.
func (p *SweepPoint) PerGPU() float64 { return p.Output.PerGPU() }

// PerGPUHalfWidth is the half-width of the 95 % interval of PerGPU; 0 for
// a load measured once.
func (p *SweepPoint) PerGPUHalfWidth() float64 {
	if p.Output.GPUs <= 0 {
		return 0
	}
	return p.Output.HalfWidth / float64(p.Output.GPUs)
}

// SweepCurve is one configuration's points, by increasing load.
type SweepCurve struct {
	Run    *study.Run
	Points []SweepPoint
	// Goodput is the highest load that keeps the budget for
	// GoodputTarget of its requests; nil unless every point has its
	// Attainment.
	Goodput *SweepGoodput
}

// SweepResult is a swept workload across the study's configurations.
type SweepResult struct {
	Workload study.Workload
	Curves   []SweepCurve  // runs in id order; only runs with a point
	Frontier []*SweepPoint // the Pareto frontier, lowest latency first
	Limits   []study.SLOLimit
	// Best is the point with the highest output throughput per GPU that
	// keeps the study's SLO (ties: the lower median TPOT, then the first
	// curve and load); nil without an SLO or when no point keeps it.
	Best *SweepPoint
	// BestCost is the cost at Best; nil without a Best or a price.
	BestCost *PointCost
	// Tied are the other points within the budget whose throughput per GPU
	// is within noise of Best's: as good a choice, in curve and load order.
	Tied []*SweepPoint
}

// sweeps computes every swept workload that has a result.
func (r *Report) sweeps() []SweepResult {
	var out []SweepResult
	for i := range r.Study.Workloads {
		w := &r.Study.Workloads[i]
		if w.Sweep == nil {
			continue
		}
		if sr := r.sweep(w); len(sr.Curves) > 0 {
			out = append(out, sr)
		}
	}
	return out
}

func (r *Report) sweep(w *study.Workload) SweepResult {
	sr := SweepResult{Workload: *w}
	if r.Study.SLO != nil {
		sr.Limits = r.Study.SLO.Limits()
	}
	for _, run := range r.Study.Runs {
		if run.Failed() || r.Excluded[run.ID] != "" {
			continue
		}
		c := SweepCurve{Run: run}
		for _, pb := range run.SweepBlocks(w) {
			if p, ok := r.sweepPoint(run, w, pb, sr.Limits); ok {
				p.Attainment = pointAttainment(r.Study.SLO, pb)
				c.Points = append(c.Points, p)
			}
		}
		if len(c.Points) > 0 {
			c.Goodput = sweepGoodput(&c)
			sr.Curves = append(sr.Curves, c)
		}
	}
	sr.Frontier = frontier(sr.Curves)
	bands := newLoadBands(r, w)
	nearFrontier(bands, sr.Curves, sr.Frontier)
	if r.Study.SLO != nil {
		sr.Best = bestWithin(sr.Curves)
		sr.Tied = tiedWithBestPoint(bands, sr.Curves, sr.Best)
	}
	if sr.Best != nil {
		sr.BestCost = pointCost(r.Study.Price, sr.Best)
	}
	return sr
}

// sweepPoint reads one point; a block without an output throughput is
// none. A load measured several times is the mean of its repeats, each
// figure with its interval, as Measure makes a workload's; the load itself
// is the first repeat's.
func (r *Report) sweepPoint(run *study.Run, w *study.Workload, pb study.PointBlock, limits []study.SLOLimit) (SweepPoint, bool) {
	file, b := pb.Log.File, pb.Block
	out := PointValue(r.Study, run, w.ID, pb, OutputThroughput.Key)
	if out == nil {
		return SweepPoint{}, false
	}
	p := SweepPoint{Run: run, LogFile: file, Block: b, Output: *out, Repeats: pb.Repeats, Meets: true}
	if load := r.blockValue(run, w.ID, file, b, w.Sweep.Key); load != nil {
		p.Load = *load
	} else {
		p.Load = Value{Run: run.ID, Workload: w.ID, Metric: w.Sweep.Key, Measured: pb.Point.Value, Decimals: decimalsOf(pb.Point.Raw),
			Replicas: 1, GPUs: run.GPUs, Source: Source{File: file, Label: path.Base(file)}}
	}
	p.Load.Replicas = 1
	p.TPOT = PointValue(r.Study, run, w.ID, pb, MedianTPOT.Key)
	p.TTFT = PointValue(r.Study, run, w.ID, pb, P99TTFT.Key)
	if r.Study.Price != nil {
		p.Total = PointValue(r.Study, run, w.ID, pb, TotalThroughput.Key)
	}
	for _, l := range limits {
		v := PointValue(r.Study, run, w.ID, pb, l.Key)
		p.SLO = append(p.SLO, v)
		p.Meets = p.Meets && v != nil && v.Measured <= l.Limit
	}
	return p, true
}

// PointValue reads a metric of a run at one load of a sweep, never
// projected: the block's figure or, when the load has repeats, the mean of
// theirs with its 95 % interval and every repeat as a sample (a repeat
// that does not print it is left out, as in Measure). nil when the first
// block does not print it.
func PointValue(s *study.Study, run *study.Run, workload string, pb study.PointBlock, key string) *Value {
	v := blockValue(s, run, workload, pb.Log.File, pb.Block, key)
	if v == nil {
		return nil
	}
	v.Replicas = 1 // a curve is what the run measured
	if len(pb.Repeats) < 2 {
		return v
	}
	var xs []float64
	for _, rp := range pb.Repeats {
		if x := blockValue(s, run, workload, rp.Log.File, rp.Block, key); x != nil {
			xs = append(xs, x.Measured)
			v.Samples = append(v.Samples, Sample{Measured: x.Measured, Source: x.Source})
		}
	}
	if len(xs) < 2 {
		v.Samples = nil
		return v
	}
	v.Repeats = len(xs)
	v.Measured, v.HalfWidth = MeanInterval(xs)
	return v
}

// decimalsOf counts the decimals a number is written with.
func decimalsOf(raw string) int {
	if i := strings.IndexByte(raw, '.'); i >= 0 {
		return len(raw) - i - 1
	}
	return 0
}

// frontier marks and returns the points no other point beats: sorted by
// median TPOT (then by throughput per GPU, highest first), a point is on
// the frontier when its throughput per GPU is higher than that of every
// point before it. Points without a median TPOT are on no frontier; a point
// equal to a frontier point (same latency, same throughput per GPU) is
// marked too, though the frontier's line passes through it once.
func frontier(curves []SweepCurve) []*SweepPoint {
	var pts []*SweepPoint
	for i := range curves {
		for j := range curves[i].Points {
			if p := &curves[i].Points[j]; p.TPOT != nil {
				pts = append(pts, p)
			}
		}
	}
	sort.SliceStable(pts, func(i, j int) bool {
		a, b := pts[i], pts[j]
		if a.TPOT.Measured != b.TPOT.Measured {
			return a.TPOT.Measured < b.TPOT.Measured
		}
		return a.PerGPU() > b.PerGPU()
	})
	var out []*SweepPoint
	for _, p := range pts {
		switch {
		case len(out) == 0 || p.PerGPU() > out[len(out)-1].PerGPU():
			p.Frontier = true
			out = append(out, p)
		case p.PerGPU() == out[len(out)-1].PerGPU() && p.TPOT.Measured == out[len(out)-1].TPOT.Measured:
			p.Frontier = true // a tie with the last frontier point
		}
	}
	return out
}

// tiedWithBestPoint are the points, best aside, that keep the budget and
// whose throughput per GPU the verdict cannot tell from best's, at the
// wider of the two loads' bands.
func tiedWithBestPoint(bands *loadBands, curves []SweepCurve, best *SweepPoint) []*SweepPoint {
	if best == nil {
		return nil
	}
	var cands []*SweepPoint
	var pairs []pairTest // one family (family.go)
	for i := range curves {
		for j := range curves[i].Points {
			p := &curves[i].Points[j]
			if p == best || !p.Meets {
				continue
			}
			cands = append(cands, p)
			pairs = append(pairs, pairTest{bands.wider(OutputThroughput.Key, p, best), outputPerGPU(&best.Output), outputPerGPU(&p.Output)})
		}
	}
	var tied []*SweepPoint
	for i, d := range distinctFamily(pairs) {
		if !d {
			tied = append(tied, cands[i])
		}
	}
	return tied
}

// loadBands gives the band of a metric at a load of one swept workload
// (Report.LoadBand), each measured once: a sweep has up to 64 loads and
// its points many more.
type loadBands struct {
	r    *Report
	w    *study.Workload
	seen map[loadBandKey]Band
}

type loadBandKey struct {
	metric string
	load   float64
}

func newLoadBands(r *Report, w *study.Workload) *loadBands {
	return &loadBands{r: r, w: w, seen: map[loadBandKey]Band{}}
}

// wider is the wider of the metric's bands at the loads of a and b: the
// wider band, and the larger assumed variation.
func (lb *loadBands) wider(metric string, a, b *SweepPoint) Band {
	band := func(load float64) Band {
		k := loadBandKey{metric, load}
		v, ok := lb.seen[k]
		if !ok {
			v = lb.r.LoadBand(metric, lb.w.ID, load)
			lb.seen[k] = v
		}
		return v
	}
	x, y := band(a.Load.Measured), band(b.Load.Measured)
	if y.Percent > x.Percent {
		x.Percent, x.CV, x.DF, x.Groups = y.Percent, y.CV, y.DF, y.Groups
	}
	if y.Sigma > x.Sigma {
		x.Sigma, x.SigmaDF, x.SigmaDefault = y.Sigma, y.SigmaDF, y.SigmaDefault
	}
	return x
}

// nearFrontier marks the points off the frontier that no frontier point
// beats measurably. A frontier point that has at least a point's
// throughput per GPU at no more median TPOT beats it only when one of the
// two differences passes the verdict's test, at the wider of the two
// loads' bands (LoadBand). Along the frontier (lowest latency first) both
// figures rise, so the points that can beat a point form one run of it,
// found by two binary searches: a sweep of hostile size stays cheap.
func nearFrontier(bands *loadBands, curves []SweepCurve, front []*SweepPoint) {
	for i := range curves {
		for j := range curves[i].Points {
			p := &curves[i].Points[j]
			if p.Frontier || p.TPOT == nil {
				continue
			}
			lo := sort.Search(len(front), func(k int) bool { return front[k].PerGPU() >= p.PerGPU() })
			hi := sort.Search(len(front), func(k int) bool { return front[k].TPOT.Measured > p.TPOT.Measured })
			beaten := false
			for _, q := range front[lo:max(lo, hi)] {
				if DistinctAt(bands.wider(OutputThroughput.Key, p, q), outputPerGPU(&p.Output), outputPerGPU(&q.Output)) ||
					DistinctAt(bands.wider(MedianTPOT.Key, p, q), *p.TPOT, *q.TPOT) {
					beaten = true
					break
				}
			}
			p.NearFrontier = !beaten && lo < hi
		}
	}
}

// bestWithin returns the point with the highest output throughput per GPU
// that keeps the SLO; of equal ones, the lower median TPOT, then the first.
func bestWithin(curves []SweepCurve) *SweepPoint {
	var best *SweepPoint
	for i := range curves {
		for j := range curves[i].Points {
			p := &curves[i].Points[j]
			if !p.Meets {
				continue
			}
			switch {
			case best == nil || p.PerGPU() > best.PerGPU():
				best = p
			case p.PerGPU() == best.PerGPU() && p.TPOT != nil && (best.TPOT == nil || p.TPOT.Measured < best.TPOT.Measured):
				best = p
			}
		}
	}
	return best
}
