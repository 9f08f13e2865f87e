package render

import "github.com/perflab/perflab/internal/report"

// sloView is the latency-budget section, its cells ready Markdown.
type sloView struct {
	Budget, Headline, Best string
	GoodputNote            string // what the goodput column is, when there is one
	BudgetGoodputNote      string // what the budget's goodput column is, when there is one
	BorderlineNote         string // what "borderline" means, when a row is
	Headers                []string
	Rows                   []sloRowView
}

type sloRowView struct {
	Name, Headline, Meets string
	Values                []string
}

// slo is the latency-budget section: each run's figures against the
// study's budget, and the best run within it.
func (p *reportPage) slo() *sloView {
	loc, res := p.loc, p.rep.SLO
	if res == nil {
		return nil
	}
	v := &sloView{}
	for _, l := range res.Limits {
		v.Headers = append(v.Headers, loc.T("slo.metric."+l.Metric, "Stat", res.SLO.Stat))
	}
	if res.Goodput {
		v.Headers = append(v.Headers, loc.T("slo.goodput"))
		v.GoodputNote = loc.T("slo.goodput_note")
	}
	if res.BudgetGoodput {
		v.Headers = append(v.Headers, loc.T("slo.budget_goodput"))
		v.BudgetGoodputNote = loc.T("slo.budget_goodput_note")
	}
	v.Budget = sloBudget(res.SLO, loc).md
	v.Headline = loc.T("metric." + p.rep.Headline.Key)
	for i := range res.Runs {
		v.Rows = append(v.Rows, p.sloRow(v, res, &res.Runs[i]))
	}
	if res.Best != nil {
		v.Best = loc.T("slo.best", "Run", esc(res.Best.Run.Name), "Value", p.value(res.Best.Headline, "run-"+anchorID(res.Best.Run.ID)), "Unit", p.rep.Headline.Unit)
		if len(res.Tied) > 0 {
			v.Best = loc.T("sentences", "First", v.Best, "Next", loc.T("slo.tied", "Runs", tiedNames(loc, res.Tied)))
		}
	} else {
		v.Best = loc.T("slo.none")
	}
	return v
}

// sloRow is one run's row; a borderline run gives v its note.
func (p *reportPage) sloRow(v *sloView, res *report.SLOResult, sr *report.SLORun) sloRowView {
	loc := p.loc
	anchor := "run-" + anchorID(sr.Run.ID)
	row := sloRowView{Name: esc(sr.Run.Name), Headline: p.value(sr.Headline, anchor), Meets: loc.T("slo.no")}
	if sr.Meets {
		row.Meets = loc.T("slo.yes")
	}
	if sr.Borderline {
		row.Meets, v.BorderlineNote = loc.T("slo.borderline"), loc.T("slo.borderline_note")
	}
	for _, val := range sr.Values {
		row.Values = append(row.Values, p.value(val, anchor))
	}
	if res.Goodput {
		row.Values = append(row.Values, p.value(sr.Goodput, anchor))
	}
	if res.BudgetGoodput {
		cell := "—"
		if g := sr.BudgetGoodput; g != nil {
			cell = p.value(&g.Value, anchor) + loc.T("paren.after", "Text", loc.T("slo.good_of", "Good", g.Good, "Total", g.Total))
		}
		row.Values = append(row.Values, cell)
	}
	return row
}
