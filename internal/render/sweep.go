package render

import (
	"strconv"

	"github.com/perflab/perflab/internal/report"
	"github.com/perflab/perflab/internal/study"
)

// sweepView is the section of one swept workload in both formats.
type sweepView struct {
	ID             string
	Heading, Intro rich
	Load           string // the load column's header
	Chart          rich
	Best           rich
	Note           rich // what ± means, when a load has repeats
	NearNote       rich // what ≈ in the frontier column means, when a point has it
	GoodputIntro   rich
	Goodput        []rich // one sentence per configuration with per-request data
	Budget         bool   // a column says whether each point keeps the study's SLO
	Rows           []sweepRowView
	Raws           []sweepRawView
}

type sweepRowView struct {
	Name, Load, Output, PerGPU, TPOT, TTFT, Frontier, Meets rich
}

// sweepRawView is the raw result of one point, under a line naming it.
type sweepRawView struct {
	Title, Raw rich
}

// sloBudget writes a study's latency budget: "p99 TTFT ≤ 2000 ms, p99 TPOT ≤ 50 ms".
func sloBudget(slo *study.SLO, loc *localizer) rich {
	var limits []rich
	for _, l := range slo.Limits() {
		limits = append(limits, loc.R("slo.limit", "Stat", richFigure(slo.Stat), "Metric", loc.R("slo.name."+l.Metric), "Limit", richFigure(report.FormatNumber(l.Limit, 0))))
	}
	return richList(loc.R("chart.list_separator"), limits...)
}

// sweeps are the section of each swept workload, made once a page: its
// chart, a row per configuration and load (curves in run order, loads
// increasing), with an SLO the best point within it, and the raw result
// of every point.
func (p *reportPage) Sweeps() []sweepView {
	return p.sweepsV.get(func() (views []sweepView) {
		for i := range p.rep.Sweeps {
			views = append(views, p.sweep(&p.rep.Sweeps[i]))
		}
		return views
	})
}

func (p *reportPage) sweep(sr *report.SweepResult) sweepView {
	loc := p.loc
	key := sr.Workload.Sweep.Key
	at := func(pt *report.SweepPoint) rich { return loc.R("sweep.at."+key, "Load", richFigure(pt.Load.Expr())) }
	v := sweepView{ID: anchorID(sr.Workload.ID), Heading: richText(loc.T("sweep.heading", "Workload", p.workloadName(sr.Workload.ID))),
		Intro: loc.R("sweep.intro." + key), Load: loc.T("sweep.load." + key), Budget: sr.Limits != nil, Chart: p.richChart("sweep-" + sr.Workload.ID)}
	rawOf := map[string]int{} // file:line -> its index in v.Raws
	for _, c := range sr.Curves {
		for j := range c.Points {
			pt := &c.Points[j]
			v.Rows = append(v.Rows, p.sweepRow(&v, c.Run, pt))
			p.sweepRaws(&v, rawOf, c.Run, pt, at(pt))
		}
	}
	if v.Budget {
		budget := sloBudget(p.rep.Study.SLO, loc)
		if b := sr.Best; b != nil {
			value := richFigure(perGPU(b, b.PerGPU()))
			if b.Output.Repeated() {
				value = loc.R("value.repeats", "Value", value, "HalfWidth", richFigure(perGPU(b, b.PerGPUHalfWidth())), "N", b.Output.Repeats)
			}
			v.Best = loc.R("sweep.best", "Budget", budget, "Run", b.Run.Name, "Load", at(b), "Value", value)
			v.Best = richJoin(v.Best, bestCost(loc, p.rep.Study.Price, sr.BestCost))
			if len(sr.Tied) > 0 {
				names := make([]rich, len(sr.Tied))
				for i, t := range sr.Tied {
					names[i] = richJoin(richText(t.Run.Name), richFigure(" · "), at(t))
				}
				v.Best = loc.R("sentences", "First", v.Best, "Next", loc.R("slo.tied", "Runs", richList(loc.R("list.separator"), names...)))
			}
		} else {
			v.Best = loc.R("sweep.none", "Budget", budget)
		}
		v.GoodputIntro, v.Goodput = p.sweepGoodput(sr)
	}
	return v
}

// sweepRow is one point's row; a mean of repeats gives v its note.
func (p *reportPage) sweepRow(v *sweepView, run *study.Run, pt *report.SweepPoint) sweepRowView {
	loc := p.loc
	// A figure the block does not print links to the block.
	anchor := LineID(p.repoPath(pt.LogFile), pt.Block.Line)
	row := sweepRowView{Name: richText(run.Name), Output: p.intervalRich(&pt.Output, anchor), TPOT: p.intervalRich(pt.TPOT, anchor), TTFT: p.intervalRich(pt.TTFT, anchor)}
	if pt.Load.Source.Line > 0 {
		row.Load = p.intervalRich(&pt.Load, anchor)
	} else {
		row.Load = p.link(richFigure(pt.Load.Expr()), "#"+anchor, loc.T("sweep.load_from_name", "File", p.repoPath(pt.LogFile)))
	}
	title := loc.T("sweep.per_gpu_source", "Output", pt.Output.Expr(), "GPUs", pt.Output.GPUs,
		"File", p.repoPath(pt.Output.Source.File), "Line", pt.Output.Source.Line) + p.repeatsTitle(&pt.Output)
	row.PerGPU = p.link(richFigure(perGPU(pt, pt.PerGPU())), "#"+anchor, title)
	if pt.Output.Repeated() {
		row.PerGPU = loc.R("value.interval", "Value", row.PerGPU, "HalfWidth", richFigure(perGPU(pt, pt.PerGPUHalfWidth())))
		v.Note = loc.R("sweep.repeats_note", "Level", report.ConfidenceLevel)
	}
	switch {
	case pt.Frontier:
		row.Frontier = loc.R("slo.yes")
	case pt.NearFrontier:
		row.Frontier = richFigure("≈")
		v.NearNote = loc.R("sweep.near_frontier")
	}
	if v.Budget {
		row.Meets = loc.R("slo.no")
		if pt.Meets {
			row.Meets = loc.R("slo.yes")
		}
	}
	return row
}

// sweepRaws adds a point's raw results to v, titled by run and load at.
// A block is shown once, under every load it holds (a tool's JSON of all
// loads is one line); rawOf holds the index in v.Raws of each file:line.
func (p *reportPage) sweepRaws(v *sweepView, rawOf map[string]int, run *study.Run, pt *report.SweepPoint, at rich) {
	loc := p.loc
	shown := pt.LogFile + ":" + strconv.Itoa(pt.Block.Line)
	if k, ok := rawOf[shown]; ok {
		v.Raws[k].Title = richJoin(v.Raws[k].Title, loc.R("chart.list_separator"), at)
		return
	}
	rawOf[shown] = len(v.Raws)
	title := richJoin(richText(run.Name), richFigure(" · "), at)
	if pt.Repeats == nil {
		v.Raws = append(v.Raws, sweepRawView{Title: title, Raw: p.rawRich(pt.LogFile, pt.Block)})
		return
	}
	// Every repeat a mean is made of, each under its number.
	for k, rp := range pt.Repeats {
		shown := rp.Log.File + ":" + strconv.Itoa(rp.Block.Line)
		if k > 0 {
			if _, ok := rawOf[shown]; ok {
				continue // shown under another load
			}
			rawOf[shown] = len(v.Raws)
		}
		v.Raws = append(v.Raws, sweepRawView{Title: richJoin(title, richFigure(" · "), loc.R("run.repeat_title", "N", rp.Log.Repeat, "Of", len(pt.Repeats))),
			Raw: p.rawRich(rp.Log.File, rp.Block)})
	}
}

// perGPU writes x, a point's output throughput per GPU or its interval's
// half-width, with the decimals of the throughput it divides, at most two.
func perGPU(p *report.SweepPoint, x float64) string {
	return report.FormatNumber(x, min(p.Output.Decimals, 2))
}

// bestCost is what tokens cost at the best point within the budget, after
// the sentence naming it; zero without a price.
func bestCost(loc *localizer, price *study.Price, c *report.PointCost) rich {
	if c == nil || price == nil {
		return rich{}
	}
	args := []any{"Price", price.Raw, "Currency", price.Currency, "Output", richFigure(report.FormatNumber(c.Output, 3))}
	if c.Total > 0 {
		return loc.R("sweep.best_cost", append(args, "Total", richFigure(report.FormatNumber(c.Total, 3)))...)
	}
	return loc.R("sweep.best_cost_output", args...)
}
