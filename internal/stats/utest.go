package stats

import (
	"math"
	"sort"
)

// UTestMinN is the smallest sample, on each side, that the Mann-Whitney
// U test is used for (benchstat's rule): below it, its smallest p-value
// is too large to ever reach Alpha, and Welch's t-test is used.
const UTestMinN = 4

// MannWhitney is the two-sided p-value of the Mann-Whitney U test of a
// against b. Without ties it is exact (the count of the orderings of the
// two samples with each U); with ties it is the normal approximation with
// the tie correction and a continuity correction.
func MannWhitney(a, b []float64) float64 {
	n1, n2 := len(a), len(b)
	if n1 == 0 || n2 == 0 {
		return math.NaN()
	}
	type obs struct {
		x    float64
		inA  bool
		rank float64
	}
	all := make([]obs, 0, n1+n2)
	for _, x := range a {
		all = append(all, obs{x: x, inA: true})
	}
	for _, x := range b {
		all = append(all, obs{x: x})
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].x < all[j].x })
	ties := false
	tieSum := 0.0 // sum of t³ - t over groups of tied values
	for i := 0; i < len(all); {
		j := i
		for j < len(all) && all[j].x == all[i].x {
			j++
		}
		for k := i; k < j; k++ {
			all[k].rank = float64(i+j+1) / 2 // mean of ranks i+1 .. j
		}
		if t := float64(j - i); t > 1 {
			ties = true
			tieSum += t*t*t - t
		}
		i = j
	}
	ra := 0.0
	for _, o := range all {
		if o.inA {
			ra += o.rank
		}
	}
	u := ra - float64(n1*(n1+1))/2 // U of a: pairs where a is above b
	if !ties && n1*n2 <= 10000 {
		return exactUP(n1, n2, int(math.Round(u)))
	}
	mu := float64(n1*n2) / 2
	n := float64(n1 + n2)
	sigma := math.Sqrt(float64(n1*n2) / 12 * ((n + 1) - tieSum/(n*(n-1))))
	if sigma == 0 {
		return 1 // every value the same: nothing tells the samples apart
	}
	z := (math.Abs(u-mu) - 0.5) / sigma
	if z < 0 {
		z = 0
	}
	return math.Min(1, math.Erfc(z/math.Sqrt2))
}

// exactUP is the exact two-sided p-value of U = u for samples of n1 and
// n2 without ties: twice the smaller tail, at most 1.
func exactUP(n1, n2, u int) float64 {
	counts := uCounts(n1, n2)
	total, low, high := 0.0, 0.0, 0.0
	for k, c := range counts {
		total += c
		if k <= u {
			low += c
		}
		if k >= u {
			high += c
		}
	}
	return math.Min(1, 2*math.Min(low, high)/total)
}

// uCounts returns, for each U from 0 to n1 x n2, how many orderings of
// n1 and n2 distinct values give it: f(m, n, u) = f(m-1, n, u-n) +
// f(m, n-1, u), filled row by row over m.
func uCounts(n1, n2 int) []float64 {
	// prev[n][u] holds f(m-1, n, u); cur the row of m.
	prev := make([][]float64, n2+1)
	for n := range prev {
		prev[n] = []float64{1} // f(0, n, 0) = 1
	}
	for m := 1; m <= n1; m++ {
		cur := make([][]float64, n2+1)
		cur[0] = []float64{1} // f(m, 0, 0) = 1
		for n := 1; n <= n2; n++ {
			row := make([]float64, m*n+1)
			for u := range row {
				if u-n >= 0 && u-n < len(prev[n]) {
					row[u] += prev[n][u-n]
				}
				if u < len(cur[n-1]) {
					row[u] += cur[n-1][u]
				}
			}
			cur[n] = row
		}
		prev = cur
	}
	return prev[n2]
}
