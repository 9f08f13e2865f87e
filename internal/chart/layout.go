package chart

import (
	"math"
	"strconv"
)

// The charts are horizontal bar charts laid out here and drawn with
// go-chart's SVG renderer: labels on the left (long and CJK names fit),
// value labels at the end of each bar, the change on the right, so every
// number reads without colour.

// barKind says how a bar is drawn.
type barKind int

const (
	barBaseline    barKind = iota // the baseline configuration
	barOptimized                  // the recommended configuration
	barReference                  // a step's reference run
	barAlternative                // a step's other runs
	barExcluded                   // measured but not comparable: grey, dashed
	barFailed                     // an empty, labelled slot: the run has no result
	barMissing                    // an empty, labelled slot: no log for it
)

func (k barKind) slot() bool { return k == barFailed || k == barMissing }

// bar is one bar or empty slot.
type bar struct {
	kind      barKind
	value     float64 // the effective value: the bar's length
	label     string  // the value as printed ("3019.19 x 2"), or the slot's text
	projected bool    // hatched: a projection, not a measurement
	// lo and hi, for a mean of repeats, are its 95 % interval (effective),
	// drawn as an error bar; repeats is their count, 0 without.
	lo, hi  float64
	repeats int
}

// group is one labelled set of bars with a note on the right.
type group struct {
	label string
	bars  []bar
	note  string // "▲ +59.2 %", "reference", ...
	sign  int    // +1 better, -1 worse, 0 neither
}

// panel is a set of groups that share one scale.
type panel struct {
	heading string
	groups  []group
}

// axis is p's value axis from x0 to x1: its ticks, from zero past the
// highest bar or interval (slots have no value), and the x of a value.
func (p *panel) axis(buf []float64, x0, x1 float64) ([]float64, func(float64) int) {
	top := 0.0
	for _, g := range p.groups {
		for _, b := range g.bars {
			if !b.kind.slot() {
				top = max(top, b.value, b.hi)
			}
		}
	}
	ticks := niceTicks(buf, top)
	scaleMax := ticks[len(ticks)-1]
	return ticks, func(v float64) int {
		if scaleMax <= 0 {
			return int(x0)
		}
		return int(math.Round(x0 + v/scaleMax*(x1-x0)))
	}
}

type legendItem struct {
	kind      barKind
	projected bool
	label     string
}

// chartSpec is a chart before layout.
type chartSpec struct {
	name     string
	title    string
	subtitle string
	legend   []legendItem
	panels   []panel
	desc     string
}

// Okabe–Ito colours, darker variants for outlines and text.
var (
	colBaseline      = hexPaint("E69F00") // orange
	colBaselineDark  = hexPaint("8F6200")
	colBaselineLight = hexPaint("F6D78F")
	colOptimized     = hexPaint("0072B2") // blue
	colOptimizedDark = hexPaint("004C77")
	colOptimizedLite = hexPaint("9CC8E3")
	colExcluded      = hexPaint("DDDDDD")
	colBetter        = hexPaint("00704F") // bluish green, darkened for text
	colWorse         = hexPaint("A84300") // vermillion, darkened for text
	colText          = hexPaint("1F2328")
	colMuted         = hexPaint("57606A")
	colGrid          = hexPaint("D8DEE4")
	colAxis          = hexPaint("8C959F")
	colCard          = hexPaint("FFFFFF")
	colCardEdge      = hexPaint("D0D7DE")
)

// The dashes of an excluded bar and of an empty slot.
var (
	dashExcluded = &[2]float64{4, 3}
	dashSlot     = &[2]float64{5, 4}
)

// pen is how a bar of kind k is drawn, and its legend sample: a
// projection's hatching is drawn with the same pen, in the outline's
// colour (its lines were 1.5 px until go-chart, which writes whole
// pixels, drew them at 1 px).
func (k barKind) pen(projected bool) pen {
	p := pen{layer: layerData, stroke: colAxis, width: 1, dash: dashSlot}
	switch k {
	case barBaseline, barReference:
		p.fill, p.stroke, p.dash = colBaseline, colBaselineDark, solid
		if projected {
			p.fill = colBaselineLight
		}
	case barOptimized, barAlternative:
		p.fill, p.stroke, p.dash = colOptimized, colOptimizedDark, solid
		if projected {
			p.fill = colOptimizedLite
		}
	case barExcluded:
		p.fill, p.stroke, p.dash = colExcluded, colMuted, dashExcluded
	}
	return p
}

// penErrorBar draws the interval of a mean of repeats over its bar.
var penErrorBar = pen{layer: layerOver, stroke: colText, width: 2}

// Layout in pixels.
const (
	chartWidth  = 800
	narrowWidth = 360 // a phone's column: drawn at about its own size
	chartPad    = 20
	titleSize   = 17
	subSize     = 13
	labelSize   = 13
	valueSize   = 12
	noteSize    = 13
	tickSize    = 11
	legendSize  = 12
	barHeight   = 20
	barGap      = 4
	groupGap    = 14
	maxLabelW   = 210
	minBarArea  = 260
	lineSpacing = 1.35
)

// drawHeader draws a chart's title and subtitle and returns the height they
// take.
func drawHeader(m *textMetrics, c *canvas, title, subtitle string) float64 {
	w := float64(c.w)
	y := float64(chartPad)
	c.lines = m.wrapText(c.lines[:0], title, titleSize, w-2*chartPad)
	for _, line := range c.lines {
		y += titleSize
		c.text(line, chartPad, int(y), titleSize, colText, "start", true)
		y += titleSize * (lineSpacing - 1)
	}
	y += 4
	c.lines = m.wrapText(c.lines[:0], subtitle, subSize, w-2*chartPad)
	for _, line := range c.lines {
		y += subSize
		c.text(line, chartPad, int(y), subSize, colMuted, "start", false)
		y += subSize * (lineSpacing - 1)
	}
	return y
}

// draw lays a chart out, draws it and returns its height.
func (s *chartSpec) draw(m *textMetrics, c *canvas) int {
	if c.w < chartWidth {
		return s.drawNarrow(m, c)
	}
	w := float64(c.w)
	// Columns: labels | bars | value labels | notes.
	widest, valueW, noteW := 0.0, 0.0, 0.0 // widest: of the labels
	for _, p := range s.panels {
		for _, g := range p.groups {
			widest = max(widest, m.width(g.label, labelSize))
			noteW = max(noteW, m.width(g.note, noteSize))
			for _, b := range g.bars {
				if !b.kind.slot() {
					valueW = max(valueW, m.width(b.label, valueSize))
				}
			}
		}
	}
	labelW := min(math.Ceil(widest), maxLabelW)
	notesRight := w - chartPad
	barX0 := chartPad + labelW + 12
	barMax := notesRight - noteW - 14 - valueW - 6
	if barMax-barX0 < minBarArea {
		labelW = max(90, labelW-(minBarArea-(barMax-barX0)))
		barX0 = chartPad + labelW + 12
	}
	y := s.drawLegend(m, c, drawHeader(m, c, s.title, s.subtitle))
	for _, p := range s.panels {
		var tickBuf [8]float64 // room for the five or six ticks
		ticks, xOf := p.axis(tickBuf[:0], barX0, barMax)
		if p.heading != "" {
			y += 12 + labelSize
			c.text(p.heading, chartPad, int(y), labelSize, colText, "start", true)
			y += 4
		}
		y += 8
		panelTop := y
		// Heights first, so the grid can be drawn under the bars. The
		// labels' lines share one scratch slice.
		type rows struct {
			h        float64
			from, to int // the label's lines, in c.lines
		}
		var heightBuf [16]rows // room for most panels
		heights := heightBuf[:0]
		c.lines = c.lines[:0]
		for _, g := range p.groups {
			from := len(c.lines)
			if widest <= labelW {
				c.lines = append(c.lines, g.label) // fits, as measured above
			} else {
				c.lines = m.wrapText(c.lines, g.label, labelSize, labelW)
			}
			bh := float64(len(g.bars)*barHeight + (len(g.bars)-1)*barGap)
			heights = append(heights, rows{max(bh, float64(len(c.lines)-from)*labelSize*lineSpacing), from, len(c.lines)})
		}
		panelBottom := panelTop
		for _, r := range heights {
			panelBottom += r.h + groupGap
		}
		panelBottom -= groupGap / 2
		c.grid(ticks, xOf, int(panelTop)-4, int(panelBottom), true)
		c.axisTicks(ticks, xOf, int(panelBottom)+tickSize+4)
		for i, g := range p.groups {
			h := heights[i].h
			lines := c.lines[heights[i].from:heights[i].to]
			mid := y + h/2
			// the label, centred on its bars
			lh := labelSize * lineSpacing
			ly := mid - float64(len(lines))*lh/2 + labelSize*0.8 + (lh-labelSize)/2
			for j, line := range lines {
				c.text(line, int(barX0)-10, int(ly+float64(j)*lh), labelSize, colText, "end", false)
			}
			if g.note != "" {
				col, bold := colMuted, false
				if g.sign > 0 {
					col, bold = colBetter, true
				} else if g.sign < 0 {
					col, bold = colWorse, true
				}
				c.text(g.note, int(notesRight), int(mid+noteSize*0.35), noteSize, col, "end", bold)
			}
			bh := float64(len(g.bars)*barHeight + (len(g.bars)-1)*barGap)
			drawBars(c, g.bars, mid-bh/2, barX0, barMax, xOf)
			y += h + groupGap
		}
		y = panelBottom + tickSize + 10
	}
	return int(math.Ceil(y)) + chartPad
}

// drawLegend draws the legend below a header that ends at y: swatches
// with labels. It returns where the panels start.
func (s *chartSpec) drawLegend(m *textMetrics, c *canvas, y float64) float64 {
	if len(s.legend) > 0 {
		const sw = 14
		l := newLegend(m, c, y, sw, sw-2)
		for _, it := range s.legend {
			p := it.kind.pen(it.projected)
			l.item(it.label, func(x, top int) {
				c.box(x, top, x+sw, top+sw)
				if it.projected {
					c.hatch(x, top, x+sw, top+sw, 5)
				}
				c.drawPath(p)
			})
		}
		y = l.bottom() + sw
	}
	return y + 8
}

// drawBars draws a group's bars from by down, each starting at barX0 with
// its value label at its end; an empty slot spans to barMax.
func drawBars(c *canvas, bars []bar, by, barX0, barMax float64, xOf func(float64) int) {
	for _, b := range bars {
		y0, y1 := int(by), int(by)+barHeight
		p := b.kind.pen(b.projected)
		if b.kind.slot() {
			c.rect(int(barX0)+1, y0, int(barMax), y1, p)
			c.text(b.label, int(barX0)+8, y1-6, valueSize, colMuted, "start", false)
		} else {
			x1 := max(xOf(b.value), int(barX0)+1)
			c.box(int(barX0), y0, x1, y1)
			if b.projected {
				c.hatch(int(barX0), y0, x1, y1, 6)
			}
			c.drawPath(p)
			if b.repeats > 1 {
				// The interval of a mean of repeats: a whisker with caps.
				lo, hi, ym := xOf(b.lo), xOf(b.hi), (y0+y1)/2
				c.moveTo(lo, ym)
				c.lineTo(hi, ym)
				c.moveTo(lo, y0+4)
				c.lineTo(lo, y1-4)
				c.moveTo(hi, y0+4)
				c.lineTo(hi, y1-4)
				c.drawPath(penErrorBar)
				x1 = max(x1, hi)
			}
			c.text(b.label, x1+6, y1-6, valueSize, colText, "start", false)
		}
		by += barHeight + barGap
	}
}

// niceTicks appends to ticks 0 and evenly spaced round values up to one at
// or above top: steps of 1, 2 or 5 times a power of ten, about five ticks.
func niceTicks(ticks []float64, top float64) []float64 {
	if top <= 0 || math.IsNaN(top) || math.IsInf(top, 0) {
		return append(ticks, 0, 1)
	}
	raw := top / 5
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := mag
	for _, f := range []float64{1, 2, 2.5, 5, 10} {
		if f*mag >= raw {
			step = f * mag
			break
		}
	}
	n := int(math.Ceil(top/step - 1e-9))
	for i := 0; i <= n; i++ {
		ticks = append(ticks, float64(i)*step)
	}
	return ticks
}

// appendTick writes a tick's value: rounded to six decimals, in as few
// digits as show it.
func appendTick(b []byte, v float64) []byte {
	v = math.Round(v*1e6) / 1e6
	if v >= 0 && v < 1e15 && v == math.Trunc(v) && !math.Signbit(v) {
		return strconv.AppendInt(b, int64(v), 10) // the same digits, without the shortest-float search
	}
	return strconv.AppendFloat(b, v, 'f', -1, 64)
}

// legendFlow lays a chart's legend out: each item is a sample sw wide and
// its label, left to right, onto a new line before an item that would pass
// the chart's right edge. A label too wide for a line of its own wraps
// under itself, beside its sample.
type legendFlow struct {
	m        *textMetrics
	c        *canvas
	sw, base int     // the samples' width; the labels' baseline below a line's top
	x, y     float64 // where the next item goes; y is its line's top
	extra    float64 // how far the current line's wrapped labels reach below one line
}

// legendLine is the height of one line of a legend label that wraps.
const legendLine = legendSize * lineSpacing

// newLegend starts a legend below a chart's header, which ends at y.
func newLegend(m *textMetrics, c *canvas, y float64, sw, base int) *legendFlow {
	return &legendFlow{m: m, c: c, sw: sw, base: base, x: chartPad, y: y + 10}
}

// item adds one entry: sample draws its sample at x, on the line whose top
// is top; the label follows.
func (l *legendFlow) item(label string, sample func(x, top int)) {
	right := float64(l.c.w - chartPad)
	lw := l.m.width(label, legendSize)
	if l.x > chartPad && l.x+float64(l.sw)+6+lw > right {
		l.x = chartPad
		l.y += legendSize*1.8 + l.extra
		l.extra = 0
	}
	sample(int(l.x), int(l.y))
	tx := l.x + float64(l.sw) + 6
	if tx+lw <= right {
		l.c.text(label, int(tx), int(l.y)+l.base, legendSize, colText, "start", false)
		l.x = tx + lw + 18
		return
	}
	// Wider than the room left on a line of its own: wrapped, and the
	// next item starts a new line.
	l.c.lines = l.m.wrapText(l.c.lines[:0], label, legendSize, right-tx)
	for i, line := range l.c.lines {
		l.c.text(line, int(tx), int(l.y+float64(i)*legendLine)+l.base, legendSize, colText, "start", false)
	}
	l.extra = max(l.extra, float64(len(l.c.lines)-1)*legendLine)
	l.x = right
}

// bottom is the top of the legend's last line, below any wrapped label.
func (l *legendFlow) bottom() float64 { return l.y + l.extra }
