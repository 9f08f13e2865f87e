package stats

import (
	"math"
	"sort"
)

// Tests for few runs: where one side is a single run, the repeats cannot
// measure the spread of both sides. One run against repeats is judged by
// the prediction interval of the repeated side; one run against one run
// (or repeats that do not vary at all) by a run-to-run variation assumed
// for the metric. Holm's step-down holds a family of such tests to one
// family-wise error.

// Z975 is the 0.975 quantile of the standard normal distribution.
const Z975 = 1.959963984540054

// NormalTwoSidedP is the probability that a standard normal variable is at
// least |z| away from 0.
func NormalTwoSidedP(z float64) float64 { return math.Erfc(math.Abs(z) / math.Sqrt2) }

// NormalQuantile is the q quantile (0 < q < 1) of the standard normal
// distribution.
func NormalQuantile(q float64) float64 { return math.Sqrt2 * math.Erfinv(2*q-1) }

// Quantile is the q quantile of Student's t with df degrees of freedom, or
// of the normal distribution when df is 0 (a variation known, not
// estimated).
func Quantile(q float64, df int) float64 {
	if df <= 0 {
		return NormalQuantile(q)
	}
	return TQuantile(q, float64(df))
}

// AssumedP is the two-sided p-value of a change of pct percent between
// the means of na and nb runs, when one run varies by cv percent from the
// next: pct / (cv x sqrt(1/na + 1/nb)) against the normal distribution
// (df 0) or Student's t with the df the cv was estimated with.
func AssumedP(pct float64, na, nb int, cv float64, df int) float64 {
	stat := math.Abs(pct) / (cv * math.Sqrt(1/float64(na)+1/float64(nb)))
	if df <= 0 {
		return NormalTwoSidedP(stat)
	}
	return TwoSidedP(stat, float64(df))
}

// AssumedThreshold is the smallest change, in percent, that AssumedP
// finds at the level alpha: q(1 - alpha/2) x cv x sqrt(1/na + 1/nb).
func AssumedThreshold(na, nb int, cv float64, df int, alpha float64) float64 {
	return Quantile(1-alpha/2, df) * cv * math.Sqrt(1/float64(na)+1/float64(nb))
}

// Prediction tests one value x against the repeats summarized in s: how
// far a next run of the repeated configuration would land from their
// mean. t = (x - mean) / (sd x sqrt(1 + 1/n)) with n - 1 degrees of
// freedom; half is the 95 % half-width of x - mean. ok is false with
// fewer than two repeats or no spread.
func Prediction(x float64, s Summary) (t, df, p, half float64, ok bool) {
	if s.N < 2 || s.SD == 0 {
		return math.NaN(), math.NaN(), math.NaN(), math.NaN(), false
	}
	se := s.SD * math.Sqrt(1+1/float64(s.N))
	df = float64(s.N - 1)
	t = (x - s.Mean) / se
	return t, df, TwoSidedP(t, df), TQuantile(0.975, df) * se, true
}

// Holm returns Holm's step-down adjusted p-values of a family of tests,
// in the order given: a test is significant at family-wise level alpha
// exactly when its adjusted p is below alpha. NaN values stay NaN and do
// not count in the family.
func Holm(ps []float64) []float64 {
	idx, out := holmOrder(ps)
	m, running := len(idx), 0.0
	for k, i := range idx {
		adj := math.Min(1, float64(m-k)*ps[i])
		running = math.Max(running, adj)
		out[i] = running
	}
	return out
}

// holmOrder returns the indexes of the p-values that are not NaN, from
// the smallest p up, and a result of NaN for each p to fill in.
func holmOrder(ps []float64) (idx []int, out []float64) {
	for i, p := range ps {
		if !math.IsNaN(p) {
			idx = append(idx, i)
		}
	}
	sort.SliceStable(idx, func(a, b int) bool { return ps[idx[a]] < ps[idx[b]] })
	out = make([]float64, len(ps))
	for i := range out {
		out[i] = math.NaN()
	}
	return idx, out
}

// HolmLevels returns the level each test of a family is held to under
// Holm's procedure: alpha / (m - k) for the test with the k-th smallest p
// (k from 0), NaN for NaN p-values.
func HolmLevels(ps []float64, alpha float64) []float64 {
	idx, out := holmOrder(ps)
	for k, i := range idx {
		out[i] = alpha / float64(len(idx)-k)
	}
	return out
}
