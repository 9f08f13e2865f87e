package render

import "github.com/perflab/perflab/internal/report"

// sloView is the latency-budget section, one view for both formats.
type sloView struct {
	Intro, Best       rich
	GoodputNote       rich // what the goodput column is, when there is one
	BudgetGoodputNote rich // what the budget's goodput column is, when there is one
	BorderlineNote    rich // what "borderline" means, when a row is
	Headline          string
	Headers           []string
	Rows              []sloRowView
}

type sloRowView struct {
	Name, Headline, Meets rich
	Values                []rich
}

// slo is the latency-budget section: each run's figures against the
// study's budget, and the best run within it.
func (p *reportPage) slo() *sloView {
	loc, res := p.loc, p.rep.SLO
	if res == nil {
		return nil
	}
	v := &sloView{Best: loc.R("slo.none")}
	for _, l := range res.Limits {
		v.Headers = append(v.Headers, loc.T("slo.metric."+l.Metric, "Stat", res.SLO.Stat))
	}
	if res.Goodput {
		v.Headers = append(v.Headers, loc.T("slo.goodput"))
		v.GoodputNote = loc.R("slo.goodput_note")
	}
	if res.BudgetGoodput {
		v.Headers = append(v.Headers, loc.T("slo.budget_goodput"))
		v.BudgetGoodputNote = loc.R("slo.budget_goodput_note")
	}
	v.Intro = loc.R("slo.intro", "Budget", sloBudget(res.SLO, loc))
	v.Headline = loc.T("metric." + p.rep.Headline.Key)
	for i := range res.Runs {
		v.Rows = append(v.Rows, p.sloRow(v, res, &res.Runs[i]))
	}
	if res.Best != nil {
		v.Best = loc.R("slo.best", "Run", res.Best.Run.Name, "Value", p.valueRich(res.Best.Headline, "run-"+anchorID(res.Best.Run.ID)), "Unit", richFigure(p.rep.Headline.Unit))
		if len(res.Tied) > 0 {
			v.Best = loc.R("sentences", "First", v.Best, "Next", loc.R("slo.tied", "Runs", tiedNames(loc, res.Tied)))
		}
	}
	return v
}

// sloRow is one run's row; a borderline run gives v its note.
func (p *reportPage) sloRow(v *sloView, res *report.SLOResult, sr *report.SLORun) sloRowView {
	loc := p.loc
	anchor := "run-" + anchorID(sr.Run.ID)
	row := sloRowView{Name: richText(sr.Run.Name), Headline: p.valueRich(sr.Headline, anchor), Meets: loc.R("slo.no")}
	if sr.Meets {
		row.Meets = loc.R("slo.yes")
	}
	if sr.Borderline {
		row.Meets, v.BorderlineNote = loc.R("slo.borderline"), loc.R("slo.borderline_note")
	}
	for _, val := range sr.Values {
		row.Values = append(row.Values, p.valueRich(val, anchor))
	}
	if res.Goodput {
		row.Values = append(row.Values, p.valueRich(sr.Goodput, anchor))
	}
	if res.BudgetGoodput {
		cell := richFigure("—")
		if g := sr.BudgetGoodput; g != nil {
			cell = richJoin(p.valueRich(&g.Value, anchor), loc.R("paren.after", "Text", loc.R("slo.good_of", "Good", g.Good, "Total", g.Total)))
		}
		row.Values = append(row.Values, cell)
	}
	return row
}
