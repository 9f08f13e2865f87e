package chart

import (
	"bytes"
	"fmt"
	"strconv"

	gochart "github.com/wcharczuk/go-chart/v2"
	"github.com/wcharczuk/go-chart/v2/drawing"
)

// Drawing. A chart's layout draws on a canvas, which records what is drawn
// and hands it to go-chart's SVG renderer once the layout is done, when the
// chart's height is known (chart.SVG takes it up front). go-chart writes
// every element with fmt, a dozen calls for its style alone, so the canvas
// gives it as few elements as the picture allows:
//   - every path of one pen (fill, outline, width, dashes: a style set
//     once) becomes one path of several subpaths: all the bars of a
//     series with their hatching, all grid lines of a chart;
//   - pens belong to layers, drawn bottom to top (grid, then data, then
//     error bars and label cards, then text, then markers): a shape lies
//     over those of lower layers whenever it was drawn; within a layer the
//     pens go in the order first used, and their shapes seldom overlap;
//   - likewise every text of one font (size, colour, anchor, weight)
//     becomes one text element, each text a tspan at its own place.
// The layout runs once; the canvas's memory is reused for the next chart.
//
// What the renderer cannot express is added here, and only that:
//   - Escaping, anchors and weight: the renderer writes a text's body as it
//     is given, unescaped, and leaves Style's alignment out. The body is
//     escaped here and, when the text is anchored or bold, wrapped in a
//     tspan that says so, as it says the place of each text of a font
//     after the first.
//   - The root element's size, role, accessible name and font stack, and
//     the <title> and <desc> that are the chart's text alternative: written
//     into the renderer's <svg> tag once it is saved (withHead, svg.go).
//   - Text measurement (textMetrics, svg.go): go-chart measures with
//     Roboto, which has no CJK glyphs, building a font face on every call.

// svgDPI makes go-chart's font sizes pixels: it converts points at its DPI.
const svgDPI = 72

// paint is a colour; the zero colour is none.
type paint = drawing.Color

func hexPaint(hex string) paint { return drawing.ColorFromHex(hex) }

// dashes is a stroke's dash pattern, on and off; solid, nil, is none. A
// pointer, so that pens compare.
type dashes = *[2]float64

var solid dashes

// layer is where a pen's paths lie: a higher layer is drawn over a lower.
type layer uint8

const (
	layerCard  layer = iota // the card under the whole chart
	layerGrid               // grid lines, axes, guide lines
	layerUnder              // lines under the data: the sweep's frontier
	layerData               // bars, their hatching, empty slots, curves, legend samples
	layerOver               // error bars, and the cards under point labels
	layerText               // every text
	layerMarks              // the markers of points, over their labels
	layerCount
)

// pen is how a path is drawn, and in which layer.
type pen struct {
	layer        layer
	fill, stroke paint // the zero colour: none
	width        float64
	dash         dashes
}

// pathOp is one command of a path: a move, a line or a close.
type pathOp struct {
	kind byte // 'M', 'L' or 'Z'
	pen  uint16
	x, y int32
}

// font is how a text is drawn: its size, colour, anchor ("start", "middle"
// or "end") and weight. The canvas draws all texts of one font as one text.
type font struct {
	size   float64
	color  paint
	anchor string
	bold   bool
}

// textChunk is one text: s with its anchor at x and its baseline at y.
type textChunk struct {
	font uint16
	s    string
	x, y int
}

// canvas records a chart drawn w pixels wide.
type canvas struct {
	w      int
	pens   []pen        // in the order first used
	ops    []pathOp     // every path's commands; those after open are not drawn yet
	open   int          // the start of the path being built
	fonts  []font       // in the order first used
	chunks []textChunk  // every text, in the order drawn
	body   []byte       // scratch for a text's body
	pts    [][2]int     // scratch for the distribution chart's polylines
	lines  []string     // scratch for wrapped text
	out    bytes.Buffer // scratch for the renderer's SVG
	// tickLabels are tick values as written, kept for the page's other
	// charts, which share most of their ticks.
	tickLabels map[float64]string
}

// reset clears the canvas for a chart w pixels wide, keeping its memory.
func (c *canvas) reset(w int) {
	c.w = w
	c.pens, c.ops, c.open = c.pens[:0], c.ops[:0], 0
	c.fonts, c.chunks = c.fonts[:0], c.chunks[:0]
}

func (c *canvas) moveTo(x, y int) { c.ops = append(c.ops, pathOp{kind: 'M', x: int32(x), y: int32(y)}) }
func (c *canvas) lineTo(x, y int) { c.ops = append(c.ops, pathOp{kind: 'L', x: int32(x), y: int32(y)}) }

// closePath closes the subpath built so far back to its start.
func (c *canvas) closePath() { c.ops = append(c.ops, pathOp{kind: 'Z'}) }

// drawPath draws the path built since the last with p: it joins p's path.
func (c *canvas) drawPath(p pen) {
	i := 0
	for i < len(c.pens) && c.pens[i] != p {
		i++
	}
	if i == len(c.pens) {
		c.pens = append(c.pens, p)
	}
	for j := c.open; j < len(c.ops); j++ {
		c.ops[j].pen = uint16(i)
	}
	c.open = len(c.ops)
}

// text draws s with its anchor ("start", "middle" or "end") at x and its
// baseline at y: it joins the text of its font.
func (c *canvas) text(s string, x, y int, size float64, color paint, anchor string, bold bool) {
	f := font{size, color, anchor, bold}
	i := 0
	for i < len(c.fonts) && c.fonts[i] != f {
		i++
	}
	if i == len(c.fonts) {
		c.fonts = append(c.fonts, f)
	}
	c.chunks = append(c.chunks, textChunk{uint16(i), s, x, y})
}

// tickLabel is a tick's value as written.
func (c *canvas) tickLabel(v float64) string {
	s, ok := c.tickLabels[v]
	if !ok {
		if c.tickLabels == nil {
			c.tickLabels = make(map[float64]string)
		}
		s = string(appendTick(nil, v))
		c.tickLabels[v] = s
	}
	return s
}

// axisTicks draws an axis's tick values centred at their x (at), baseline
// at y.
func (c *canvas) axisTicks(ticks []float64, at func(float64) int, y int) {
	c.axisTicksEvery(ticks, at, y, 1)
}

// axisTicksEvery draws every nth of ticks' values, from the first.
func (c *canvas) axisTicksEvery(ticks []float64, at func(float64) int, y, every int) {
	for i, t := range ticks {
		if i%every == 0 {
			c.text(c.tickLabel(t), at(t), y, tickSize, colMuted, "middle", false)
		}
	}
}

// box adds a rectangle to the path being built.
func (c *canvas) box(x0, y0, x1, y1 int) {
	c.moveTo(x0, y0)
	c.lineTo(x1, y0)
	c.lineTo(x1, y1)
	c.lineTo(x0, y1)
	c.closePath()
}

// rect draws a rectangle.
func (c *canvas) rect(x0, y0, x1, y1 int, p pen) {
	c.box(x0, y0, x1, y1)
	c.drawPath(p)
}

// line draws a straight line.
func (c *canvas) line(x0, y0, x1, y1 int, p pen) {
	c.moveTo(x0, y0)
	c.lineTo(x1, y1)
	c.drawPath(p)
}

// The pens of grids: the lines at each tick, and the one at zero.
var (
	penGrid = pen{layer: layerGrid, stroke: colGrid, width: 1}
	penAxis = pen{layer: layerGrid, stroke: colAxis, width: 1}
)

// grid draws a grid's lines across from..to at each tick's position: the
// one at zero in the axis's colour, the others in the grid's. Vertical
// lines when vertical, else horizontal.
func (c *canvas) grid(ticks []float64, at func(float64) int, from, to int, vertical bool) {
	for _, t := range ticks {
		p := at(t)
		if vertical {
			c.moveTo(p, from)
			c.lineTo(p, to)
		} else {
			c.moveTo(from, p)
			c.lineTo(to, p)
		}
		if t == 0 {
			c.drawPath(penAxis)
		} else {
			c.drawPath(penGrid)
		}
	}
}

// hatch adds diagonal lines, every step pixels, clipped to a rectangle, to
// the path being built: the pattern that marks a projected value without
// relying on colour. Drawn with the rectangle's own pen, as one path: the
// lines have no area to fill, and they lie over the fill, as the stroke
// of a path is painted after its fill.
func (c *canvas) hatch(x0, y0, x1, y1, step int) {
	if x1-x0 < 2 || y1-y0 < 2 {
		return
	}
	// Lines x + y = k, from the bottom-left corner up and to the right.
	for k := x0 + y0 + step; k < x1+y1; k += step {
		xa, xb := max(x0, k-y1), min(x1, k-y0)
		if xb-xa < 1 {
			continue
		}
		c.moveTo(xa, k-xa)
		c.lineTo(xb, k-xb)
	}
}

// penCard is the card under a whole chart.
var penCard = pen{layer: layerCard, fill: colCard, stroke: colCardEdge, width: 1}

// drawSVG lays a chart out w pixels wide on c, which finds its height,
// draws it on go-chart's SVG renderer over a card, and gives it its root
// attributes and text alternative (withHead).
func drawSVG(c *canvas, m *textMetrics, w int, draw func(*textMetrics, *canvas) int, name, title, desc, fontAttr string) (svg []byte, h int, err error) {
	c.reset(w)
	h = draw(m, c)
	r, err := gochart.SVG(w, h)
	if err != nil {
		return nil, h, fmt.Errorf("chart %s: %w", name, err)
	}
	r.SetDPI(svgDPI)
	c.rect(0, 0, w-1, h-1, penCard) // a card under it all, whatever the page's background
	c.paint(r)
	c.out.Reset()
	if err := r.Save(&c.out); err != nil {
		return nil, h, fmt.Errorf("chart %s: %w", name, err)
	}
	svg, err = withHead(c.out.Bytes(), name, title, desc, fontAttr, w, h)
	return svg, h, err
}

// paint hands what was recorded to the renderer: layer by layer, one path
// per pen in the order the pens were first used, and in the text layer
// one text element per font in the order the fonts were first used.
func (c *canvas) paint(r gochart.Renderer) {
	for l := range layerCount {
		if l == layerText {
			for i := range c.fonts {
				c.renderText(r, i)
			}
			continue
		}
		for i, p := range c.pens {
			if p.layer == l {
				c.renderPath(r, i)
			}
		}
	}
}

// renderPath draws the path of pen i.
func (c *canvas) renderPath(r gochart.Renderer, i int) {
	p := c.pens[i]
	for _, op := range c.ops {
		if int(op.pen) != i {
			continue
		}
		switch op.kind {
		case 'M':
			r.MoveTo(int(op.x), int(op.y))
		case 'L':
			r.LineTo(int(op.x), int(op.y))
		default:
			r.Close()
		}
	}
	r.SetFillColor(p.fill)
	r.SetStrokeColor(p.stroke)
	r.SetStrokeWidth(p.width)
	if p.dash != nil {
		r.SetStrokeDashArray(p.dash[:])
	} else {
		r.SetStrokeDashArray(nil)
	}
	r.FillStroke()
}

// renderText draws the texts of font i as one text element, at the first
// one's place. A tspan carries what go-chart's text element cannot: the
// anchor (a new text chunk at x), the weight, and the place of each text
// after the first.
func (c *canvas) renderText(r gochart.Renderer, i int) {
	f := c.fonts[i]
	anchored := f.anchor != "" && f.anchor != "start"
	b := c.body[:0]
	var x0, y0, y int // the first text's place; y, where the last one's baseline is
	n := 0
	for _, ch := range c.chunks {
		if int(ch.font) != i {
			continue
		}
		if n == 0 {
			x0, y0, y = ch.x, ch.y, ch.y
		}
		if n == 0 && !anchored && !f.bold {
			b = appendEscaped(b, ch.s)
			n++
			continue
		}
		b = append(b, "<tspan"...)
		if n > 0 || anchored {
			b = append(b, ` x="`...)
			b = strconv.AppendInt(b, int64(ch.x), 10)
			b = append(b, '"')
		}
		if ch.y != y {
			b = append(b, ` y="`...)
			b = strconv.AppendInt(b, int64(ch.y), 10)
			b = append(b, '"')
			y = ch.y
		}
		if anchored {
			b = append(b, ` text-anchor="`...)
			b = append(b, f.anchor...)
			b = append(b, '"')
		}
		if f.bold {
			b = append(b, ` font-weight="bold"`...)
		}
		b = append(b, '>')
		b = appendEscaped(b, ch.s)
		b = append(b, "</tspan>"...)
		n++
	}
	c.body = b
	r.SetFontColor(f.color)
	r.SetFontSize(f.size)
	r.Text(string(b), x0, y0)
}
