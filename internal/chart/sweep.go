package chart

import (
	"math"
	"strings"

	"github.com/perflab/perflab/internal/report"
)

// The sweep chart, "sweep-<workload>": for a workload measured at several
// loads, one line per configuration through its points in order of load,
// x = median TPOT (ms, lower is better), y = output tok/s per GPU (higher
// is better). Each configuration has its own colour and marker shape, so
// the lines read without colour; the Pareto frontier is a thick dashed
// dark line, and its points and the best point within the study's latency
// budget (a ring and a star) carry their configuration's load. A point
// that is the mean of repeats has whiskers in its configuration's colour
// across the 95 % interval of each of its two figures.

// sweepPalette are the configurations' colours (Okabe–Ito, darkened where
// white needs it), in curve order, repeated past the eighth.
var sweepPalette = []paint{
	hexPaint("0072B2"), hexPaint("E69F00"), hexPaint("009E73"), hexPaint("CC79A7"),
	hexPaint("D55E00"), hexPaint("56B4E9"), hexPaint("1F2328"), hexPaint("8F7F00"),
}

// The pens of the frontier, under the curves, and of the cards under the
// labels of points, over the curves and whiskers.
var (
	penFrontier = pen{layer: layerUnder, stroke: colText, width: 3, dash: &[2]float64{8, 5}}
	penLabel    = pen{layer: layerOver, fill: colCard}
	penBest     = pen{layer: layerMarks, stroke: colText, width: 2}
)

// penLine is the pen of configuration i's line.
func penLine(i int, width float64) pen {
	return pen{layer: layerData, stroke: sweepPalette[i%len(sweepPalette)], width: width}
}

// Layout of the sweep chart, in pixels.
const (
	sweepPlotH  = 300
	sweepMarker = 5
)

type sweepXY struct {
	x, y   float64 // median TPOT, output tok/s per GPU
	dx, dy float64 // the half-widths of their 95 % intervals; 0: measured once
	label  string  // the load, when written next to the point
	best   bool
}

type sweepLine struct {
	name string
	pts  []sweepXY
}

type sweepSpec struct {
	name, title, subtitle, desc string
	xLabel, yLabel, frontier    string
	interval                    string // the legend of the whiskers; "" without repeats
	lines                       []sweepLine
	front                       []sweepXY
}

// sweepCharts draws one chart per swept workload.
func sweepCharts(rep *report.Report, ct chartText, workloadName func(string) string) []sweepSpec {
	T := ct.T
	var out []sweepSpec
	for i := range rep.Sweeps {
		sr := &rep.Sweeps[i]
		w := workloadName(sr.Workload.ID)
		s := sweepSpec{
			name:     "sweep-" + sr.Workload.ID,
			title:    T("chart.sweep.title", "Workload", w),
			subtitle: T("chart.sweep.subtitle"),
			xLabel:   T("chart.sweep.x"),
			yLabel:   T("chart.sweep.y"),
			frontier: T("chart.sweep.frontier"),
		}
		at := func(p *report.SweepPoint) string {
			return T("chart.sweep.point."+sr.Workload.Sweep.Key, "Load", p.Load.Expr())
		}
		var names, front []string
		for _, c := range sr.Curves {
			l := sweepLine{name: c.Run.Name}
			for j := range c.Points {
				p := &c.Points[j]
				if p.TPOT == nil {
					continue
				}
				xy := sweepXY{x: p.TPOT.Measured, y: p.PerGPU(), dx: p.TPOT.HalfWidth, dy: p.PerGPUHalfWidth(), best: p == sr.Best}
				if p.Frontier || xy.best {
					xy.label = at(p)
				}
				if xy.dx > 0 || xy.dy > 0 {
					s.interval = T("chart.sweep.interval", "Level", report.ConfidenceLevel)
				}
				l.pts = append(l.pts, xy)
			}
			s.lines = append(s.lines, l)
			names = append(names, c.Run.Name)
		}
		for _, p := range sr.Frontier {
			s.front = append(s.front, sweepXY{x: p.TPOT.Measured, y: p.PerGPU()})
			front = append(front, T("chart.sweep.desc_point", "Config", p.Run.Name, "Point", at(p)))
		}
		sep := T("chart.list_separator")
		desc := []string{T("chart.sweep.desc", "Workload", w, "Configs", strings.Join(names, sep))}
		if len(front) > 0 {
			desc = append(desc, T("chart.sweep.desc_frontier", "Frontier", strings.Join(front, sep)))
		} else {
			desc = append(desc, T("chart.sweep.desc_no_latency"))
		}
		if sr.Best != nil && sr.Best.TPOT != nil { // drawn, so starred
			desc = append(desc, T("chart.sweep.desc_best", "Config", sr.Best.Run.Name, "Point", at(sr.Best)))
		}
		if s.interval != "" {
			desc = append(desc, T("chart.sweep.desc_interval", "Level", report.ConfidenceLevel))
		}
		s.desc = ct.sentences(desc)
		out = append(out, s)
	}
	return out
}

// sweepMarkerAt draws marker shape k (diamond, square, triangle up,
// triangle down) centred at x, y.
func (c *canvas) sweepMarkerAt(k, x, y int, fill paint) {
	r := sweepMarker
	switch k % 4 {
	case 0:
		r++
		c.moveTo(x, y-r)
		c.lineTo(x+r, y)
		c.lineTo(x, y+r)
		c.lineTo(x-r, y)
	case 1:
		r--
		c.moveTo(x-r, y-r)
		c.lineTo(x+r, y-r)
		c.lineTo(x+r, y+r)
		c.lineTo(x-r, y+r)
	case 2:
		c.moveTo(x, y-r-1)
		c.lineTo(x+r+1, y+r)
		c.lineTo(x-r-1, y+r)
	default:
		c.moveTo(x, y+r+1)
		c.lineTo(x+r+1, y-r)
		c.lineTo(x-r-1, y-r)
	}
	c.closePath()
	c.drawPath(pen{layer: layerMarks, fill: fill, stroke: colText, width: 1})
}

func (s *sweepSpec) draw(m *textMetrics, c *canvas) int {
	w := float64(c.w)
	y := drawHeader(m, c, s.title, s.subtitle)
	// Legend: each configuration's line and marker, then the frontier.
	const sw = 30
	legend := newLegend(m, c, y, sw, 11)
	for i, l := range s.lines {
		col := sweepPalette[i%len(sweepPalette)]
		legend.item(l.name, func(x, top int) {
			c.line(x, top+7, x+sw, top+7, penLine(i, 2))
			c.sweepMarkerAt(i, x+sw/2, top+7, col)
		})
	}
	legend.item(s.frontier, func(x, top int) { c.line(x, top+7, x+sw, top+7, penFrontier) })
	if s.interval != "" {
		legend.item(s.interval, func(x, top int) { c.whisker(x+4, top+7, x+sw-4, top+7, colText) })
	}
	y = legend.bottom() + 14 + 8

	// The scales: from 0 to a round value above the largest point.
	var maxX, maxY float64
	for _, l := range s.lines {
		for _, p := range l.pts {
			maxX, maxY = max(maxX, p.x+p.dx), max(maxY, p.y+p.dy)
		}
	}
	var xBuf, yBuf [8]float64
	xTicks, yTicks := niceTicks(xBuf[:0], maxX), niceTicks(yBuf[:0], maxY)
	xMax, yMax := xTicks[len(xTicks)-1], yTicks[len(yTicks)-1]
	tickW := 0.0
	for _, t := range yTicks {
		tickW = max(tickW, m.width(c.tickLabel(t), tickSize))
	}
	// The y axis's name above the plot, then the plot.
	y += labelSize
	c.text(s.yLabel, chartPad, int(y), labelSize, colText, "start", true)
	y += 12
	plotL, plotR := float64(chartPad)+math.Ceil(tickW)+8, w-chartPad-12
	top, bottom := y, y+sweepPlotH
	xOf := func(v float64) int { return int(math.Round(plotL + v/xMax*(plotR-plotL))) }
	yOf := func(v float64) int { return int(math.Round(bottom - v/yMax*sweepPlotH)) }
	c.grid(yTicks, yOf, int(plotL), int(plotR), false)
	for _, t := range yTicks {
		c.text(c.tickLabel(t), int(plotL)-6, yOf(t)+4, tickSize, colMuted, "end", false)
	}
	c.grid(xTicks, xOf, int(top), int(bottom), true)
	c.axisTicks(xTicks, xOf, int(bottom)+tickSize+4)
	y = bottom + tickSize + 4 + 8 + labelSize
	c.text(s.xLabel, int((plotL+plotR)/2), int(y), labelSize, colText, "middle", true)

	// The frontier under the curves, the curves, then markers and labels.
	c.polyline(s.front, xOf, yOf, penFrontier)
	for i, l := range s.lines {
		c.polyline(l.pts, xOf, yOf, penLine(i, 2))
	}
	// The whiskers of means of repeats, from 0 at the lowest.
	for i, l := range s.lines {
		col := sweepPalette[i%len(sweepPalette)]
		for _, p := range l.pts {
			px, py := xOf(p.x), yOf(p.y)
			if p.dy > 0 {
				c.whisker(px, yOf(max(p.y-p.dy, 0)), px, yOf(p.y+p.dy), col)
			}
			if p.dx > 0 {
				c.whisker(xOf(max(p.x-p.dx, 0)), py, xOf(p.x+p.dx), py, col)
			}
		}
	}
	// Labels on cards that no line crosses, then every marker above them.
	for _, l := range s.lines {
		for _, p := range l.pts {
			if p.label == "" {
				continue
			}
			px, py := xOf(p.x), yOf(p.y)
			label := p.label
			if p.best {
				label = "★ " + label
			}
			// Right of the point, or left of it near the right edge.
			lw := int(math.Ceil(m.width(label, valueSize)))
			tx, x0, anchor := px+12, px+10, "start"
			if px+12+lw > int(w)-chartPad {
				tx, x0, anchor = px-12, px-14-lw, "end"
			}
			c.rect(x0, py-8-valueSize, x0+lw+4, py-8+4, penLabel)
			c.text(label, tx, py-8, valueSize, colText, anchor, false)
		}
	}
	for i, l := range s.lines {
		for _, p := range l.pts {
			px, py := xOf(p.x), yOf(p.y)
			if p.best {
				r := sweepMarker + 5
				c.rect(px-r, py-r, px+r, py+r, penBest)
			}
			c.sweepMarkerAt(i, px, py, sweepPalette[i%len(sweepPalette)])
		}
	}
	return int(math.Ceil(y)) + chartPad
}

// polyline draws a line through pts, when there are two or more.
func (c *canvas) polyline(pts []sweepXY, xOf, yOf func(float64) int, line pen) {
	if len(pts) < 2 {
		return
	}
	c.moveTo(xOf(pts[0].x), yOf(pts[0].y))
	for _, p := range pts[1:] {
		c.lineTo(xOf(p.x), yOf(p.y))
	}
	c.drawPath(line)
}

// whisker draws an interval from x0, y0 to x1, y1 (a vertical or a
// horizontal line) with a cap across each end.
func (c *canvas) whisker(x0, y0, x1, y1 int, col paint) {
	const capHalf = 4
	c.moveTo(x0, y0)
	c.lineTo(x1, y1)
	if x0 == x1 {
		c.moveTo(x0-capHalf, y0)
		c.lineTo(x0+capHalf, y0)
		c.moveTo(x1-capHalf, y1)
		c.lineTo(x1+capHalf, y1)
	} else {
		c.moveTo(x0, y0-capHalf)
		c.lineTo(x0, y0+capHalf)
		c.moveTo(x1, y1-capHalf)
		c.lineTo(x1, y1+capHalf)
	}
	c.drawPath(pen{layer: layerOver, stroke: col, width: 1})
}
