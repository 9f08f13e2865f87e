package report

import (
	"math"

	"github.com/perflab/perflab/internal/stats"
	"github.com/perflab/perflab/internal/study"
)

// Verdicts (docs/statistics.md): a change between two values is a win or a
// loss only when its test gives p below the level it is held to
// (stats.Alpha, or Holm's share of it within a family of comparisons) and
// the change is outside the metric's noise band. The test is
//
//   - with two repeats or more a side and some spread: Welch's t-test on
//     the means, the 95 % interval of the ratio leaving out no change,
//     and, with four repeats or more a side, the Mann-Whitney U test (one
//     outlier cannot make a change);
//   - with one run against repeats that vary: the prediction interval of
//     the repeated side (Student's t with n-1 degrees of freedom);
//   - otherwise (one run a side, or repeats with no spread): the change
//     against the run-to-run variation assumed for the metric
//     (variation.go), z x sqrt(1/n1 + 1/n2) x that variation.
//
// Anything else is no measurable difference (Change.Noise).

// Test names, as analysis downloads and page titles print them.
const (
	TestWelch       = "welch"
	TestMannWhitney = "welch+mann-whitney" // both, with 4 repeats a side
	TestPrediction  = "prediction"         // one run against the repeats of the other side
	TestAssumed     = "assumed-variation"  // no spread measured: the assumed variation decides
)

// CorrectionHolm names Holm's step-down correction in analysis downloads.
const CorrectionHolm = "holm"

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
	// Sigma is the run-to-run variation, in percent, that a comparison
	// without a measured spread is tested against (variation.go): the
	// measured CV with SigmaDF degrees of freedom, or, SigmaDefault, the
	// default of the metric's Class (SigmaDF 0: taken as known).
	Class        string  `json:"class"`
	Sigma        float64 `json:"assumed_variation_percent"`
	SigmaDF      int     `json:"assumed_variation_df"`
	SigmaDefault bool    `json:"assumed_variation_default"`
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

// DistinctAt reports whether two values differ measurably at a band, as
// a comparison of its own (a family of one).
func DistinctAt(band Band, a, b Value) bool {
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
	b.assume()
	return b
}

// BandOf returns the band of a metric: measured once per report.
func (r *Report) BandOf(key string) Band {
	if b, ok := r.Bands[key]; ok {
		return b
	}
	return r.MeasureBand(key) // not cached: a page may ask while others render
}

// judge fills in a change's test and verdict, at the level stats.Alpha,
// and, with interval, the 95 % interval it shows (a search that a verdict
// alone does without).
func (c *Change) judge(from, to Value, band Band, interval bool) {
	c.Band, c.Sigma, c.SigmaDF, c.SigmaDefault = band.Percent, band.Sigma, band.SigmaDF, band.SigmaDefault
	c.P, c.PU, c.PAdjusted, c.Level = math.NaN(), math.NaN(), math.NaN(), stats.Alpha
	c.Lo, c.Hi = math.NaN(), math.NaN()
	a, b := samples(from), samples(to)
	c.NFrom, c.NTo = len(a), len(b)
	c.outside = math.Abs(c.Percent) >= band.Percent
	sa, sb := stats.Summarize(a), stats.Summarize(b)
	switch {
	case c.welch(sa, sb, a, b, interval):
	case c.prediction(sa, sb, interval):
	default:
		c.Test = TestAssumed
		c.P = stats.AssumedP(c.Percent, c.NFrom, c.NTo, c.Sigma, c.SigmaDF)
		c.decisive = c.P
	}
	c.decide()
}

// decide sets the verdict from the decisive p at the change's level.
func (c *Change) decide() { c.Noise = !(c.decisive < c.Level) || !c.outside }

// welch tests two sets of repeats that vary, when it can.
func (c *Change) welch(sa, sb stats.Summary, a, b []float64, interval bool) bool {
	p, _, ok := stats.Welch(sa, sb)
	pr, rok := stats.RatioP(sa, sb)
	if !ok || !rok {
		return false
	}
	c.Test, c.P, c.decisive = TestWelch, p, math.Max(p, pr) // the interval includes no change exactly when pr >= 0.05
	if len(a) >= stats.UTestMinN && len(b) >= stats.UTestMinN {
		c.Test, c.PU = TestMannWhitney, stats.MannWhitney(a, b)
		c.decisive = math.Max(c.decisive, c.PU)
	}
	if interval {
		lo, hi, _ := stats.RatioInterval(sa, sb)
		c.Lo, c.Hi = (lo-1)*100, (hi-1)*100
	}
	return true
}

// prediction tests one run against the repeats of the other side, when
// they vary: how far a next run of the repeated side would land. The
// interval is that of the difference over the reference's value.
func (c *Change) prediction(sa, sb stats.Summary, interval bool) bool {
	if sa.N < 1 || sb.N < 1 || sa.Mean <= 0 || sb.Mean <= 0 {
		return false
	}
	var t, p, half float64
	var ok bool
	switch {
	case sa.N == 1 && sb.N >= 2:
		t, c.DF, p, half, ok = stats.Prediction(sa.Mean, sb)
		t = -t // the change is to's mean against from's one run
	case sb.N == 1 && sa.N >= 2:
		t, c.DF, p, half, ok = stats.Prediction(sb.Mean, sa)
	}
	if !ok {
		return false
	}
	c.Test, c.T, c.P, c.decisive = TestPrediction, t, p, p
	if interval {
		d := sb.Mean - sa.Mean
		c.Lo, c.Hi = (d-half)/sa.Mean*100, (d+half)/sa.Mean*100
	}
	return true
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

// Tested reports whether the repeats measured the spread the verdict
// rests on (Welch, the U test or the prediction interval), rather than a
// variation assumed for the metric.
func (c *Change) Tested() bool { return c.Test != TestAssumed }

// Threshold is the smallest change, in percent, that the assumed
// variation lets a comparison of these runs find: what one run a side
// cannot tell from noise. It is the threshold at stats.Alpha, the same
// for every comparison of a page, unless the change passes it and only
// the share of alpha it was held to in its family (Holm) made it noise:
// then the threshold at that share.
func (c *Change) Threshold() float64 {
	x := stats.AssumedThreshold(c.NFrom, c.NTo, c.Sigma, c.SigmaDF, stats.Alpha)
	if math.Abs(c.Percent) >= x && c.Level < stats.Alpha {
		return stats.AssumedThreshold(c.NFrom, c.NTo, c.Sigma, c.SigmaDF, c.Level)
	}
	return x
}

// Corrected reports whether the change was held to Holm's share of the
// level, as one of a family of comparisons.
func (c *Change) Corrected() bool { return c.Family > 1 }

// Distinct reports whether two values differ measurably at the floor band
// (see judge); a report's own band is Report.Distinct's.
func Distinct(a, b Value) bool { return DistinctAt(FloorBand(a.Metric), a, b) }

// Distinct reports whether two values of a metric differ measurably at the
// metric's band in this study.
func (r *Report) Distinct(key string, a, b Value) bool { return DistinctAt(r.BandOf(key), a, b) }

// compare is newChange at the metric's band in this study.
func (r *Report) compare(m Metric, from, to Value) *Change {
	return newChangeBand(m, from, to, r.BandOf(m.Key))
}
