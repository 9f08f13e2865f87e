package render

import (
	"strconv"
	"strings"

	"github.com/perflab/perflab/internal/report"
)

// costView is the cost section, its cells ready Markdown.
type costView struct {
	Intro, Currency string
	Rows            []costRowView
	// Order is the runs in order of cost with "≈" between those the
	// measurements cannot tell apart; empty when every step is measurable
	// (the table's order says it).
	Order string
}

type costRowView struct {
	Name, Output, PerGPUHour, PerMillion string
	PerMillionTotal                      string // "—" without a total throughput
	GPUs                                 int
}

// cost is what each run's output tokens cost at the study's price.
func (p *reportPage) cost() *costView {
	loc, res := p.loc, p.rep.Cost
	if res == nil || len(res.Runs) == 0 {
		return nil
	}
	v := &costView{Intro: loc.T("cost.intro", "Price", esc(res.Price.Raw), "Currency", esc(res.Price.Currency)), Currency: esc(res.Price.Currency)}
	if pr := res.Price; pr.Shared {
		v.Intro = loc.T("cost.intro_shared", "Price", esc(pr.Raw), "Currency", esc(pr.Currency), "GPU", esc(p.s.Hardware.GPU),
			"Source", code(p.repoPath(pr.Pos.File)+":"+strconv.Itoa(pr.Pos.Line)))
	}
	for _, cr := range res.Runs {
		row := costRowView{Name: esc(cr.Run.Name), GPUs: cr.Run.GPUs, Output: p.value(cr.Output, "run-"+anchorID(cr.Run.ID)),
			PerGPUHour: report.FormatNumber(cr.TokensPerGPUHour, 0), PerMillion: report.FormatNumber(cr.PerMillion, 3), PerMillionTotal: "—"}
		if cr.PerMillionTotal > 0 {
			row.PerMillionTotal = report.FormatNumber(cr.PerMillionTotal, 3)
		}
		v.Rows = append(v.Rows, row)
	}
	v.Order = costOrder(loc, res)
	return v
}

// costOrder lists the runs cheapest first, "<" between a run and the
// next group, "≈" within a group; empty without a tie.
func costOrder(loc *localizer, res *report.CostResult) string {
	var b strings.Builder
	ties := false
	for i, cr := range res.Runs {
		switch {
		case i == 0:
		case cr.TiedWith != "":
			b.WriteString(" ≈ ")
			ties = true
		default:
			b.WriteString(" < ")
		}
		b.WriteString(esc(cr.Run.Name))
	}
	if !ties {
		return ""
	}
	return loc.T("cost.order", "Order", b.String())
}
