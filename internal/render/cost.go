package render

import (
	"slices"
	"strconv"

	"github.com/perflab/perflab/internal/report"
)

// costView is the cost section, one view for both formats.
type costView struct {
	Intro, Currency rich
	Rows            []costRowView
	// Order is the runs in order of cost with "≈" between those the
	// measurements cannot tell apart; nil when every step is measurable
	// (the table's order says it).
	Order *rich
}

type costRowView struct {
	Name, Output           rich
	PerGPUHour, PerMillion string
	PerMillionTotal        string // "—" without a total throughput
	GPUs                   int
}

// cost is what each run's output tokens cost at the study's price, made
// once a page for both formats.
func (p *reportPage) Cost() *costView { return p.costV.get(p.newCost) }

func (p *reportPage) newCost() *costView {
	loc, res := p.loc, p.rep.Cost
	if res == nil || len(res.Runs) == 0 {
		return nil
	}
	pr := res.Price
	v := &costView{Intro: loc.R("cost.intro", "Price", pr.Raw, "Currency", pr.Currency), Currency: richText(pr.Currency)}
	if pr.Shared {
		v.Intro = loc.R("cost.intro_shared", "Price", pr.Raw, "Currency", pr.Currency, "GPU", p.s.Hardware.GPU,
			"Source", richCode(p.repoPath(pr.Pos.File)+":"+strconv.Itoa(pr.Pos.Line)))
	}
	for _, cr := range res.Runs {
		row := costRowView{Name: richText(cr.Run.Name), GPUs: cr.Run.GPUs, Output: p.valueRich(cr.Output, "run-"+anchorID(cr.Run.ID)),
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
// next group, "≈" within a group; nil without a tie.
func costOrder(loc *localizer, res *report.CostResult) *rich {
	if !slices.ContainsFunc(res.Runs, func(cr report.CostRun) bool { return cr.TiedWith != "" }) {
		return nil
	}
	var parts []rich
	for i, cr := range res.Runs {
		switch {
		case i == 0:
		case cr.TiedWith != "":
			parts = append(parts, rich{" ≈ ", " ≈ "})
		default:
			parts = append(parts, rich{" < ", " &lt; "})
		}
		parts = append(parts, richText(cr.Run.Name))
	}
	order := loc.R("cost.order", "Order", richJoin(parts...))
	return &order
}
