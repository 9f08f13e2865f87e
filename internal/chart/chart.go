// Package chart draws a report's charts as SVG: the before/after bars of
// the conclusion, the latencies, the runs of each step and the latency
// distributions, with their text alternatives, in the language of the
// messages it is given. It computes nothing: every bar is a report value.
//
// Every path and text is drawn through go-chart's Renderer, on its SVG
// renderer (canvas.go): one path per pen and one text element per font,
// since go-chart formats each element with fmt. go-chart's own chart types
// are not used: its bar chart draws vertical bars at a size given up
// front, with no value or change written at a bar, no legend that wraps
// and no layout for a phone's width; its text wraps at spaces only,
// measured with Roboto, so Chinese and Japanese neither wrap nor measure.
// The layouts are ours (layout.go, narrow.go, dist.go, history.go,
// sweep.go), as is what the renderer cannot say: the height before
// drawing, escaped text with its anchor, weight and place, the text
// alternative (<title>, <desc>, role and accessible name) and the font
// stack of each language on the root element, and text widths with CJK
// (see svg.go). Hatching, which marks a projection without colour, is
// drawn with the renderer's paths: it has no patterns. The page's tables
// carry the same figures as the charts.
package chart

import (
	"strconv"
	"strings"

	"github.com/perflab/perflab/internal/report"
)

// Chart is one SVG chart with its accessible title and text alternative.
type Chart struct {
	Name        string // file name stem, e.g. "conclusion", "step-engine", "latency"
	Title       string // localized
	Description string // localized text alternative summarising every number shown
	SVG         []byte
	Narrow      []byte // the same chart drawn for a phone's width
	// The drawings' sizes in pixels, which the page gives its images.
	Width, Height, NarrowWidth, NarrowHeight int
}

// Draw draws a report's charts in one language. T localizes message ids
// (as the localizer's T method); name maps a workload id or step id to its display name.
//
// The charts are: "conclusion", baseline against optimized on every workload
// on the headline metric; "step-<id>" for each step, its runs on the main
// workload; "latency", mean and P99 TTFT and TPOT of the baseline and the
// optimized configuration on the main workload, when the logs have them;
// "distribution", the TTFT and TPOT distributions of the same two, when a
// --save-result JSON gave per-request samples (see chart_dist.go);
// "history-<run>", a run's headline over the engine versions of its
// history, on the main workload when it has one there (see history.go).
// "sweep-<workload>" for each swept workload, throughput per GPU against
// latency, one line per configuration (sweep.go).
// They show the report's own values, formatted as in its tables, so a chart
// and a table can never disagree. The same report gives the same bytes.
func Draw(rep *report.Report, T func(id string, kv ...any) string, workloadName, stepTitle func(id string) string) ([]Chart, error) {
	m, err := chartMetrics()
	if err != nil {
		return nil, err
	}
	ct := newChartText(rep, T)
	specs := make([]chartSpec, 1, len(rep.Steps)+2)
	specs[0] = conclusionChart(rep, ct, workloadName)
	if rep.Main != nil {
		for i := range rep.Steps {
			if len(rep.Steps[i].Step.Runs) == 0 {
				continue // an option the source lists without a run: nothing to draw
			}
			specs = append(specs, stepChart(rep, &rep.Steps[i], ct, workloadName, stepTitle))
		}
		if s, ok := latencyChart(rep, ct, workloadName); ok {
			specs = append(specs, s)
		}
	}
	font := string(appendEscaped(nil, T("chart.font_family"))) // escaped once for every chart
	type drawn struct {
		draw              func(*textMetrics, *canvas) int
		name, title, desc string
	}
	all := make([]drawn, 0, len(specs)+len(rep.History)+len(rep.Sweeps)+1)
	for i := range specs {
		s := &specs[i]
		all = append(all, drawn{s.draw, s.name, s.title, s.desc})
	}
	if rep.Main != nil {
		if s, ok := distChart(rep, ct, workloadName); ok {
			all = append(all, drawn{s.draw, s.name, s.title, s.desc})
		}
	}
	for i := range rep.History {
		s := historyChart(&rep.History[i], ct, workloadName)
		all = append(all, drawn{s.draw, s.name, s.title, s.desc})
	}
	for _, s := range sweepCharts(rep, ct, workloadName) {
		all = append(all, drawn{s.draw, s.name, s.title, s.desc})
	}
	out := make([]Chart, 0, len(all))
	var c canvas // one canvas for every chart of the page: its memory is reused
	for _, d := range all {
		ch, err := drawChart(&c, m, d.draw, d.name, d.title, d.desc, font)
		if err != nil {
			return nil, err
		}
		out = append(out, ch)
	}
	return out, nil
}

// drawChart draws one chart, wide and narrow.
func drawChart(c *canvas, m *textMetrics, draw func(*textMetrics, *canvas) int, name, title, desc, fontAttr string) (Chart, error) {
	ch := Chart{Name: name, Title: title, Description: desc, Width: chartWidth, NarrowWidth: narrowWidth}
	var err error
	if ch.SVG, ch.Height, err = drawSVG(c, m, chartWidth, draw, name, title, desc, fontAttr); err != nil {
		return ch, err
	}
	ch.Narrow, ch.NarrowHeight, err = drawSVG(c, m, narrowWidth, draw, name, title, desc, fontAttr)
	return ch, err
}

// chartText holds the localized words the charts share, looked up once per
// language and report rather than once per chart or bar.
type chartText struct {
	T             func(id string, kv ...any) string
	metric        string
	direction     string
	noResult      string
	baseline      string
	optimized     string
	reference     string
	alternative   string
	failed        string
	notComparable string
	projected     string // the legend's
}

func newChartText(rep *report.Report, T func(id string, kv ...any) string) chartText {
	ct := chartText{
		T:             T,
		metric:        T("metric." + rep.Headline.Key),
		direction:     T("chart.direction.lower"),
		noResult:      T("chart.no_result"),
		baseline:      T("chart.baseline"),
		optimized:     T("chart.optimized"),
		reference:     T("chart.reference"),
		alternative:   T("chart.alternative"),
		failed:        T("chart.failed"),
		notComparable: T("chart.not_comparable"),
		projected:     T("chart.legend.projected"),
	}
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

// change writes a change as on the chart (note and sign) and in words;
// noise is a change that is no measurable difference.
func (ct chartText) change(better bool, pct float64, noise bool) (note string, sign int, words string) {
	p := report.FormatPercent(pct)
	if noise {
		return "≈ " + p, 0, ct.T("chart.desc.noise", "Percent", p)
	}
	m, sign := mark(better)
	if better {
		words = ct.T("chart.desc.better", "Percent", p)
	} else {
		words = ct.T("chart.desc.worse", "Percent", p)
	}
	return m + " " + p, sign, words
}

// valueText writes a bar's value for the text alternative.
func (ct chartText) valueText(b bar) string {
	text := b.label
	if b.projected {
		text = ct.T("chart.desc.projected", "Value", text)
	}
	if b.repeats > 1 {
		text = ct.T("chart.desc.repeats", "Value", text, "N", b.repeats)
	}
	return text
}

// valueBar is the bar of a value; a mean of repeats has its interval, and
// its label its half-width and count: "1000.00 ± 24.84 (n=3)".
func valueBar(kind barKind, v *report.Value) bar {
	return withInterval(bar{kind: kind, value: v.Effective(), label: v.Expr(), projected: v.Projected()}, v)
}

// withInterval adds to a value's bar the interval of a mean of repeats.
func withInterval(b bar, v *report.Value) bar {
	if v.Repeated() {
		b.lo, b.hi = v.Interval()
		b.repeats = v.Repeats
		b.label += " ± " + v.HalfWidthExpr() + " (n=" + strconv.Itoa(v.Repeats) + ")"
	}
	return b
}

func conclusionChart(rep *report.Report, ct chartText, workloadName func(string) string) chartSpec {
	T := ct.T
	s := chartSpec{
		name:     "conclusion",
		title:    T("chart.conclusion.title"),
		subtitle: T("chart.subtitle", "Metric", ct.metric, "Direction", ct.direction),
		legend:   []legendItem{{kind: barBaseline, label: ct.baseline}, {kind: barOptimized, label: ct.optimized}},
	}
	// The text alternative's sentences, joined once at the end.
	desc := make([]string, 1, len(rep.Rows)+1)
	desc[0] = T("chart.conclusion.desc", "Metric", ct.metric, "Direction", ct.direction)
	p := panel{groups: make([]group, 0, len(rep.Rows))}
	bars := make([]bar, 0, 2*len(rep.Rows)) // every group's two bars, in one slice
	projected := false
	for _, row := range rep.Rows {
		name := workloadName(row.Workload.ID)
		g := group{label: name}
		words := [2]string{ct.noResult, ct.noResult}
		for i, side := range []struct {
			cell *report.Cell
			kind barKind
		}{{row.Baseline, barBaseline}, {row.Optimized, barOptimized}} {
			if side.cell == nil {
				bars = append(bars, bar{kind: barMissing, label: ct.noResult})
				continue
			}
			b := valueBar(side.kind, &side.cell.Headline)
			bars = append(bars, b)
			projected = projected || b.projected
			words[i] = ct.valueText(b)
		}
		g.bars = bars[len(bars)-2 : len(bars) : len(bars)]
		change := "—"
		if row.Change != nil {
			g.note, g.sign, change = ct.change(row.Change.Better, row.Change.Percent, row.Change.Noise)
		}
		desc = append(desc, T("chart.desc.pair", "Case", name, "Baseline", words[0], "Optimized", words[1], "Change", change))
		p.groups = append(p.groups, g)
	}
	if projected {
		s.legend = append(s.legend, legendItem{kind: barOptimized, projected: true, label: ct.projected})
	}
	s.panels = []panel{p}
	s.desc = ct.sentences(desc)
	return s
}

func stepChart(rep *report.Report, sr *report.StepResult, ct chartText, workloadName, stepTitle func(string) string) chartSpec {
	T := ct.T
	step := stepTitle(sr.Step.ID)
	main := workloadName(rep.Main.ID)
	s := chartSpec{
		name:     "step-" + sr.Step.ID,
		title:    T("chart.step.title", "Step", step),
		subtitle: T("chart.step.subtitle", "Metric", ct.metric, "Workload", main, "Direction", ct.direction),
	}
	// The reference first, then the step's runs as listed.
	runs := make([]*report.RunResult, 0, len(sr.Runs)+1)
	if sr.Reference != nil {
		runs = append(runs, sr.Reference)
	}
	for i := range sr.Runs {
		if sr.Runs[i].Run.ID != sr.Step.Reference {
			runs = append(runs, &sr.Runs[i])
		}
	}
	desc := make([]string, 1, len(runs)+1)
	desc[0] = T("chart.step.desc", "Step", step, "Metric", ct.metric, "Workload", main, "Direction", ct.direction)
	p := panel{groups: make([]group, len(runs))}
	bars := make([]bar, len(runs)) // one per group, in one slice
	var hasRef, hasAlt, projected bool
	for i, rr := range runs {
		g := &p.groups[i]
		g.label = rr.Run.Name
		g.bars = bars[i : i+1 : i+1]
		b := &g.bars[0]
		isRef := rr.Run.ID == sr.Step.Reference
		switch {
		case rr.Run.Failed():
			*b = bar{kind: barFailed, label: ct.failed}
			desc = append(desc, T("chart.desc.run_failed", "Run", rr.Run.Name))
		case rr.Excluded != "" && rr.Headline != nil:
			*b = valueBar(barExcluded, rr.Headline)
			g.note = ct.notComparable
			desc = append(desc, T("chart.desc.run_excluded", "Run", rr.Run.Name, "Value", ct.valueText(*b)))
			b.projected = false // grey and dashed: not a comparison at all
		case rr.Excluded != "" || rr.Headline == nil:
			*b = bar{kind: barMissing, label: ct.noResult}
			if rr.Excluded != "" {
				g.note = ct.notComparable
			}
			desc = append(desc, T("chart.desc.run_missing", "Run", rr.Run.Name))
		case isRef:
			*b = valueBar(barReference, rr.Headline)
			g.note = ct.reference
			hasRef = true
			desc = append(desc, T("chart.desc.run_reference", "Run", rr.Run.Name, "Value", ct.valueText(*b)))
		default:
			*b = valueBar(barAlternative, rr.Headline)
			hasAlt = true
			if rr.Change != nil {
				var change string
				g.note, g.sign, change = ct.change(rr.Change.Better, rr.Change.Percent, rr.Change.Noise)
				desc = append(desc, T("chart.desc.run", "Run", rr.Run.Name, "Value", ct.valueText(*b), "Change", change))
			} else {
				desc = append(desc, T("chart.desc.run_plain", "Run", rr.Run.Name, "Value", ct.valueText(*b)))
			}
		}
		projected = projected || b.projected
	}
	if hasRef {
		s.legend = append(s.legend, legendItem{kind: barReference, label: ct.reference})
	}
	if hasAlt {
		s.legend = append(s.legend, legendItem{kind: barAlternative, label: ct.alternative})
	}
	if projected {
		s.legend = append(s.legend, legendItem{kind: barAlternative, projected: true, label: ct.projected})
	}
	s.panels = []panel{p}
	s.desc = ct.sentences(desc)
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

// latencyValue is a latency of one side of a conclusion row as the report
// measures it: the mean of the run's repeats when it has some, never
// projected (latency is per request); nil when the log does not print it.
func latencyValue(rep *report.Report, cell *report.Cell, workload, key string) *report.Value {
	v, _, _ := report.Measure(rep.Study, cell.Run, workload, key)
	if v != nil {
		v.Replicas = 1
	}
	return v
}

func latencyChart(rep *report.Report, ct chartText, workloadName func(string) string) (chartSpec, bool) {
	T := ct.T
	// Every workload whose both sides have a result block, main first as
	// the conclusion lists them.
	var rows []report.Row
	var names []string
	for _, row := range rep.Rows {
		if row.Baseline != nil && row.Optimized != nil && row.Baseline.Block != nil && row.Optimized.Block != nil {
			rows = append(rows, row)
			names = append(names, workloadName(row.Workload.ID))
		}
	}
	if len(rows) == 0 {
		return chartSpec{}, false
	}
	s := chartSpec{
		name:   "latency",
		title:  T("chart.latency.title"),
		legend: []legendItem{{kind: barBaseline, label: ct.baseline}, {kind: barOptimized, label: ct.optimized}},
	}
	used := make([]bool, len(rows)) // a workload with a latency printed on both sides
	desc := make([]string, 1, 1+2*len(latencyMetrics)*len(rows))
	stats := [2]string{T("chart.latency.mean"), T("chart.latency.percentile", "N", 99)}
	s.panels = make([]panel, 0, len(latencyMetrics))
	bars := make([]bar, 0, 4*len(latencyMetrics)*len(rows)) // every group's two bars, in one slice
	for _, lm := range latencyMetrics {
		p := panel{heading: T(lm.heading), groups: make([]group, 0, len(lm.keys)*len(rows))}
		for r, row := range rows {
			for i, key := range lm.keys {
				b := latencyValue(rep, row.Baseline, row.Workload.ID, key)
				o := latencyValue(rep, row.Optimized, row.Workload.ID, key)
				if b == nil && o == nil {
					continue
				}
				label := stats[i]
				if len(rows) > 1 {
					label = names[r] + " · " + stats[i]
				}
				g := group{label: label}
				words := [2]string{ct.noResult, ct.noResult}
				for j, side := range []struct {
					v    *report.Value
					kind barKind
				}{{b, barBaseline}, {o, barOptimized}} {
					if side.v == nil {
						bars = append(bars, bar{kind: barMissing, label: ct.noResult})
						continue
					}
					// With the decimals the log printed, as the latency chart always showed them.
					bars = append(bars, withInterval(bar{kind: side.kind, value: side.v.Measured, label: report.FormatNumber(side.v.Measured, side.v.Decimals)}, side.v))
					words[j] = bars[len(bars)-1].label
				}
				g.bars = bars[len(bars)-2 : len(bars) : len(bars)]
				change := "—"
				switch {
				case b != nil && o != nil && b.Measured == o.Measured:
					g.note, change = report.FormatPercent(0), report.FormatPercent(0)
				case b != nil && o != nil && b.Measured > 0:
					pct := (o.Measured/b.Measured - 1) * 100
					better := o.Measured < b.Measured // latency: lower is better
					g.note, g.sign, change = ct.change(better, pct, !rep.Distinct(key, *b, *o))
				}
				desc = append(desc, T("chart.desc.latency_pair", "Metric", p.heading, "Stat", label, "Baseline", words[0], "Optimized", words[1], "Change", change))
				p.groups = append(p.groups, g)
				used[r] = true
			}
		}
		if len(p.groups) > 0 {
			s.panels = append(s.panels, p)
		}
	}
	if len(s.panels) == 0 {
		return chartSpec{}, false
	}
	var shown []string
	for r, ok := range used {
		if ok {
			shown = append(shown, names[r])
		}
	}
	list := strings.Join(shown, T("chart.list_separator"))
	s.subtitle = T("chart.latency.subtitle", "Workload", list)
	desc[0] = T("chart.latency.desc", "Workload", list)
	s.desc = ct.sentences(desc)
	return s, true
}
