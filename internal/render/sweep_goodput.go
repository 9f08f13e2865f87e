package render

import (
	"strings"

	"github.com/perflab/perflab/internal/report"
)

// sweepGoodput says, per configuration whose every load kept per-request
// arrays, the highest load at which enough requests keep the budget; nil
// when none did: without the arrays the page says nothing.
func (p *reportPage) sweepGoodput(sr *report.SweepResult) (intro string, lines []string) {
	T := p.loc.T
	key := sr.Workload.Sweep.Key
	target := shortNumber(report.GoodputTarget * 100)
	for _, c := range sr.Curves {
		g := c.Goodput
		if g == nil {
			continue
		}
		pt := g.Point
		if pt == nil {
			pt = &c.Points[0]
		}
		a := pt.Attainment
		lo, hi := a.Interval()
		args := []any{"Run", esc(c.Run.Name), "Load", pt.Load.Expr(), "At", T("sweep.at."+key, "Load", pt.Load.Expr()),
			"PerGPU", shortNumber(g.PerGPU), "Good", a.Good, "Total", a.Total,
			"Share", report.FormatNumber(a.Share()*100, 1), "Target", target,
			"Low", report.FormatNumber(lo*100, 1), "High", report.FormatNumber(hi*100, 1)}
		line := T("sweep.goodput."+key, args...)
		if g.Point == nil {
			line = T("sweep.goodput_none", args...)
		}
		if g.Borderline {
			line += p.loc.sentenceBreak() + T("sweep.goodput_borderline", "Target", target)
		}
		lines = append(lines, line)
	}
	if len(lines) == 0 {
		return "", nil
	}
	return T("sweep.goodput_intro", "Budget", sloBudget(p.rep.Study.SLO, T), "Target", target), lines
}

// shortNumber writes x with at most two decimals and no trailing zeros:
// "8", "2.5", "0.33".
func shortNumber(x float64) string {
	s := report.FormatNumber(x, 2)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	if s == "-0" {
		return "0"
	}
	return s
}
