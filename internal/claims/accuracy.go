package claims

import (
	"fmt"
	"math"

	"github.com/perflab/perflab/internal/report"
	"github.com/perflab/perflab/internal/study"
)

// checkAccuracy checks a published accuracy loss ("less than 1% accuracy
// drop") against the runs' accuracy files: the largest relative drop of a
// score the claimed run shares with the baseline configuration's first run
// must not pass it, within its printed rounding.
func (r checker) checkAccuracy(c study.Claim, res *report.ClaimResult) {
	limit, dec, _, ok := ParsePercent(c.Printed)
	if !ok {
		res.Detail = fmt.Sprintf("%q is not a percentage such as 1%%", c.Printed)
		return
	}
	run := r.Study.Run(c.Run)
	if c.Run == "" && len(r.Recommended) > 0 {
		run = r.Recommended[0]
	}
	var base *study.Run
	if len(r.Baseline) > 0 {
		base = r.Baseline[0]
	}
	if run == nil || base == nil || len(run.Accuracy) == 0 || len(base.Accuracy) == 0 {
		res.Detail = "no accuracy result to compare: add the lm-eval results (" + study.AccuracyFile + ") of the baseline and of the claimed run"
		return
	}
	worst, found := 0.0, false
	for _, q := range run.Accuracy {
		for _, b := range base.Accuracy {
			if q.Task == b.Task && q.Metric == b.Metric && b.Value != 0 {
				worst, found = max(worst, (b.Value-q.Value)/b.Value*100), true
			}
		}
	}
	if !found {
		res.Detail = fmt.Sprintf("runs %s and %s share no accuracy score to compare", base.ID, run.ID)
		return
	}
	res.Checked = true
	res.Computed = fmt.Sprintf("%.*f%%", max(dec, 1), worst)
	res.Match = worst <= math.Abs(limit)+report.HalfUnit(dec)
	if !res.Match {
		res.Detail = fmt.Sprintf("published at most %s accuracy lost, but %s scores up to %s lower than %s", c.Printed, run.ID, res.Computed, base.ID)
	}
}
