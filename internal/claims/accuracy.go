package claims

import (
	"fmt"
	"math"
	"strings"

	"github.com/perflab/perflab/internal/report"
	"github.com/perflab/perflab/internal/study"
)

// checkAccuracy checks a published accuracy loss ("less than 1% accuracy
// drop") against the runs' accuracy files: the largest relative drop of a
// score the claimed run shares with the baseline configuration's first run
// must not pass it, within its printed rounding. Where the scores carry a
// standard error, a drop whose 95 % interval reaches past the limit leaves
// the claim unsupported (docs/statistics.md#accuracy).
func (r checker) checkAccuracy(c study.Claim, res *Result) {
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
	drops := report.AccuracyDrops(base, run)
	if len(drops) == 0 {
		res.Detail = fmt.Sprintf("runs %s and %s share no accuracy score to compare", base.ID, run.ID)
		return
	}
	worst, widest := 0, -1 // the largest drop; the tested one with the highest bound
	for i, d := range drops {
		if d.Percent > drops[worst].Percent {
			worst = i
		}
		if d.Change.Tested && (widest < 0 || d.High > drops[widest].High) {
			widest = i
		}
	}
	bound := math.Abs(limit) + report.HalfUnit(dec)
	res.Checked = true
	res.Computed = fmt.Sprintf("%.*f%%", max(dec, 1), max(drops[worst].Percent, 0))
	res.Match = drops[worst].Percent <= bound
	decided := worst
	if res.Match && widest >= 0 {
		decided = widest
		res.Unsupported = drops[widest].High > bound
	}
	if d := drops[decided]; d.Change.Tested {
		res.Accuracy = &report.AccuracyClaimTest{Drop: d, Limit: bound, P: d.PAgainst(bound)}
	}
	switch {
	case !res.Match:
		res.Detail = fmt.Sprintf("published at most %s accuracy lost, but %s scores up to %s lower than %s%s",
			c.Printed, run.ID, res.Computed, base.ID, testText(res.Accuracy, dec))
	case res.Unsupported:
		res.Detail = fmt.Sprintf("published at most %s accuracy lost; %s loses %s against %s%s: the interval reaches past %s, so the evaluations cannot support the claim",
			c.Printed, run.ID, fmt.Sprintf("%.*f%%", max(dec, 1), drops[widest].Percent), base.ID, testText(res.Accuracy, dec), c.Printed)
	}
}

// testText is the score, interval and p of a tested drop, "" untested.
func testText(t *report.AccuracyClaimTest, dec int) string {
	if t == nil {
		return ""
	}
	d := max(dec, 1)
	metric, _, _ := strings.Cut(t.Drop.Change.To.Metric, ",")
	return fmt.Sprintf(" on %s %s (95 %% interval %.*f to %.*f %%, %s against %.*f%%, the most the printed figure allows)",
		t.Drop.Change.To.Task, metric, d, t.Drop.Low, d, t.Drop.High, report.FormatP(t.P), dec+1, t.Limit)
}
