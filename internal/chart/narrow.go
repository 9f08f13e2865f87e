package chart

import "math"

// The narrow layout of the bar charts, for a phone's column: each group's
// label on lines of its own above its bars, the change at the right of the
// label's first line, and the bars across the whole width with their value
// at the end, so that every number stays in view at the size it is drawn.

// drawNarrow lays a bar chart out for a narrow canvas and returns its height.
func (s *chartSpec) drawNarrow(m *textMetrics, c *canvas) int {
	w := float64(c.w)
	valueW, noteW := 0.0, 0.0
	for _, p := range s.panels {
		for _, g := range p.groups {
			noteW = max(noteW, m.width(g.note, noteSize))
			for _, b := range g.bars {
				if !b.kind.slot() {
					valueW = max(valueW, m.width(b.label, valueSize))
				}
			}
		}
	}
	barX0 := float64(chartPad)
	barMax := w - chartPad - math.Ceil(valueW) - 6
	labelW := w - 2*chartPad - math.Ceil(noteW) - 8
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
		for _, g := range p.groups {
			y = s.drawNarrowGroup(m, c, g, y, labelW, barX0, barMax, ticks, xOf)
		}
		c.axisTicksEvery(ticks, xOf, int(y)+tickSize, tickStride(m, c, ticks, xOf))
		y += tickSize + 10
	}
	return int(math.Ceil(y)) + chartPad
}

// drawNarrowGroup draws one group from y down, its label and note above its
// bars and the grid behind them, and returns where the next group starts.
func (s *chartSpec) drawNarrowGroup(m *textMetrics, c *canvas, g group, y, labelW, barX0, barMax float64, ticks []float64, xOf func(float64) int) float64 {
	lh := labelSize * lineSpacing
	c.lines = m.wrapText(c.lines[:0], g.label, labelSize, labelW)
	for i, line := range c.lines {
		c.text(line, chartPad, int(y+labelSize+float64(i)*lh), labelSize, colText, "start", false)
	}
	if g.note != "" {
		col, bold := colMuted, false
		if g.sign > 0 {
			col, bold = colBetter, true
		} else if g.sign < 0 {
			col, bold = colWorse, true
		}
		c.text(g.note, c.w-chartPad, int(y+labelSize), noteSize, col, "end", bold)
	}
	y += max(1, float64(len(c.lines)))*lh + 4
	bh := float64(len(g.bars)*barHeight + (len(g.bars)-1)*barGap)
	c.grid(ticks, xOf, int(y)-2, int(y+bh)+2, true)
	drawBars(c, g.bars, y, barX0, barMax, xOf)
	return y + bh + groupGap
}

// tickStride is how many ticks apart the values under a narrow chart are
// written, so that no two of them overlap: 1 when every one fits.
func tickStride(m *textMetrics, c *canvas, ticks []float64, xOf func(float64) int) int {
	if len(ticks) < 2 {
		return 1
	}
	widest := 0.0
	for _, t := range ticks {
		widest = max(widest, m.width(c.tickLabel(t), tickSize))
	}
	gap := float64(xOf(ticks[1]) - xOf(ticks[0]))
	if gap <= 0 {
		return 1
	}
	return max(1, int(math.Ceil((widest+6)/gap)))
}
