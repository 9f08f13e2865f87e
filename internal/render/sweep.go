package render

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/perflab/perflab/internal/benchlog"
	"github.com/perflab/perflab/internal/chart"
	"github.com/perflab/perflab/internal/report"
	"github.com/perflab/perflab/internal/study"
)

// pageHelpers are the page's own ways of writing a figure, shared with the
// sections made outside Report: value and sourced link a figure to its log
// line with its provenance on hover (value writes a mean of repeats as
// "1000.00 ± 24.84", its repeats on hover); rawResult fences a block, its lines
// numbered the first time it is shown.
type pageHelpers struct {
	T                      func(string, ...any) string
	value                  func(*report.Value, string) string
	sourced                func(text, anchor, title string) string
	rawResult              func(file string, b *benchlog.Block) string
	repoPath, workloadName func(string) string
}

// sloBudget writes a study's latency budget: "p99 TTFT ≤ 2000 ms, p99 TPOT ≤ 50 ms".
func sloBudget(slo *study.SLO, T func(string, ...any) string) string {
	var limits []string
	for _, l := range slo.Limits() {
		limits = append(limits, T("slo.limit", "Stat", slo.Stat, "Metric", T("slo.name."+l.Metric), "Limit", report.FormatNumber(l.Limit, 0)))
	}
	return strings.Join(limits, T("chart.list_separator"))
}

// sweepViews makes the section of each swept workload: its chart, a row per
// configuration and load (curves in run order, loads increasing), with an
// SLO the best point within it, and the raw result of every point.
func sweepViews(rep *report.Report, charts []chart.Chart, h pageHelpers) []sweepView {
	T := h.T
	var out []sweepView
	for i := range rep.Sweeps {
		sr := &rep.Sweeps[i]
		key := sr.Workload.Sweep.Key
		v := sweepView{ID: anchorID(sr.Workload.ID), Heading: esc(T("sweep.heading", "Workload", h.workloadName(sr.Workload.ID))),
			Intro: T("sweep.intro." + key), Load: T("sweep.load." + key), Budget: sr.Limits != nil}
		for _, ch := range charts {
			if ch.Name == "sweep-"+sr.Workload.ID {
				v.Chart = "![" + esc(ch.Description) + "](" + linkPath(rep.Study.ID+"/"+ch.Name+".svg") + ")"
			}
		}
		rawOf := map[string]int{} // file:line -> its index in v.Raws
		for _, c := range sr.Curves {
			for j := range c.Points {
				p := &c.Points[j]
				// A figure the block does not print links to the block.
				anchor := LineID(h.repoPath(p.LogFile), p.Block.Line)
				row := sweepRowView{Name: esc(c.Run.Name), Output: h.value(&p.Output, anchor), TPOT: h.value(p.TPOT, anchor), TTFT: h.value(p.TTFT, anchor)}
				if p.Load.Source.Line > 0 {
					row.Load = h.value(&p.Load, anchor)
				} else {
					row.Load = h.sourced(p.Load.Expr(), anchor, T("sweep.load_from_name", "File", h.repoPath(p.LogFile)))
				}
				title := T("sweep.per_gpu_source", "Output", p.Output.Expr(), "GPUs", p.Output.GPUs,
					"File", h.repoPath(p.Output.Source.File), "Line", p.Output.Source.Line)
				if p.Output.Repeated() {
					// Every repeat the mean is made of, with its line.
					lines := make([]string, len(p.Output.Samples))
					for k, sm := range p.Output.Samples {
						lines[k] = fmt.Sprintf("%s:%d (%s)", h.repoPath(sm.Source.File), sm.Source.Line, report.FormatNumber(sm.Measured, min(p.Output.Decimals, 4)))
					}
					title += " " + T("source.repeats", "N", p.Output.Repeats, "Level", report.ConfidenceLevel, "Repeats", strings.Join(lines, T("chart.list_separator")))
				}
				row.PerGPU = h.sourced(perGPU(p), anchor, title)
				if p.Output.Repeated() {
					row.PerGPU = T("value.interval", "Value", row.PerGPU, "HalfWidth", perGPUHalfWidth(p))
					v.Note = T("sweep.repeats_note", "Level", report.ConfidenceLevel)
				}
				if p.Frontier {
					row.Frontier = T("slo.yes")
				}
				if v.Budget {
					row.Meets = T("slo.no")
					if p.Meets {
						row.Meets = T("slo.yes")
					}
				}
				v.Rows = append(v.Rows, row)
				// A block shown once, under every load it holds (a tool's
				// JSON of all loads is one line).
				at := T("sweep.at."+key, "Load", p.Load.Expr())
				shown := p.LogFile + ":" + strconv.Itoa(p.Block.Line)
				if k, ok := rawOf[shown]; ok {
					v.Raws[k].Title += T("chart.list_separator") + at
					continue
				}
				rawOf[shown] = len(v.Raws)
				if p.Repeats == nil {
					v.Raws = append(v.Raws, sweepRawView{Title: esc(c.Run.Name) + " · " + at, Raw: h.rawResult(p.LogFile, p.Block)})
					continue
				}
				// Every repeat a mean is made of, each under its number.
				for k, rp := range p.Repeats {
					shown := rp.Log.File + ":" + strconv.Itoa(rp.Block.Line)
					if k > 0 {
						if _, ok := rawOf[shown]; ok {
							continue // shown under another load
						}
						rawOf[shown] = len(v.Raws)
					}
					v.Raws = append(v.Raws, sweepRawView{Title: esc(c.Run.Name) + " · " + at + " · " + T("run.repeat_title", "N", rp.Log.Repeat, "Of", len(p.Repeats)),
						Raw: h.rawResult(rp.Log.File, rp.Block)})
				}
			}
		}
		if v.Budget {
			budget := sloBudget(rep.Study.SLO, T)
			if b := sr.Best; b != nil {
				value := perGPU(b)
				if b.Output.Repeated() {
					value = T("value.repeats", "Value", value, "HalfWidth", perGPUHalfWidth(b), "N", b.Output.Repeats)
				}
				v.Best = T("sweep.best", "Budget", budget, "Run", esc(b.Run.Name), "Load", T("sweep.at."+key, "Load", b.Load.Expr()), "Value", value)
				v.Best += bestCost(T, rep.Study.Price, sr.BestCost)
			} else {
				v.Best = T("sweep.none", "Budget", budget)
			}
		}
		out = append(out, v)
	}
	return out
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
