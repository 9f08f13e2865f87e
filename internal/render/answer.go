package render

import (
	"strings"

	"github.com/perflab/perflab/internal/plain"
	"github.com/perflab/perflab/internal/report"
)

// The answer a reader takes in first (report.Answer): the recommended
// configuration's gain on the main workload and, where it trades latency
// for it, the cost beside it. The landing page gives it in a study's row,
// the report above everything else, so that a phone shows both on its
// first screen.

// costText writes what a recommendation costs, each metric with the
// range of its worse changes over the rows that cost something: "mean
// TTFT +20.5 to +77.2 %, mean TPOT +22.2 to +79.5 %"; "" when nothing.
func costText(loc *localizer, costs []report.CostRange) string {
	parts := make([]string, len(costs))
	for i, c := range costs {
		// From the least to the most: for a loss of throughput, -3.0 to -12.1.
		least, most := c.Low, c.High
		if least < 0 {
			least, most = most, least
		}
		change := loc.Figure(report.FormatPercent(least))
		if report.FormatPercent(least) != report.FormatPercent(most) {
			change = loc.T("answer.range", "Least", strings.TrimSuffix(report.FormatPercent(least), " %"), "Most", report.FormatPercent(most))
		}
		parts[i] = loc.Figure(loc.T("answer.cost_item", "Metric", loc.T(shortMetric(loc, c.Metric)), "Change", change))
	}
	return strings.Join(parts, loc.T("chart.list_separator")) // "" without costs
}

// shortMetric is the message id of a metric's name without its unit,
// for a change in percent.
func shortMetric(loc *localizer, key string) string {
	if id := "answer.metric." + key; loc.Has(id) {
		return id
	}
	return "metric." + key
}

// answer is the report's first paragraph: the gain, linked to its row of
// the conclusion table, and what it costs; zero without a gain on the
// main workload.
func (p *reportPage) answer() rich {
	a := p.rep.Answer()
	if a == nil {
		return rich{}
	}
	text := p.loc.R("answer.gain", "Run", a.Run, "Change", p.shortChange(a.Change, "optimized-"+anchorID(a.Workload)),
		"Metric", p.loc.R(shortMetric(p.loc, p.rep.Headline.Key)), "Case", p.workloadName(a.Workload))
	costs := costText(p.loc, a.Costs)
	if costs == "" {
		return text
	}
	id := "answer.cost_some"
	if a.Rows == a.AllRows {
		id = "answer.cost_all"
	}
	return p.loc.R("sentences", "First", text, "Next", p.loc.R(id, "Costs", richFigure(costs), "Rows", a.Rows, "All", a.AllRows))
}

// description is the report's summary for search results, in plain text:
// the model and GPUs, the answer and its cost; the title alone without an
// answer.
func (p *reportPage) description(title string) string {
	a := p.rep.Answer()
	if a == nil {
		return p.loc.T("meta.report_no_answer", "Title", title)
	}
	text := p.loc.T("meta.report", "Model", plain.Line(p.s.Model), "GPUs", p.s.Hardware.GPUs(), "GPU", plain.Line(p.s.Hardware.GPU),
		"Run", plain.Line(a.Run), "Change", p.loc.Figure(changeHeadline(a.Change)),
		"Metric", p.loc.T(shortMetric(p.loc, p.rep.Headline.Key)), "Case", plain.Line(p.workloadName(a.Workload)))
	if costs := costText(p.loc, a.Costs); costs != "" {
		text = p.loc.T("sentences", "First", text, "Next", p.loc.T("meta.cost", "Costs", costs))
	}
	return text
}
