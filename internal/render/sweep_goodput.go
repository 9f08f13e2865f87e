package render

import "github.com/perflab/perflab/internal/report"

// sweepGoodput says, per configuration whose every load kept per-request
// arrays, the highest load at which enough requests keep the budget; nil
// when none did: without the arrays the page says nothing.
func (p *reportPage) sweepGoodput(sr *report.SweepResult) (intro rich, lines []rich) {
	loc := p.loc
	key := sr.Workload.Sweep.Key
	target := richFigure(report.FormatShort(report.GoodputTarget * 100))
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
		load := richFigure(pt.Load.Expr())
		args := []any{"Run", c.Run.Name, "Load", load, "At", loc.R("sweep.at."+key, "Load", load),
			"PerGPU", richFigure(report.FormatShort(g.PerGPU)), "Good", a.Good, "Total", a.Total,
			"Share", richFigure(report.FormatNumber(a.Share()*100, 1)), "Target", target,
			"Low", richFigure(report.FormatNumber(lo*100, 1)), "High", richFigure(report.FormatNumber(hi*100, 1))}
		line := loc.R("sweep.goodput."+key, args...)
		if g.Point == nil {
			line = loc.R("sweep.goodput_none", args...)
		}
		if g.Borderline {
			line = richJoin(line, richFigure(loc.SentenceBreak()), loc.R("sweep.goodput_borderline", "Target", target))
		}
		lines = append(lines, line)
	}
	if len(lines) == 0 {
		return rich{}, nil
	}
	return loc.R("sweep.goodput_intro", "Budget", sloBudget(p.rep.Study.SLO, loc), "Target", target), lines
}
