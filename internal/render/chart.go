package render

import (
	"github.com/perflab/perflab/internal/benchlog"
	"github.com/perflab/perflab/internal/report"
)

// Chart is one SVG chart with its accessible title and text alternative.
type Chart struct {
	Name        string // file name stem, e.g. "conclusion", "step-engine", "latency"
	Title       string // localized
	Description string // localized text alternative summarising every number shown
	SVG         []byte
}

// drawCharts draws a report's charts in one language. T localizes message ids
// (as the localizer's T method); name maps a workload id or step id to its display name.
//
// The charts are: "conclusion", baseline against optimized on every workload
// on the headline metric; "step-<id>" for each step, its runs on the main
// workload; "latency", mean and P99 TTFT and TPOT of the baseline and the
// optimized configuration on the main workload, when the logs have them;
// "distribution", the TTFT and TPOT distributions of the same two, when a
// --save-result JSON gave per-request samples (see chart_dist.go).
// They show the report's own values, formatted as in its tables, so a chart
// and a table can never disagree. The same report gives the same bytes.
func drawCharts(rep *report.Report, T func(id string, kv ...any) string, workloadName, stepTitle func(id string) string) ([]Chart, error) {
	m, err := chartMetrics()
	if err != nil {
		return nil, err
	}
	specs := []chartSpec{conclusionChart(rep, T, workloadName)}
	if rep.Main != nil {
		for i := range rep.Steps {
			specs = append(specs, stepChart(rep, &rep.Steps[i], T, workloadName, stepTitle))
		}
		if s, ok := latencyChart(rep, T, workloadName); ok {
			specs = append(specs, s)
		}
	}
	font := T("chart.font_family")
	out := make([]Chart, 0, len(specs)+1)
	for i := range specs {
		s := &specs[i]
		out = append(out, drawChart(m, s.draw, s.name, s.title, s.desc, font))
	}
	if rep.Main != nil {
		if s, ok := distChart(rep, T, workloadName); ok {
			out = append(out, drawChart(m, s.draw, s.name, s.title, s.desc, font))
		}
	}
	return out, nil
}

// drawChart draws one chart on a pooled canvas.
func drawChart(m *textMetrics, draw func(*textMetrics, *canvas) int, name, title, desc, font string) Chart {
	c := newCanvas()
	defer c.release()
	h := draw(m, c)
	return Chart{Name: name, Title: title, Description: desc, SVG: c.svg("chart-"+name, title, desc, font, h)}
}

// chartText holds the localized words the charts share.
type chartText struct {
	T         func(id string, kv ...any) string
	metric    string
	direction string
}

func newChartText(rep *report.Report, T func(id string, kv ...any) string) chartText {
	ct := chartText{T: T, metric: T("metric." + rep.Headline.Key), direction: T("chart.direction.lower")}
	if rep.Headline.HigherBetter {
		ct.direction = T("chart.direction.higher")
	}
	return ct
}

// mark is the sign of a change: ▲ better, ▼ worse.
func mark(better bool) (string, int) {
	if better {
		return "▲", 1
	}
	return "▼", -1
}

// changeNote and changeText write a change as on the chart and in words.
func (ct chartText) changeNote(ch *report.Change) (string, int) {
	sign, s := mark(ch.Better)
	return sign + " " + report.FormatPercent(ch.Percent), s
}

func (ct chartText) changeText(better bool, pct float64) string {
	if better {
		return ct.T("chart.desc.better", "Percent", report.FormatPercent(pct))
	}
	return ct.T("chart.desc.worse", "Percent", report.FormatPercent(pct))
}

// valueText writes a value for the text alternative.
func (ct chartText) valueText(v *report.Value) string {
	if v.Projected() {
		return ct.T("chart.desc.projected", "Value", v.Expr())
	}
	return v.Expr()
}

func valueBar(kind barKind, v *report.Value) bar {
	return bar{kind: kind, value: v.Effective(), label: v.Expr(), projected: v.Projected()}
}

func conclusionChart(rep *report.Report, T func(id string, kv ...any) string, workloadName func(string) string) chartSpec {
	ct := newChartText(rep, T)
	s := chartSpec{
		name:     "conclusion",
		title:    T("chart.conclusion.title"),
		subtitle: T("chart.subtitle", "Metric", ct.metric, "Direction", ct.direction),
		legend:   []legendItem{{kind: barBaseline, label: T("chart.baseline")}, {kind: barOptimized, label: T("chart.optimized")}},
	}
	desc := T("chart.conclusion.desc", "Metric", ct.metric, "Direction", ct.direction)
	var p panel
	projected := false
	for _, row := range rep.Rows {
		name := workloadName(row.Workload.ID)
		g := group{label: name}
		words := [2]string{T("chart.no_result"), T("chart.no_result")}
		for i, side := range []struct {
			cell *report.Cell
			kind barKind
		}{{row.Baseline, barBaseline}, {row.Optimized, barOptimized}} {
			if side.cell == nil {
				g.bars = append(g.bars, bar{kind: barMissing, label: T("chart.no_result")})
				continue
			}
			v := side.cell.Headline
			g.bars = append(g.bars, valueBar(side.kind, &v))
			projected = projected || v.Projected()
			words[i] = ct.valueText(&v)
		}
		change := "—"
		if row.Change != nil {
			g.note, g.sign = ct.changeNote(row.Change)
			change = ct.changeText(row.Change.Better, row.Change.Percent)
		}
		desc += " " + T("chart.desc.pair", "Case", name, "Baseline", words[0], "Optimized", words[1], "Change", change)
		p.groups = append(p.groups, g)
	}
	if projected {
		s.legend = append(s.legend, legendItem{kind: barOptimized, projected: true, label: T("chart.legend.projected")})
	}
	s.panels = []panel{p}
	s.desc = desc
	return s
}

func stepChart(rep *report.Report, sr *report.StepResult, T func(id string, kv ...any) string, workloadName, stepTitle func(string) string) chartSpec {
	ct := newChartText(rep, T)
	step := stepTitle(sr.Step.ID)
	main := workloadName(rep.Main.ID)
	s := chartSpec{
		name:     "step-" + sr.Step.ID,
		title:    T("chart.step.title", "Step", step),
		subtitle: T("chart.step.subtitle", "Metric", ct.metric, "Workload", main, "Direction", ct.direction),
	}
	desc := T("chart.step.desc", "Step", step, "Metric", ct.metric, "Workload", main, "Direction", ct.direction)
	// The reference first, then the step's runs as listed.
	var runs []report.RunResult
	if sr.Reference != nil {
		runs = append(runs, *sr.Reference)
	}
	for _, rr := range sr.Runs {
		if rr.Run.ID != sr.Step.Reference {
			runs = append(runs, rr)
		}
	}
	var p panel
	var hasRef, hasAlt, projected bool
	for _, rr := range runs {
		g := group{label: rr.Run.Name}
		isRef := rr.Run.ID == sr.Step.Reference
		switch {
		case rr.Run.Failed():
			g.bars = []bar{{kind: barFailed, label: T("chart.failed")}}
			desc += " " + T("chart.desc.run_failed", "Run", rr.Run.Name)
		case rr.Excluded != "" && rr.Headline != nil:
			g.bars = []bar{valueBar(barExcluded, rr.Headline)}
			g.bars[0].projected = false // grey and dashed: not a comparison at all
			g.note = T("chart.not_comparable")
			desc += " " + T("chart.desc.run_excluded", "Run", rr.Run.Name, "Value", ct.valueText(rr.Headline))
		case rr.Excluded != "" || rr.Headline == nil:
			g.bars = []bar{{kind: barMissing, label: T("chart.no_result")}}
			if rr.Excluded != "" {
				g.note = T("chart.not_comparable")
			}
			desc += " " + T("chart.desc.run_missing", "Run", rr.Run.Name)
		case isRef:
			g.bars = []bar{valueBar(barReference, rr.Headline)}
			g.note = T("chart.reference")
			hasRef = true
			desc += " " + T("chart.desc.run_reference", "Run", rr.Run.Name, "Value", ct.valueText(rr.Headline))
		default:
			g.bars = []bar{valueBar(barAlternative, rr.Headline)}
			hasAlt = true
			if rr.Change != nil {
				g.note, g.sign = ct.changeNote(rr.Change)
				desc += " " + T("chart.desc.run", "Run", rr.Run.Name, "Value", ct.valueText(rr.Headline),
					"Change", ct.changeText(rr.Change.Better, rr.Change.Percent))
			} else {
				desc += " " + T("chart.desc.run_plain", "Run", rr.Run.Name, "Value", ct.valueText(rr.Headline))
			}
		}
		projected = projected || g.bars[0].projected
		p.groups = append(p.groups, g)
	}
	if hasRef {
		s.legend = append(s.legend, legendItem{kind: barReference, label: T("chart.reference")})
	}
	if hasAlt {
		s.legend = append(s.legend, legendItem{kind: barAlternative, label: T("chart.alternative")})
	}
	if projected {
		s.legend = append(s.legend, legendItem{kind: barAlternative, projected: true, label: T("chart.legend.projected")})
	}
	s.panels = []panel{p}
	s.desc = desc
	return s
}

// latencyMetrics are the latency chart's panels and their groups.
var latencyMetrics = []struct {
	heading string
	keys    [2]string // mean, P99
}{
	{"chart.latency.ttft", [2]string{"mean_ttft_ms", "p99_ttft_ms"}},
	{"chart.latency.tpot", [2]string{"mean_tpot_ms", "p99_tpot_ms"}},
}

func latencyChart(rep *report.Report, T func(id string, kv ...any) string, workloadName func(string) string) (chartSpec, bool) {
	ct := newChartText(rep, T)
	row := rep.RowByWorkload(rep.Main.ID)
	if row == nil || row.Baseline == nil || row.Optimized == nil || row.Baseline.Block == nil || row.Optimized.Block == nil {
		return chartSpec{}, false
	}
	main := workloadName(rep.Main.ID)
	s := chartSpec{
		name:     "latency",
		title:    T("chart.latency.title"),
		subtitle: T("chart.latency.subtitle", "Workload", main),
		legend:   []legendItem{{kind: barBaseline, label: T("chart.baseline")}, {kind: barOptimized, label: T("chart.optimized")}},
	}
	desc := T("chart.latency.desc", "Workload", main)
	stats := [2]string{T("chart.latency.mean"), T("chart.latency.percentile", "N", 99)}
	for _, lm := range latencyMetrics {
		p := panel{heading: T(lm.heading)}
		for i, key := range lm.keys {
			b, okb := row.Baseline.Block.Metrics[key]
			o, oko := row.Optimized.Block.Metrics[key]
			if !okb && !oko {
				continue
			}
			g := group{label: stats[i]}
			words := [2]string{T("chart.no_result"), T("chart.no_result")}
			for j, side := range []struct {
				m    benchlog.Metric
				ok   bool
				kind barKind
			}{{b, okb, barBaseline}, {o, oko, barOptimized}} {
				if !side.ok {
					g.bars = append(g.bars, bar{kind: barMissing, label: T("chart.no_result")})
					continue
				}
				words[j] = report.FormatNumber(side.m.Value, side.m.Decimals)
				g.bars = append(g.bars, bar{kind: side.kind, value: side.m.Value, label: words[j]})
			}
			change := "—"
			switch {
			case okb && oko && b.Value == o.Value:
				g.note, change = report.FormatPercent(0), report.FormatPercent(0)
			case okb && oko && b.Value > 0:
				pct := (o.Value/b.Value - 1) * 100
				better := o.Value < b.Value // latency: lower is better
				sign, sg := mark(better)
				g.note, g.sign = sign+" "+report.FormatPercent(pct), sg
				change = ct.changeText(better, pct)
			}
			desc += " " + T("chart.desc.latency_pair", "Metric", p.heading, "Stat", stats[i], "Baseline", words[0], "Optimized", words[1], "Change", change)
			p.groups = append(p.groups, g)
		}
		if len(p.groups) > 0 {
			s.panels = append(s.panels, p)
		}
	}
	if len(s.panels) == 0 {
		return chartSpec{}, false
	}
	s.desc = desc
	return s, true
}
