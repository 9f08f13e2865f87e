// Package stats holds the tests behind a report's verdicts: Welch's t-test
// on two means, the Mann-Whitney U test, a 95 % interval on the ratio of
// two means and the pooled coefficient of variation of repeats.
//
// docs/statistics.md says how a report uses them.
package stats

import (
	"math"
)

// Alpha is the significance level of every test: a change counts when
// its two-sided p-value is below it.
const Alpha = 0.05

// Summary is a sample's size, mean and standard deviation (divided by n-1).
type Summary struct {
	N        int
	Mean, SD float64
}

// Summarize returns the summary of xs.
func Summarize(xs []float64) Summary {
	s := Summary{N: len(xs)}
	if s.N == 0 {
		return s
	}
	for _, x := range xs {
		s.Mean += x
	}
	s.Mean /= float64(s.N)
	if s.N < 2 {
		return s
	}
	ss := 0.0
	for _, x := range xs {
		ss += (x - s.Mean) * (x - s.Mean)
	}
	s.SD = math.Sqrt(ss / float64(s.N-1))
	return s
}

// Welch is Welch's t-test on the means of a and b: the two-sided p-value
// and the Welch-Satterthwaite degrees of freedom. ok is false when a side
// has fewer than two values or both have no spread: no test is possible.
func Welch(a, b Summary) (p, df float64, ok bool) {
	if a.N < 2 || b.N < 2 {
		return math.NaN(), math.NaN(), false
	}
	va, vb := a.SD*a.SD/float64(a.N), b.SD*b.SD/float64(b.N)
	if va+vb == 0 {
		return math.NaN(), math.NaN(), false
	}
	t := (b.Mean - a.Mean) / math.Sqrt(va+vb)
	df = (va + vb) * (va + vb) / (va*va/float64(a.N-1) + vb*vb/float64(b.N-1))
	return TwoSidedP(t, df), df, true
}

// TwoSidedP is the probability that Student's t with df degrees of
// freedom is at least |t| away from 0.
func TwoSidedP(t, df float64) float64 {
	if math.IsInf(t, 0) {
		return 0
	}
	return RegIncBeta(df/2, 0.5, df/(df+t*t))
}

// TQuantile returns the q quantile (0.5 < q < 1) of Student's t with df
// degrees of freedom, df not necessarily whole, by bisection on
// TwoSidedP.
func TQuantile(q, df float64) float64 {
	want := 2 * (1 - q) // two-sided tail
	lo, hi := 0.0, 1.0
	for TwoSidedP(hi, df) > want {
		hi *= 2
	}
	for hi-lo > 1e-12*hi {
		mid := (lo + hi) / 2
		if TwoSidedP(mid, df) > want {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}

// RatioInterval is the 95 % interval of r = mean(b) / mean(a), from the
// delta method with Welch's degrees of freedom: r x (1 ± t x se), where
// se² = cv(a)²/n(a) + cv(b)²/n(b). ok is false when no test is possible
// (see Welch) or a mean is not positive.
func RatioInterval(a, b Summary) (lo, hi float64, ok bool) {
	se, df, ok := ratioSE(a, b)
	if !ok {
		return math.NaN(), math.NaN(), false
	}
	half := TQuantile(0.975, df) * se
	r := b.Mean / a.Mean
	return r * (1 - half), r * (1 + half), true
}

// RatioP is the two-sided p-value of r = mean(b) / mean(a) against 1 on
// the t statistic of RatioInterval, |r - 1| / (r x se): RatioInterval's
// interval leaves out 1 exactly when RatioP < 0.05. It costs one
// evaluation of the t distribution, where the interval costs a search.
func RatioP(a, b Summary) (p float64, ok bool) {
	se, df, ok := ratioSE(a, b)
	if !ok {
		return math.NaN(), false
	}
	r := b.Mean / a.Mean
	return TwoSidedP(math.Abs(r-1)/(r*se), df), true
}

// ratioSE is the relative standard error of mean(b) / mean(a) and its
// Welch degrees of freedom.
func ratioSE(a, b Summary) (se, df float64, ok bool) {
	if a.N < 2 || b.N < 2 || a.Mean <= 0 || b.Mean <= 0 {
		return math.NaN(), math.NaN(), false
	}
	ca, cb := a.SD/a.Mean, b.SD/b.Mean
	va, vb := ca*ca/float64(a.N), cb*cb/float64(b.N)
	if va+vb == 0 {
		return math.NaN(), math.NaN(), false
	}
	df = (va + vb) * (va + vb) / (va*va/float64(a.N-1) + vb*vb/float64(b.N-1))
	return math.Sqrt(va + vb), df, true
}

// RegIncBeta is the regularized incomplete beta function I_x(a, b), from
// its continued fraction (Numerical Recipes, 6.4).
func RegIncBeta(a, b, x float64) float64 {
	switch {
	case x <= 0:
		return 0
	case x >= 1:
		return 1
	}
	la, _ := math.Lgamma(a + b)
	lb, _ := math.Lgamma(a)
	lc, _ := math.Lgamma(b)
	front := math.Exp(la - lb - lc + a*math.Log(x) + b*math.Log(1-x))
	if x < (a+1)/(a+b+2) {
		return front * betaFraction(a, b, x) / a
	}
	return 1 - front*betaFraction(b, a, 1-x)/b
}

// betaFraction evaluates the continued fraction of the incomplete beta
// function by the modified Lentz method.
func betaFraction(a, b, x float64) float64 {
	const tiny, eps = 1e-300, 1e-15
	c, d := 1.0, 1-(a+b)*x/(a+1)
	if math.Abs(d) < tiny {
		d = tiny
	}
	d = 1 / d
	h := d
	for m := 1; m <= 300; m++ {
		fm := float64(m)
		for _, aa := range [2]float64{
			fm * (b - fm) * x / ((a + 2*fm - 1) * (a + 2*fm)),
			-(a + fm) * (a + b + fm) * x / ((a + 2*fm) * (a + 2*fm + 1)),
		} {
			d = 1 + aa*d
			if math.Abs(d) < tiny {
				d = tiny
			}
			c = 1 + aa/c
			if math.Abs(c) < tiny {
				c = tiny
			}
			d = 1 / d
			h *= d * c
		}
		if math.Abs(d*c-1) < eps {
			break
		}
	}
	return h
}

// PooledCV is the coefficient of variation of one measurement, pooled
// over groups of repeats: sqrt(sum((n-1) cv²) / sum(n-1)) over groups of
// two values or more with a positive mean. df is sum(n-1); 0 when no
// group has repeats.
func PooledCV(groups [][]float64) (cv float64, df int) {
	sum := 0.0
	for _, g := range groups {
		s := Summarize(g)
		if s.N < 2 || s.Mean <= 0 {
			continue
		}
		c := s.SD / s.Mean
		sum += float64(s.N-1) * c * c
		df += s.N - 1
	}
	if df == 0 {
		return 0, 0
	}
	return math.Sqrt(sum / float64(df)), df
}
