package claims

import (
	"fmt"
	"regexp"

	"github.com/perflab/perflab/internal/report"
	"github.com/perflab/perflab/internal/study"
)

var successClaim = regexp.MustCompile(`(?i)success rate:?\s*(\d+(?:\.\d+)?)\s*%`)

func (r checker) checkSuccess(c study.Claim, res *Result) {
	m := successClaim.FindStringSubmatch(c.Printed)
	run := r.Study.Run(c.Run)
	if m == nil || run == nil || r.Main == nil {
		res.Detail = fmt.Sprintf("%q is not a success rate of a run perflab knows", c.Printed)
		return
	}
	b := run.Result(r.Main.ID)
	done, ok := report.MetricOf(b, "completed")
	if !ok {
		res.Detail = fmt.Sprintf("run %s has no result on %s", c.Run, r.Main.ID)
		return
	}
	sent := 0.0
	if f, ok := b.Metrics["failed"]; ok {
		sent = done.Value + f.Value
	}
	if r.Main.NumPrompts > 0 {
		sent = float64(r.Main.NumPrompts)
	}
	if sent <= 0 {
		res.Detail = "neither the block nor the workload says how many requests were sent"
		return
	}
	want, dec, _ := parseNumber(m[1])
	got := done.Value / sent * 100
	res.Checked = true
	res.Computed = fmt.Sprintf("%.*f%%", dec, got)
	res.Match = report.Interval{Lo: got, Hi: got}.Holds(want, dec)
	if !res.Match {
		res.Detail = fmt.Sprintf("published %s, but %s:%d completed %s of the %.0f requests the workload sends = %s", c.Printed, b.File, done.Line, done.Raw, sent, res.Computed)
	}
}
