package check

import (
	"fmt"
	"math"

	"github.com/perflab/perflab/internal/report"
)

// RuleNonFinite: a figure the report computes is not a finite number (a
// change against a zero, a cost from an absurd price): it would print as
// "+Inf" or "NaN". It has no subject, so it cannot be acknowledged.
const RuleNonFinite = "non-finite"

// finiteRules reports every computed change and cost of a report that is
// not finite, naming the inputs it was computed from.
func finiteRules(rep *report.Report, add func(Diagnostic)) {
	change := func(file string, what string, c *report.Change) {
		if c == nil {
			return
		}
		for _, v := range []struct {
			name string
			x    float64
		}{{"change", c.Percent}, {"change per GPU", c.PerGPUPercent}} {
			if !finite(v.x) {
				add(Diagnostic{Rule: RuleNonFinite, Severity: Error, File: file, Line: 1,
					Message: fmt.Sprintf("%s: the %s is %v, computed as %s from %s (%s:%d) and %s (%s:%d), %d and %d GPUs: fix the value it divides by",
						what, v.name, v.x, c.Formula, c.To.Run, c.To.Source.File, c.To.Source.Line, c.From.Run, c.From.Source.File, c.From.Source.Line, c.To.GPUs, c.From.GPUs)})
				return
			}
		}
	}
	file := rep.Study.Pos.File
	for _, row := range rep.Rows {
		change(file, "conclusion on "+row.Workload.ID, row.Change)
	}
	for _, sr := range rep.Steps {
		change(file, "step "+sr.Step.ID, sr.Change)
		for _, rr := range sr.Runs {
			change(file, "step "+sr.Step.ID+", run "+rr.Run.ID, rr.Change)
		}
	}
	if rep.Cost != nil {
		for _, cr := range rep.Cost.Runs {
			if !finite(cr.PerMillion) || !finite(cr.TokensPerGPUHour) {
				add(Diagnostic{Rule: RuleNonFinite, Severity: Error, File: rep.Cost.Price.Pos.File, Line: rep.Cost.Price.Pos.Line,
					Message: fmt.Sprintf("the cost of run %s is %v per million output tokens, from a GPU-hour at %s %s, %d GPUs and %v output tok/s (%s:%d): check the price and the log",
						cr.Run.ID, cr.PerMillion, rep.Cost.Price.Raw, rep.Cost.Price.Currency, cr.Run.GPUs, cr.Output.Measured, cr.Output.Source.File, cr.Output.Source.Line)})
			}
		}
	}
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// NonFiniteError refuses to render a report with a figure that is not
// finite: nothing prints "+Inf".
func NonFiniteError(res Result) error {
	for _, d := range res.Diagnostics {
		if d.Rule == RuleNonFinite {
			return fmt.Errorf("cannot build: %s", d)
		}
	}
	return nil
}
