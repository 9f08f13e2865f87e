package report

import (
	"math"

	"github.com/perflab/perflab/internal/stats"
	"github.com/perflab/perflab/internal/study"
)

// Verdicts (docs/statistics.md): a change between two values is a win or a
// loss only when
//
//   - both are means of two repeats or more with some spread, Welch's
//     t-test on the means gives p < stats.Alpha, the 95 % interval of the
//     ratio excludes no change, the change is outside the metric's noise
//     band, and, with four repeats or more on each side, the Mann-Whitney U
//     test agrees (p < stats.Alpha: one outlier cannot make a change);
//   - otherwise (a single run on either side, or no spread at all), the
//     change is outside the noise band.
//
// Anything else is no measurable difference (Change.Noise).

// Test names, as analysis downloads and page titles print them.
const (
	TestWelch       = "welch"
	TestMannWhitney = "welch+mann-whitney" // both, with 4 repeats a side
	TestBand        = "band"               // no test possible: the noise band decides
)

// BandFloor is the smallest noise band, in percent: a band measured from
// repeats that vary less than this is raised to it.
const BandFloor = 1.0

// NoiseBand is BandFloor under its former name: the band of a metric whose
// repeats say nothing.
const NoiseBand = BandFloor

// Band is a metric's noise band in a study: the run-to-run variation of
// one measurement, the pooled coefficient of variation of the study's own
// repeats of it, never below BandFloor.
type Band struct {
	Metric  string  `json:"metric"`
	Percent float64 `json:"percent"`
	// CV is the pooled coefficient of variation in percent, and DF its
	// degrees of freedom (repeats less one, summed over the groups of
	// repeats); both 0 when the study repeats nothing.
	CV     float64 `json:"cv_percent"`
	DF     int     `json:"df"`
	Groups int     `json:"groups"` // runs and workloads with repeats
}

// Floored reports whether the band is the floor, not a measurement.
func (b Band) Floored() bool { return b.CV < BandFloor }

// MeasureBand computes a metric's band from every run's repeats of every
// workload measured at one load (a sweep's loads vary too much between
// them to pool: see LoadBand).
func (r *Report) MeasureBand(key string) Band {
	return r.measureBand(key, func(lg *study.Log) bool { return lg.Point == nil })
}

// LoadBand is a metric's band at one load of a sweep, from every run's
// repeats of the workload at that load.
func (r *Report) LoadBand(key, workload string, load float64) Band {
	return r.measureBand(key, func(lg *study.Log) bool {
		return lg.Workload == workload && lg.Point != nil && lg.Point.Value == load
	})
}

// DistinctAt reports whether two values differ measurably at a band.
func DistinctAt(band float64, a, b Value) bool {
	c := Change{Percent: (b.Effective()/a.Effective() - 1) * 100}
	c.judge(a, b, band, false)
	return !c.Noise
}

// measureBand pools the repeats of the logs that use keeps.
func (r *Report) measureBand(key string, use func(*study.Log) bool) Band {
	type group struct{ run, workload string }
	values := map[group][]float64{}
	var order []group
	for _, run := range r.Study.Runs {
		for i := range run.Logs {
			lg := &run.Logs[i]
			if lg.Repeat == 0 || !use(lg) || len(lg.Blocks) == 0 {
				continue
			}
			m, ok := MetricOf(&lg.Blocks[0], key)
			if !ok {
				continue
			}
			g := group{run.ID, lg.Workload}
			if _, seen := values[g]; !seen {
				order = append(order, g)
			}
			values[g] = append(values[g], m.Value)
		}
	}
	groups := make([][]float64, 0, len(order))
	n := 0
	for _, g := range order {
		if len(values[g]) > 1 {
			n++
		}
		groups = append(groups, values[g])
	}
	cv, df := stats.PooledCV(groups)
	b := Band{Metric: key, CV: cv * 100, DF: df, Groups: n}
	b.Percent = max(b.CV, BandFloor)
	return b
}

// BandOf returns the band of a metric: measured once per report.
func (r *Report) BandOf(key string) Band {
	if b, ok := r.Bands[key]; ok {
		return b
	}
	return r.MeasureBand(key) // not cached: a page may ask while others render
}

// judge fills in a change's test and verdict, and, with interval, the
// 95 % interval it shows (a search that a verdict alone does without).
func (c *Change) judge(from, to Value, band float64, interval bool) {
	c.Band, c.Test, c.P, c.PU = band, TestBand, math.NaN(), math.NaN()
	c.Lo, c.Hi = math.NaN(), math.NaN()
	a, b := samples(from), samples(to)
	c.NFrom, c.NTo = len(a), len(b)
	outside := math.Abs(c.Percent) >= band
	sa, sb := stats.Summarize(a), stats.Summarize(b)
	p, _, ok := stats.Welch(sa, sb)
	pr, rok := stats.RatioP(sa, sb)
	if !ok || !rok {
		c.Noise = !outside
		return
	}
	c.Test, c.P = TestWelch, p
	if len(a) >= stats.UTestMinN && len(b) >= stats.UTestMinN {
		c.Test, c.PU = TestMannWhitney, stats.MannWhitney(a, b)
	}
	// The interval includes no change exactly when pr >= 0.05.
	c.Noise = c.P >= stats.Alpha || c.PU >= stats.Alpha || pr >= 0.05 || !outside
	if interval {
		lo, hi, _ := stats.RatioInterval(sa, sb)
		c.Lo, c.Hi = (lo-1)*100, (hi-1)*100
	}
}

// samples are a value's repeats as effective values, or the value alone.
func samples(v Value) []float64 {
	if len(v.Samples) < 2 {
		return []float64{v.Effective()}
	}
	out := make([]float64, len(v.Samples))
	for i, s := range v.Samples {
		out[i] = s.Measured * float64(v.Replicas)
	}
	return out
}

// Tested reports whether a test, not the band alone, gave the verdict.
func (c *Change) Tested() bool { return c.Test != TestBand }

// Distinct reports whether two values differ measurably at the floor band
// (see judge); a report's own band is Report.Distinct's.
func Distinct(a, b Value) bool {
	c := Change{Percent: (b.Effective()/a.Effective() - 1) * 100}
	c.judge(a, b, BandFloor, false)
	return !c.Noise
}

// Distinct reports whether two values of a metric differ measurably at the
// metric's band in this study.
func (r *Report) Distinct(key string, a, b Value) bool {
	c := Change{Percent: (b.Effective()/a.Effective() - 1) * 100}
	c.judge(a, b, r.BandOf(key).Percent, false)
	return !c.Noise
}

// compare is newChange at the metric's band in this study.
func (r *Report) compare(m Metric, from, to Value) *Change {
	return newChangeBand(m, from, to, r.BandOf(m.Key).Percent)
}
