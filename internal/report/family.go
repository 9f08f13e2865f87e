package report

import (
	"math"

	"github.com/perflab/perflab/internal/stats"
)

// Families of comparisons (docs/statistics.md, "Many comparisons"): a
// step's alternatives against its reference, the pairs of a ranking, the
// configurations within the latency budget against the best one, the
// cost order. Each comparison alone would print a false win in up to
// stats.Alpha of cases; a family of several would print one far more
// often. Holm's step-down keeps the chance of any false win in a family
// at stats.Alpha, and its tests are never less powerful than
// Bonferroni's.

// holmFamily holds a family of judged changes to one family-wise error:
// each keeps its verdict only when its Holm-adjusted p is below
// stats.Alpha, and records the family's size and its share of the level.
func holmFamily(changes []*Change) {
	ps := make([]float64, len(changes))
	for i, c := range changes {
		ps[i] = c.decisive
	}
	adjusted, levels := stats.Holm(ps), stats.HolmLevels(ps, stats.Alpha)
	for i, c := range changes {
		c.Family, c.PAdjusted = len(changes), adjusted[i]
		if !math.IsNaN(levels[i]) {
			c.Level = levels[i]
		}
		c.Noise = !(adjusted[i] < stats.Alpha) || !c.outside
	}
}

// pairTest is one comparison of a family: to against from at a band.
type pairTest struct {
	band     Band
	from, to Value
}

// distinctFamily judges the pairs as one family and reports which differ
// measurably.
func distinctFamily(pairs []pairTest) []bool {
	changes := make([]*Change, len(pairs))
	for i, p := range pairs {
		c := &Change{Percent: (p.to.Effective()/p.from.Effective() - 1) * 100}
		c.judge(p.from, p.to, p.band, false)
		changes[i] = c
	}
	holmFamily(changes)
	out := make([]bool, len(changes))
	for i, c := range changes {
		out[i] = !c.Noise
	}
	return out
}

// distinctFromFirst judges vals[0] against each other value, one family:
// out[i] says whether vals[i] differs from vals[0] (out[0] is false).
func distinctFromFirst(band Band, vals []Value) []bool {
	if len(vals) < 2 {
		return make([]bool, len(vals))
	}
	pairs := make([]pairTest, 0, len(vals)-1)
	for _, v := range vals[1:] {
		pairs = append(pairs, pairTest{band, vals[0], v})
	}
	return append([]bool{false}, distinctFamily(pairs)...)
}

// RankTies groups values in ranked order (best first) as a ranking
// prints them: every pair of the ranking is one family, and a value that
// the family cannot tell from the first of its group joins that group
// (tied[i] is true) where a new group would start. The first of a group
// is compared, not its last, so that A ≈ B ≈ C never hides that A and C
// differ. distinct[i][j] says whether values i and j differ.
func RankTies(band Band, vals []Value) (tied []bool, distinct [][]bool) {
	n := len(vals)
	distinct = make([][]bool, n)
	for i := range distinct {
		distinct[i] = make([]bool, n)
	}
	var pairs []pairTest
	var at [][2]int
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			pairs = append(pairs, pairTest{band, vals[i], vals[j]})
			at = append(at, [2]int{i, j})
		}
	}
	for k, d := range distinctFamily(pairs) {
		i, j := at[k][0], at[k][1]
		distinct[i][j], distinct[j][i] = d, d
	}
	tied = make([]bool, n)
	leader := 0
	for i := 1; i < n; i++ {
		if distinct[leader][i] {
			leader = i
			continue
		}
		tied[i] = true
	}
	return tied, distinct
}
