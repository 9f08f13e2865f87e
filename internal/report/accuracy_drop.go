package report

import (
	"math"

	"github.com/perflab/perflab/internal/study"
)

// AccuracyDrop is the share of a baseline score a run loses, in percent of
// the baseline score, with its 95 % interval when both scores have a
// standard error (docs/statistics.md#accuracy).
type AccuracyDrop struct {
	Change    AccuracyChange
	Percent   float64 // (from - to) / from x 100: positive is a loss
	StdErr    float64 // of Percent, when Change.Tested
	Low, High float64 // its 95 % interval, when Change.Tested
}

// AccuracyDrops are the drops of run's scores from the same task and
// metric of base, in run's order, leaving out baseline scores of zero.
func AccuracyDrops(base, run *study.Run) []AccuracyDrop {
	var out []AccuracyDrop
	for _, c := range AccuracyChanges(base, run) {
		if c.From.Value == 0 {
			continue
		}
		d := AccuracyDrop{Change: c, Percent: -c.Diff / c.From.Value * 100}
		if c.Tested {
			d.StdErr = c.StdErr / math.Abs(c.From.Value) * 100
			d.Low, d.High = d.Percent-z95*d.StdErr, d.Percent+z95*d.StdErr
		}
		out = append(out, d)
	}
	return out
}

// PAgainst is the two-sided z test of the drop against limit percent: below
// stats.Alpha, the interval leaves limit out. NaN when untested.
func (d AccuracyDrop) PAgainst(limit float64) float64 {
	if !d.Change.Tested || d.StdErr <= 0 {
		return math.NaN()
	}
	return math.Erfc(math.Abs(d.Percent-limit) / d.StdErr / math.Sqrt2)
}

// AccuracyClaimTest is the score a published accuracy loss was decided on
// and the test of its drop against the claimed limit.
type AccuracyClaimTest struct {
	Drop  AccuracyDrop
	Limit float64 // the claimed loss, widened by its printed rounding
	P     float64 // two-sided z test of the drop against Limit
}
