package report

import (
	"math"

	"github.com/perflab/perflab/internal/study"
)

// Repeats: a run may measure a workload several times (<workload>.run-1.log,
// .run-2.log ...). Its value is then the mean of the repeats, with a 95 %
// confidence interval of that mean from Student's t distribution:
//
//	mean ± t(0.975, n-1) x s / sqrt(n)
//
// where s is the sample standard deviation (divided by n-1). Whether two
// values differ is verdict.go's.

// ConfidenceLevel is the level, in percent, of a mean's interval.
const ConfidenceLevel = 95

// Sample is one repeat's value of a metric and where it was read.
type Sample struct {
	Measured float64 `json:"measured"`
	Source   Source  `json:"source"`
}

// tQuantile975 holds t(0.975, df) for df = 1..30, Student's t distribution
// (as R's qt(0.975, df) prints it, to nine significant figures).
var tQuantile975 = [...]float64{
	12.7062047, 4.30265273, 3.18244631, 2.77644511, 2.57058184,
	2.44691185, 2.36462425, 2.30600414, 2.26215716, 2.22813885,
	2.20098516, 2.17881283, 2.16036866, 2.14478669, 2.13144955,
	2.11990530, 2.10981558, 2.10092204, 2.09302405, 2.08596345,
	2.07961384, 2.07387307, 2.06865761, 2.06389856, 2.05953855,
	2.05552944, 2.05183052, 2.04840714, 2.04522964, 2.04227246,
}

// TQuantile975 is the 0.975 quantile of Student's t distribution with df
// degrees of freedom: the factor of a two-sided 95 % interval. Up to 30
// it is read from a table; beyond, from the Cornish-Fisher expansion
// around the normal quantile, which is within 1e-5 of it there.
func TQuantile975(df int) float64 {
	if df < 1 {
		return math.NaN()
	}
	if df <= len(tQuantile975) {
		return tQuantile975[df-1]
	}
	const z = 1.959963984540054 // the normal distribution's 0.975 quantile
	v := float64(df)
	z3, z5, z7 := z*z*z, math.Pow(z, 5), math.Pow(z, 7)
	return z + (z3+z)/(4*v) + (5*z5+16*z3+3*z)/(96*v*v) + (3*z7+19*z5+17*z3-15*z)/(384*v*v*v)
}

// MeanInterval returns the mean of xs and the half-width of its 95 %
// confidence interval (0 for fewer than two values).
func MeanInterval(xs []float64) (mean, halfWidth float64) {
	n := float64(len(xs))
	if len(xs) == 0 {
		return 0, 0
	}
	for _, x := range xs {
		mean += x
	}
	mean /= n
	if len(xs) < 2 {
		return mean, 0
	}
	ss := 0.0
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	sd := math.Sqrt(ss / (n - 1))
	return mean, TQuantile975(len(xs)-1) * sd / math.Sqrt(n)
}

// Repeated reports whether the value is the mean of two repeats or more.
func (v Value) Repeated() bool { return v.Repeats > 1 }

// HalfWidthExpr writes the interval's half-width of the measured value
// (per replica) with the value's decimals.
func (v Value) HalfWidthExpr() string {
	return FormatNumber(v.HalfWidth, min(v.Decimals, maxShownDecimals))
}

// Interval is the 95 % interval of the effective value; a single
// measurement's is the value itself.
func (v Value) Interval() (lo, hi float64) {
	e, h := v.Effective(), v.HalfWidth*float64(v.Replicas)
	return e - h, e + h
}

// mainValue is a metric of a run on the main workload, the mean of its
// repeats when it has some, unprojected: what the latency budget and the
// cost per token read. nil when the first repeat does not print it.
func (r *Report) mainValue(run *study.Run, key string) *Value {
	v, _, _ := Measure(r.Study, run, r.Main.ID, key)
	if v != nil {
		v.Replicas = 1
	}
	return v
}
