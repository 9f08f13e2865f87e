package chart

import (
	"math"

	"github.com/perflab/perflab/internal/report"
)

// The history chart: a run's headline metric on one workload over the
// engine versions it was measured on, oldest on the left, one point per
// version with a result, joined by a line. Each point is labelled with its
// value, each version with its change against the version before, in the
// colours and signs of the other charts; a regression's point is drawn in
// the colour of a loss.

// historyPoint is one version of the chart.
type historyPoint struct {
	version string
	ok      bool // the version has a result
	value   float64
	label   string // the value as written
	note    string // the change: "▲ +3.0 %", "≈ +0.2 %", "" for the first
	sign    int
}

type historySpec struct {
	name, title, subtitle, desc string
	points                      []historyPoint
}

// maxChartVersions is the most versions the chart draws: the latest ones.
const maxChartVersions = 10

// Layout of the history chart, in pixels.
const (
	historyPlotH  = 200
	historyMarker = 4
)

// penHistory draws the line through the versions.
var penHistory = pen{layer: layerData, stroke: colOptimized, width: 2}

func historyChart(hr *report.HistoryResult, ct chartText, workloadName func(string) string) historySpec {
	T := ct.T
	t := &hr.Trends[0] // the main workload when it has a trend
	wl := workloadName(t.Workload.ID)
	s := historySpec{
		name:     "history-" + hr.Run.ID,
		title:    T("chart.history.title", "Run", hr.Run.Name),
		subtitle: T("chart.history.subtitle", "Metric", ct.metric, "Workload", wl, "Direction", ct.direction),
	}
	desc := []string{T("chart.history.desc", "Run", hr.Run.Name, "Metric", ct.metric, "Workload", wl)}
	points := t.Points
	if len(points) > maxChartVersions {
		// The latest versions only, which fit with their labels; the
		// report's table lists every one.
		points = points[len(points)-maxChartVersions:]
		s.subtitle += T("chart.history.latest", "N", maxChartVersions)
		desc = append(desc, T("chart.history.latest_desc", "N", maxChartVersions))
	}
	for _, p := range points {
		hp := historyPoint{version: p.Version}
		if p.Value == nil {
			s.points = append(s.points, hp)
			desc = append(desc, T("chart.desc.version_missing", "Version", p.Version))
			continue
		}
		hp.ok, hp.value, hp.label = true, p.Value.Effective(), p.Value.Expr()
		change := "—"
		if p.Change != nil {
			hp.note, hp.sign, change = ct.change(p.Change.Better, p.Change.Percent, p.Change.Noise)
			if p.Regression {
				change += T("chart.desc.regression")
			}
		}
		desc = append(desc, T("chart.desc.version", "Version", p.Version, "Value", ct.valueText(bar{label: hp.label, projected: p.Value.Projected()}), "Change", change))
		s.points = append(s.points, hp)
	}
	s.desc = ct.sentences(desc)
	return s
}

// draw lays the chart out, draws it and returns its height.
func (s *historySpec) draw(m *textMetrics, c *canvas) int {
	w := float64(c.w)
	y := drawHeader(m, c, s.title, s.subtitle) + 16 + valueSize
	top0 := 0.0
	for _, p := range s.points {
		if p.ok {
			top0 = max(top0, p.value)
		}
	}
	var tickBuf [8]float64
	ticks := niceTicks(tickBuf[:0], top0)
	labels := make([]string, len(ticks))
	tickW := 0.0
	for i, t := range ticks {
		labels[i] = c.tickLabel(t)
		tickW = max(tickW, m.width(labels[i], tickSize))
	}
	plotL, plotR := float64(chartPad)+math.Ceil(tickW)+8, w-chartPad
	bottom := y + historyPlotH
	scaleMax := ticks[len(ticks)-1]
	yOf := func(v float64) int { return int(math.Round(bottom - v/scaleMax*historyPlotH)) }
	slot := (plotR - plotL) / float64(max(len(s.points), 1))
	xOf := func(i int) int { return int(math.Round(plotL + (float64(i)+0.5)*slot)) }
	c.grid(ticks, yOf, int(plotL), int(plotR), false)
	for i, t := range ticks {
		c.text(labels[i], int(plotL)-6, yOf(t)+4, tickSize, colMuted, "end", false)
	}
	// The line, broken where a version has no result.
	drawn := false
	for i, p := range s.points {
		switch {
		case !p.ok:
			if drawn {
				c.drawPath(penHistory)
			}
			drawn = false
		case !drawn:
			c.moveTo(xOf(i), yOf(p.value))
			drawn = true
		default:
			c.lineTo(xOf(i), yOf(p.value))
		}
	}
	if drawn {
		c.drawPath(penHistory)
	}
	for i, p := range s.points {
		x := xOf(i)
		c.text(p.version, x, int(bottom)+tickSize+6, labelSize, colText, "middle", false)
		if !p.ok {
			continue
		}
		point := pen{layer: layerMarks, fill: colOptimized, stroke: colOptimizedDark, width: 1}
		if p.sign < 0 {
			point.fill, point.stroke = colWorse, colWorse
		}
		yy := yOf(p.value)
		r := historyMarker
		c.rect(x-r, yy-r, x+r, yy+r, point)
		c.text(p.label, x, yy-r-5, valueSize, colText, "middle", false)
		if p.note != "" {
			col := colMuted
			switch p.sign {
			case 1:
				col = colBetter
			case -1:
				col = colWorse
			}
			c.text(p.note, x, int(bottom)+2*tickSize+14, noteSize, col, "middle", true)
		}
	}
	return int(math.Ceil(bottom)) + 2*tickSize + 14 + chartPad
}
