package chart

import (
	"math"
	"slices"
	"strings"

	"github.com/perflab/perflab/internal/benchlog"
	"github.com/perflab/perflab/internal/report"
)

// The distribution chart: for TTFT and TPOT, the empirical cumulative
// distribution of the per-request latencies of the baseline and the
// optimized configuration on the main workload, one axis per metric. The
// baseline is a solid line with diamonds, the optimized configuration a
// dashed line with squares; the diamonds and squares sit at P50, P90 and
// P99, whose values are written at the right end of their guide line, so
// every number reads without colour. Drawn only when a --save-result JSON
// gave per-request samples (benchlog.Block.Requests).

// distPercentiles are the percentiles marked, with their metric prefixes.
var distPercentiles = []struct {
	p      float64
	prefix string
}{{50, "median_"}, {90, "p90_"}, {99, "p99_"}}

// distMetrics are the panels: heading and metric name.
var distMetrics = []struct {
	heading string
	name    string // ttft, tpot: metric keys <prefix><name>_ms
}{{"chart.latency.ttft", "ttft"}, {"chart.latency.tpot", "tpot"}}

// distSeries is one configuration's samples on one panel.
type distSeries struct {
	kind   barKind // barBaseline or barOptimized
	sorted []float64
	values [3]float64 // at distPercentiles
	labels [3]string  // the values as written
}

type distPanel struct {
	heading string
	series  []distSeries
}

type distLegend struct {
	kind  barKind
	none  bool // no per-request data: a grey dashed sample
	label string
}

type distSpec struct {
	name, title, subtitle, desc string
	legend                      []distLegend
	panels                      []distPanel
	pctLabels                   [3]string // "P50", "P90", "P99"
	shareLabels                 []string  // y ticks: "0 %" ... "100 %"
}

// Layout of the distribution chart, in pixels.
const (
	distPlotH   = 220
	distMarker  = 5 // half the size of a marker
	distSideGap = 16
)

var distShares = []float64{0, 25, 50, 75, 100}

// The dashes of the optimized configuration's line, and of the guide lines
// and the "no data" legend sample.
var (
	dashOptimized = &[2]float64{7, 4}
	dashGuide     = &[2]float64{2, 3}
)

// The pens of the guide lines, and of the legend's sample of a
// configuration without per-request data.
var (
	penGuide = pen{layer: layerGrid, stroke: colAxis, width: 1, dash: dashGuide}
	penNone  = pen{layer: layerData, stroke: colAxis, width: 2, dash: dashGuide}
)

// samplesOf returns a side's samples of one metric, or nil.
func samplesOf(rd *benchlog.RequestData, name string) []float64 {
	if rd == nil {
		return nil
	}
	if name == "ttft" {
		return rd.TTFT
	}
	return rd.TPOT
}

// linearPercentile is numpy's default percentile of sorted data.
func linearPercentile(sorted []float64, p float64) float64 {
	h := p / 100 * float64(len(sorted)-1)
	lo := int(math.Floor(h))
	if lo >= len(sorted)-1 {
		return sorted[len(sorted)-1]
	}
	return sorted[lo] + (sorted[lo+1]-sorted[lo])*(h-float64(lo))
}

func distChart(rep *report.Report, ct chartText, workloadName func(string) string) (distSpec, bool) {
	T := ct.T
	row := rep.RowByWorkload(rep.Main.ID)
	if row == nil {
		return distSpec{}, false
	}
	sides := []struct {
		cell *report.Cell
		kind barKind
		name string
	}{{row.Baseline, barBaseline, ct.baseline}, {row.Optimized, barOptimized, ct.optimized}}
	var data [2]*benchlog.RequestData
	for i, sd := range sides {
		if sd.cell != nil && sd.cell.Block != nil && sd.cell.Block.Requests != nil && len(sd.cell.Block.Requests.TTFT) > 0 {
			data[i] = sd.cell.Block.Requests
		}
	}
	if data[0] == nil && data[1] == nil {
		return distSpec{}, false
	}
	main := workloadName(rep.Main.ID)
	s := distSpec{
		name:     "distribution",
		title:    T("chart.dist.title"),
		subtitle: T("chart.dist.subtitle", "Workload", main),
	}
	for i, p := range distPercentiles {
		s.pctLabels[i] = T("chart.latency.percentile", "N", int(p.p))
	}
	s.shareLabels = make([]string, 0, len(distShares))
	for _, v := range distShares {
		s.shareLabels = append(s.shareLabels, T("chart.dist.share", "N", int(v)))
	}
	desc := make([]string, 1, 1+len(sides)*len(distMetrics))
	desc[0] = T("chart.dist.desc", "Workload", main)
	for i, sd := range sides {
		if data[i] == nil {
			s.legend = append(s.legend, distLegend{kind: sd.kind, none: true, label: T("chart.dist.legend_none", "Config", sd.name)})
			desc = append(desc, T("chart.dist.desc_none", "Config", sd.name))
			continue
		}
		n := len(data[i].TTFT)
		s.legend = append(s.legend, distLegend{kind: sd.kind, label: T("chart.dist.legend", "Config", sd.name, "N", n)})
	}
	for _, dm := range distMetrics {
		p := distPanel{heading: T(dm.heading)}
		for i, sd := range sides {
			x := samplesOf(data[i], dm.name)
			if len(x) == 0 {
				continue
			}
			ser := distSeries{kind: sd.kind, sorted: slices.Clone(x)}
			slices.Sort(ser.sorted)
			var words [3]string // at distPercentiles
			for j, pc := range distPercentiles {
				// The block's own statistic when it has one, so the chart
				// agrees with the tables and the latency chart.
				v, dec := linearPercentile(ser.sorted, pc.p), 2
				if m, ok := sd.cell.Block.Metrics[pc.prefix+dm.name+"_ms"]; ok {
					v, dec = m.Value, min(max(m.Decimals, 0), 2)
				}
				ser.values[j], ser.labels[j] = v, report.FormatNumber(v, dec)
				words[j] = T("chart.dist.desc_value", "Stat", s.pctLabels[j], "Value", ser.labels[j])
			}
			desc = append(desc, T("chart.dist.desc_series", "Metric", p.heading, "Config", sd.name, "N", len(x),
				"Values", strings.Join(words[:], T("list.separator"))))
			p.series = append(p.series, ser)
		}
		if len(p.series) > 0 {
			s.panels = append(s.panels, p)
		}
	}
	s.desc = ct.sentences(desc)
	return s, true
}

// distStyle is how a configuration's line and markers are drawn.
func distStyle(k barKind) (line, marker pen) {
	if k == barOptimized {
		return pen{layer: layerData, stroke: colOptimized, width: 2, dash: dashOptimized},
			pen{layer: layerMarks, fill: colOptimized, stroke: colOptimizedDark, width: 1}
	}
	return pen{layer: layerData, stroke: colBaseline, width: 2},
		pen{layer: layerMarks, fill: colBaseline, stroke: colBaselineDark, width: 1}
}

// marker draws a configuration's marker centred at x, y: a diamond for the
// baseline, a square for the optimized configuration.
func (c *canvas) marker(k barKind, x, y int) {
	_, p := distStyle(k)
	if k == barOptimized {
		r := distMarker - 1
		c.rect(x-r, y-r, x+r, y+r, p)
		return
	}
	r := distMarker + 1
	c.moveTo(x, y-r)
	c.lineTo(x+r, y)
	c.lineTo(x, y+r)
	c.lineTo(x-r, y)
	c.closePath()
	c.drawPath(p)
}

// draw lays the chart out and draws it; with c nil it only measures, and
// returns the height.
func (s *distSpec) draw(m *textMetrics, c *canvas) int {
	w := float64(c.w)
	y := drawHeader(m, c, s.title, s.subtitle)
	// Legend: a line sample with its marker, then the label.
	const sw = 30
	l := newLegend(m, c, y, sw, 11)
	for _, it := range s.legend {
		l.item(it.label, func(x, top int) {
			mid := top + 7
			if it.none {
				c.line(x, mid, x+sw, mid, penNone)
				return
			}
			line, _ := distStyle(it.kind)
			c.line(x, mid, x+sw, mid, line)
			c.marker(it.kind, x+sw/2, mid)
		})
	}
	y = l.bottom() + 14 + 8

	// Columns: share labels | plot | percentile labels and values.
	shareW := 0.0
	for _, l := range s.shareLabels {
		shareW = max(shareW, m.width(l, tickSize))
	}
	pctW := 0.0
	for _, l := range s.pctLabels {
		pctW = max(pctW, m.width(l, valueSize))
	}
	var valW [2]float64 // per column: baseline, optimized
	cols := [2]bool{}
	for _, p := range s.panels {
		for _, ser := range p.series {
			col := 0
			if ser.kind == barOptimized {
				col = 1
			}
			cols[col] = true
			for _, l := range ser.labels {
				valW[col] = max(valW[col], m.width(l, valueSize))
			}
		}
	}
	// x of each value column: a marker, then the value.
	sideW := math.Ceil(pctW)
	var colX [2]float64
	for i := range cols {
		if cols[i] {
			colX[i] = sideW + 10
			sideW += 10 + 2*distMarker + 5 + math.Ceil(valW[i])
		}
	}
	plotL := float64(chartPad) + math.Ceil(shareW) + 8
	plotR := w - chartPad - sideW - distSideGap
	sideX := plotR + distSideGap
	for _, p := range s.panels {
		y += 12 + labelSize
		c.text(p.heading, chartPad, int(y), labelSize, colText, "start", true)
		y += 4 + 12
		top, bottom := y, y+distPlotH
		top0 := 0.0
		for _, ser := range p.series {
			top0 = max(top0, ser.sorted[len(ser.sorted)-1])
		}
		var tickBuf [8]float64 // room for the five or six ticks
		ticks := niceTicks(tickBuf[:0], top0)
		scaleMax := ticks[len(ticks)-1]
		xOf := func(v float64) int {
			if scaleMax <= 0 {
				return int(plotL)
			}
			return int(math.Round(plotL + v/scaleMax*(plotR-plotL)))
		}
		yOf := func(share float64) int { return int(math.Round(bottom - share*distPlotH)) }
		shareY := func(sh float64) int { return yOf(sh / 100) }
		c.grid(distShares, shareY, int(plotL), int(plotR), false)
		for i, sh := range distShares {
			c.text(s.shareLabels[i], int(plotL)-6, shareY(sh)+4, tickSize, colMuted, "end", false)
		}
		c.grid(ticks, xOf, int(top), int(bottom), true)
		c.axisTicks(ticks, xOf, int(bottom)+tickSize+4)
		// Guide lines at the percentiles, to their labels on the right.
		for j, pc := range distPercentiles {
			yy := yOf(pc.p / 100)
			c.line(int(plotL), yy, int(sideX)-4, yy, penGuide)
			c.text(s.pctLabels[j], int(sideX), yy+4, valueSize, colText, "start", true)
		}
		for _, ser := range p.series {
			line, _ := distStyle(ser.kind)
			n := float64(len(ser.sorted))
			pts := c.pts[:0]
			add := func(x, y int) {
				k := len(pts)
				if k > 0 && pts[k-1] == [2]int{x, y} {
					return
				}
				// Three points on one horizontal or vertical line: keep the ends.
				if k > 1 && (pts[k-2][0] == x && pts[k-1][0] == x || pts[k-2][1] == y && pts[k-1][1] == y) {
					pts[k-1] = [2]int{x, y}
					return
				}
				pts = append(pts, [2]int{x, y})
			}
			for i, v := range ser.sorted {
				xx := xOf(v)
				add(xx, yOf(float64(i)/n))
				add(xx, yOf(float64(i+1)/n))
			}
			for i, pt := range pts {
				if i == 0 {
					c.moveTo(pt[0], pt[1])
				} else {
					c.lineTo(pt[0], pt[1])
				}
			}
			c.drawPath(line)
			c.pts = pts // the scratch, grown, for the next series
		}
		for _, ser := range p.series {
			col := 0
			if ser.kind == barOptimized {
				col = 1
			}
			for j, pc := range distPercentiles {
				yy := yOf(pc.p / 100)
				c.marker(ser.kind, xOf(ser.values[j]), yy)
				mx := int(sideX + colX[col] + distMarker)
				c.marker(ser.kind, mx, yy)
				c.text(ser.labels[j], mx+distMarker+5, yy+4, valueSize, colText, "start", false)
			}
		}
		y = bottom + tickSize + 10
	}
	return int(math.Ceil(y)) + chartPad
}
