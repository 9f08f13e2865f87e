package render

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/perflab/perflab/internal/report"
	"github.com/perflab/perflab/internal/study"
)

// sweepView is the section of one swept workload, its cells ready
// Markdown.
type sweepView struct {
	ID, Heading, Intro, Load, Chart, Best string
	Note                                  string // what ± means, when a load has repeats
	NearNote                              string // what ≈ in the frontier column means, when a point has it
	GoodputIntro                          string
	Goodput                               []string // one sentence per configuration with per-request data
	Budget                                bool     // a column says whether each point keeps the study's SLO
	Rows                                  []sweepRowView
	Raws                                  []sweepRawView
}

type sweepRowView struct {
	Name, Load, Output, PerGPU, TPOT, TTFT, Frontier, Meets string
}

// sweepRawView is the raw result of one point, under a line naming it.
type sweepRawView struct {
	Title, Raw string
}

// sloBudget writes a study's latency budget: "p99 TTFT ≤ 2000 ms, p99 TPOT ≤ 50 ms".
func sloBudget(slo *study.SLO, T func(string, ...any) string) string {
	var limits []string
	for _, l := range slo.Limits() {
		limits = append(limits, T("slo.limit", "Stat", slo.Stat, "Metric", T("slo.name."+l.Metric), "Limit", report.FormatNumber(l.Limit, 0)))
	}
	return strings.Join(limits, T("chart.list_separator"))
}

// sweeps are the section of each swept workload: its chart, a row per
// configuration and load (curves in run order, loads increasing), with an
// SLO the best point within it, and the raw result of every point.
func (p *reportPage) sweeps() []sweepView {
	var out []sweepView
	for i := range p.rep.Sweeps {
		out = append(out, p.sweep(&p.rep.Sweeps[i]))
	}
	return out
}

func (p *reportPage) sweep(sr *report.SweepResult) sweepView {
	T := p.loc.T
	key := sr.Workload.Sweep.Key
	v := sweepView{ID: anchorID(sr.Workload.ID), Heading: esc(T("sweep.heading", "Workload", p.workloadName(sr.Workload.ID))),
		Intro: T("sweep.intro." + key), Load: T("sweep.load." + key), Budget: sr.Limits != nil}
	v.Chart = p.chartImage("sweep-" + sr.Workload.ID)
	rawOf := map[string]int{} // file:line -> its index in v.Raws
	for _, c := range sr.Curves {
		for j := range c.Points {
			pt := &c.Points[j]
			v.Rows = append(v.Rows, p.sweepRow(&v, c.Run, pt))
			p.sweepRaws(&v, rawOf, c.Run, pt, T("sweep.at."+key, "Load", pt.Load.Expr()))
		}
	}
	if v.Budget {
		budget := sloBudget(p.rep.Study.SLO, T)
		if b := sr.Best; b != nil {
			value := perGPU(b)
			if b.Output.Repeated() {
				value = T("value.repeats", "Value", value, "HalfWidth", perGPUHalfWidth(b), "N", b.Output.Repeats)
			}
			v.Best = T("sweep.best", "Budget", budget, "Run", esc(b.Run.Name), "Load", T("sweep.at."+key, "Load", b.Load.Expr()), "Value", value)
			v.Best += bestCost(T, p.rep.Study.Price, sr.BestCost)
			if len(sr.Tied) > 0 {
				names := make([]string, len(sr.Tied))
				for i, t := range sr.Tied {
					names[i] = esc(t.Run.Name) + " · " + T("sweep.at."+key, "Load", t.Load.Expr())
				}
				v.Best = T("sentences", "First", v.Best, "Next", T("slo.tied", "Runs", strings.Join(names, T("list.separator"))))
			}
		} else {
			v.Best = T("sweep.none", "Budget", budget)
		}
		v.GoodputIntro, v.Goodput = p.sweepGoodput(sr)
	}
	return v
}

// sweepRow is one point's row; a mean of repeats gives v its note.
func (p *reportPage) sweepRow(v *sweepView, run *study.Run, pt *report.SweepPoint) sweepRowView {
	T := p.loc.T
	// A figure the block does not print links to the block.
	anchor := LineID(p.repoPath(pt.LogFile), pt.Block.Line)
	row := sweepRowView{Name: esc(run.Name), Output: p.interval(&pt.Output, anchor), TPOT: p.interval(pt.TPOT, anchor), TTFT: p.interval(pt.TTFT, anchor)}
	if pt.Load.Source.Line > 0 {
		row.Load = p.interval(&pt.Load, anchor)
	} else {
		row.Load = sourced(pt.Load.Expr(), anchor, T("sweep.load_from_name", "File", p.repoPath(pt.LogFile)))
	}
	title := T("sweep.per_gpu_source", "Output", pt.Output.Expr(), "GPUs", pt.Output.GPUs,
		"File", p.repoPath(pt.Output.Source.File), "Line", pt.Output.Source.Line)
	if pt.Output.Repeated() {
		// Every repeat the mean is made of, with its line.
		lines := make([]string, len(pt.Output.Samples))
		for k, sm := range pt.Output.Samples {
			lines[k] = fmt.Sprintf("%s:%d (%s)", p.repoPath(sm.Source.File), sm.Source.Line, report.FormatNumber(sm.Measured, min(pt.Output.Decimals, 4)))
		}
		title += " " + T("source.repeats", "N", pt.Output.Repeats, "Level", report.ConfidenceLevel, "Repeats", strings.Join(lines, T("chart.list_separator")))
	}
	row.PerGPU = sourced(perGPU(pt), anchor, title)
	if pt.Output.Repeated() {
		row.PerGPU = T("value.interval", "Value", row.PerGPU, "HalfWidth", perGPUHalfWidth(pt))
		v.Note = T("sweep.repeats_note", "Level", report.ConfidenceLevel)
	}
	switch {
	case pt.Frontier:
		row.Frontier = T("slo.yes")
	case pt.NearFrontier:
		row.Frontier = "≈"
		v.NearNote = T("sweep.near_frontier")
	}
	if v.Budget {
		row.Meets = T("slo.no")
		if pt.Meets {
			row.Meets = T("slo.yes")
		}
	}
	return row
}

// sweepRaws adds a point's raw results to v, titled by run and load at.
// A block is shown once, under every load it holds (a tool's JSON of all
// loads is one line); rawOf holds the index in v.Raws of each file:line.
func (p *reportPage) sweepRaws(v *sweepView, rawOf map[string]int, run *study.Run, pt *report.SweepPoint, at string) {
	T := p.loc.T
	shown := pt.LogFile + ":" + strconv.Itoa(pt.Block.Line)
	if k, ok := rawOf[shown]; ok {
		v.Raws[k].Title += T("chart.list_separator") + at
		return
	}
	rawOf[shown] = len(v.Raws)
	if pt.Repeats == nil {
		v.Raws = append(v.Raws, sweepRawView{Title: esc(run.Name) + " · " + at, Raw: p.rawResult(pt.LogFile, pt.Block)})
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
		v.Raws = append(v.Raws, sweepRawView{Title: esc(run.Name) + " · " + at + " · " + T("run.repeat_title", "N", rp.Log.Repeat, "Of", len(pt.Repeats)),
			Raw: p.rawResult(rp.Log.File, rp.Block)})
	}
}

// perGPU writes a point's output throughput per GPU with the decimals of
// the throughput it divides, at most two.
func perGPU(p *report.SweepPoint) string {
	return report.FormatNumber(p.PerGPU(), min(p.Output.Decimals, 2))
}

// perGPUHalfWidth writes the half-width of a mean's interval per GPU as
// perGPU writes the mean.
func perGPUHalfWidth(p *report.SweepPoint) string {
	return report.FormatNumber(p.PerGPUHalfWidth(), min(p.Output.Decimals, 2))
}

// bestCost is what tokens cost at the best point within the budget, after
// the sentence naming it; "" without a price.
func bestCost(T func(string, ...any) string, price *study.Price, c *report.PointCost) string {
	if c == nil || price == nil {
		return ""
	}
	args := []any{"Price", esc(price.Raw), "Currency", esc(price.Currency), "Output", report.FormatNumber(c.Output, 3)}
	if c.Total > 0 {
		return T("sweep.best_cost", append(args, "Total", report.FormatNumber(c.Total, 3))...)
	}
	return T("sweep.best_cost_output", args...)
}
