package chart

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/golang/freetype/truetype"
	gochart "github.com/wcharczuk/go-chart/v2"
	"github.com/wcharczuk/go-chart/v2/drawing"
	"github.com/wcharczuk/go-chart/v2/roboto"
	"golang.org/x/image/math/fixed"
	"golang.org/x/text/width"

	"github.com/perflab/perflab/internal/plain"
)

// Text measurement. go-chart measures text with its TrueType font (Roboto),
// which has no CJK glyphs, and builds a new font face on every call. Charts
// measure with one table of Roboto advances built once per process, count
// East Asian wide and full-width runes (and any rune Roboto lacks) as one
// em, since the browser draws those with a CJK font whose glyphs are one em
// wide, and add a margin for Latin text drawn with another font than Roboto.

// latinSlack widens Latin text: the page may draw it with a wider font than
// the Roboto it was measured with.
const latinSlack = 1.08

type textMetrics struct {
	font  *truetype.Font
	units fixed.Int26_6
	// bmp is the advance in ems of each rune of the Basic Multilingual
	// Plane, looked up once rather than for every rune measured; 0 for
	// runes counted as one em.
	bmp [0x10000]float64
}

var chartMetrics = sync.OnceValues(func() (*textMetrics, error) {
	f, err := truetype.Parse(roboto.Roboto)
	if err != nil {
		return nil, fmt.Errorf("charts: the go-chart font: %w", err)
	}
	m := &textMetrics{font: f, units: fixed.Int26_6(f.FUnitsPerEm())}
	for r := range m.bmp {
		m.bmp[r] = m.lookup(rune(r))
	}
	return m, nil
})

// lookup is a rune's advance in ems, or 0 when it counts as one em: East
// Asian wide and full-width runes (from U+0300 on, below there are none),
// and runes the font lacks.
func (m *textMetrics) lookup(r rune) float64 {
	if r >= 0x300 {
		if k := width.LookupRune(r).Kind(); k == width.EastAsianWide || k == width.EastAsianFullwidth {
			return 0
		}
	}
	return m.advance(r)
}

// advance is a rune's advance in ems, or 0 when the font lacks it.
func (m *textMetrics) advance(r rune) float64 {
	i := m.font.Index(r)
	if i == 0 {
		return 0
	}
	return float64(m.font.HMetric(m.units, i).AdvanceWidth) / float64(m.units)
}

// width is the width in pixels of s set at size pixels.
func (m *textMetrics) width(s string, size float64) float64 {
	var latin, wide float64
	for _, r := range s {
		var a float64
		if r < rune(len(m.bmp)) {
			a = m.bmp[r]
		} else {
			a = m.lookup(r)
		}
		if a == 0 {
			wide++
			continue
		}
		latin += a
	}
	return (latin*latinSlack + wide) * size
}

// Drawing. Every element of a chart is drawn through go-chart's Renderer
// interface, on its SVG renderer (chart.SVG at 72 DPI, so that a point is a
// pixel): paths, their fill, stroke, width and dashes, and text with its
// colour and size. What that renderer cannot express is added here, and
// only that:
//   - Its size up front: chart.SVG takes the height before anything is
//     drawn, and a chart's height comes out of its layout (wrapped titles,
//     labels and legends). Each chart is laid out once without a renderer,
//     which measures it, then drawn.
//   - Escaping, anchors and weight: the renderer writes a text's body as it
//     is given, unescaped, and leaves Style's alignment out. The body is
//     escaped here and, when the text is anchored or bold, wrapped in a
//     tspan that says so.
//   - The root element's size, role, accessible name and font stack, and
//     the <title> and <desc> that are the chart's text alternative: written
//     into the renderer's <svg> tag once it is saved.
//   - Text measurement (textMetrics above): go-chart measures with Roboto,
//     which has no CJK glyphs, building a font face on every call.

// svgDPI makes go-chart's font sizes pixels: it converts points at its DPI.
const svgDPI = 72

// canvas draws a chart on go-chart's renderer, or, while r is nil, only
// lays it out to find its height.
type canvas struct {
	w     int              // the chart's width in pixels: chartWidth or narrowWidth
	r     gochart.Renderer // nil while measuring
	body  []byte           // scratch for a text's body
	pts   [][2]int         // scratch for the distribution chart's polylines
	lines []string         // scratch for wrapped text
}

// paint is a colour; noPaint, the zero colour, is none.
type paint = drawing.Color

var noPaint paint

func hexPaint(hex string) paint { return drawing.ColorFromHex(hex) }

// dashes is a stroke's dash pattern; solid, none, is no dashes.
type dashes = []float64

var solid dashes

func dashArray(d ...float64) dashes { return d }

// xmlEscapes are the escapes of the bytes XML text and attributes need
// escaped; "" for every other byte. xmlSpecial marks the same bytes: a
// table of bools is quicker to test than one of strings.
var (
	xmlEscapes = [256]string{'&': "&amp;", '<': "&lt;", '>': "&gt;", '"': "&quot;", '\'': "&#39;"}
	xmlSpecial = [256]bool{'&': true, '<': true, '>': true, '"': true, '\'': true}
)

// appendEscaped appends s escaped for XML text and attributes, its
// control characters made visible first (most are not allowed in XML: one
// would make the whole chart invalid).
func appendEscaped(b []byte, s string) []byte {
	s = plain.Line(s)
	last := 0
	for i := 0; i < len(s); i++ {
		if xmlSpecial[s[i]] {
			b = append(b, s[last:i]...)
			b = append(b, xmlEscapes[s[i]]...)
			last = i + 1
		}
	}
	return append(b, s[last:]...)
}

// text draws s with its anchor ("start", "middle" or "end") at x and its
// baseline at y.
func (c *canvas) text(s string, x, y int, size float64, color paint, anchor string, bold bool) {
	if c.r == nil {
		return
	}
	b := c.body[:0]
	anchored := anchor != "" && anchor != "start"
	if anchored || bold {
		// A tspan carries what go-chart's text element cannot: the anchor
		// (a new text chunk at x) and the weight.
		b = append(b, "<tspan"...)
		if anchored {
			b = append(b, ` x="`...)
			b = strconv.AppendInt(b, int64(x), 10)
			b = append(b, `" text-anchor="`...)
			b = append(b, anchor...)
			b = append(b, '"')
		}
		if bold {
			b = append(b, ` font-weight="bold"`...)
		}
		b = append(b, '>')
		b = appendEscaped(b, s)
		b = append(b, "</tspan>"...)
	} else {
		b = appendEscaped(b, s)
	}
	c.body = b
	c.r.SetFontColor(color)
	c.r.SetFontSize(size)
	c.r.Text(string(b), x, y)
}

// tick draws an axis tick's value centred at x.
func (c *canvas) tick(v float64, x, y int) {
	if c.r != nil {
		c.text(string(appendTick(nil, v)), x, y, tickSize, colMuted, "middle", false)
	}
}

func (c *canvas) moveTo(x, y int) {
	if c.r != nil {
		c.r.MoveTo(x, y)
	}
}

func (c *canvas) lineTo(x, y int) {
	if c.r != nil {
		c.r.LineTo(x, y)
	}
}

// closePath closes the path built so far back to its start.
func (c *canvas) closePath() {
	if c.r != nil {
		c.r.Close()
	}
}

// drawPath draws the path built so far.
func (c *canvas) drawPath(fill, stroke paint, strokeWidth float64, dash dashes) {
	if c.r == nil {
		return
	}
	c.r.SetFillColor(fill)
	c.r.SetStrokeColor(stroke)
	c.r.SetStrokeWidth(strokeWidth)
	c.r.SetStrokeDashArray(dash)
	c.r.FillStroke()
}

// rect draws a rectangle; noPaint leaves fill or stroke out.
func (c *canvas) rect(x0, y0, x1, y1 int, fill, stroke paint, strokeWidth float64, dash dashes) {
	c.moveTo(x0, y0)
	c.lineTo(x1, y0)
	c.lineTo(x1, y1)
	c.lineTo(x0, y1)
	c.closePath()
	c.drawPath(fill, stroke, strokeWidth, dash)
}

// line draws a straight line.
func (c *canvas) line(x0, y0, x1, y1 int, stroke paint, strokeWidth float64, dash dashes) {
	c.moveTo(x0, y0)
	c.lineTo(x1, y1)
	c.drawPath(noPaint, stroke, strokeWidth, dash)
}

// grid draws a grid's lines across from..to at each tick's position: the
// others in one path in the grid's colour, then the one at zero in the
// axis's. Vertical lines when vertical, else horizontal.
func (c *canvas) grid(ticks []float64, at func(float64) int, from, to int, vertical bool) {
	segment := func(p int) {
		if vertical {
			c.moveTo(p, from)
			c.lineTo(p, to)
		} else {
			c.moveTo(from, p)
			c.lineTo(to, p)
		}
	}
	drawn := false
	for _, t := range ticks {
		if t != 0 {
			segment(at(t))
			drawn = true
		}
	}
	if drawn {
		c.drawPath(noPaint, colGrid, 1, solid)
	}
	for _, t := range ticks {
		if t == 0 {
			segment(at(t))
			c.drawPath(noPaint, colAxis, 1, solid)
		}
	}
}

// hatch draws diagonal lines, every step pixels, clipped to a rectangle:
// the pattern that marks a projected value without relying on colour.
func (c *canvas) hatch(x0, y0, x1, y1, step int, stroke paint) {
	if x1-x0 < 2 || y1-y0 < 2 {
		return
	}
	drawn := false
	// Lines x + y = k, from the bottom-left corner up and to the right.
	for k := x0 + y0 + step; k < x1+y1; k += step {
		xa, xb := max(x0, k-y1), min(x1, k-y0)
		if xb-xa < 1 {
			continue
		}
		c.moveTo(xa, k-xa)
		c.lineTo(xb, k-xb)
		drawn = true
	}
	if drawn {
		c.drawPath(noPaint, stroke, 1.5, solid)
	}
}

// drawSVG draws a chart w pixels wide: laid out once to find its height,
// then drawn on go-chart's SVG renderer over a card, and given its root
// attributes and text alternative (withHead).
func drawSVG(m *textMetrics, w int, draw func(*textMetrics, *canvas) int, name, title, desc, fontAttr string) ([]byte, error) {
	c := &canvas{w: w}
	h := draw(m, c)
	r, err := gochart.SVG(w, h)
	if err != nil {
		return nil, fmt.Errorf("chart %s: %w", name, err)
	}
	r.SetDPI(svgDPI)
	c.r = r
	c.rect(0, 0, w-1, h-1, colCard, colCardEdge, 1, solid) // a card under it all, whatever the page's background
	draw(m, c)
	var out bytes.Buffer
	if err := r.Save(&out); err != nil {
		return nil, fmt.Errorf("chart %s: %w", name, err)
	}
	return withHead(out.Bytes(), name, title, desc, fontAttr, w, h)
}

// withHead adds to the SVG go-chart wrote what its renderer has no way to
// say: on the root element, the size, the role, the accessible name and
// the font stack (fontAttr, escaped); after it, <title> and <desc>. Their
// ids start with "chart-"+name.
func withHead(svg []byte, name, title, desc, fontAttr string, w, h int) ([]byte, error) {
	const open, end = "<svg ", "</svg>"
	tagEnd := bytes.IndexByte(svg, '>')
	if !bytes.HasPrefix(svg, []byte(open)) || tagEnd < 0 || !bytes.HasSuffix(svg, []byte(end)) {
		return nil, fmt.Errorf("chart %s: go-chart wrote no <svg> element: %.40q", name, svg)
	}
	name = svgID(name)
	b := make([]byte, 0, len(svg)+len(title)+len(desc)+len(fontAttr)+200)
	b = append(b, svg[:tagEnd]...)
	b = append(b, ` width="`...)
	b = strconv.AppendInt(b, int64(w), 10)
	b = append(b, `" height="`...)
	b = strconv.AppendInt(b, int64(h), 10)
	b = append(b, `" role="img" aria-labelledby="chart-`...)
	b = append(b, name...)
	b = append(b, "-title chart-"...)
	b = append(b, name...)
	b = append(b, `-desc" font-family="`...)
	b = append(b, fontAttr...)
	b = append(b, "\">\n<title id=\"chart-"...)
	b = append(b, name...)
	b = append(b, `-title">`...)
	b = appendEscaped(b, title)
	b = append(b, "</title>\n<desc id=\"chart-"...)
	b = append(b, name...)
	b = append(b, `-desc">`...)
	b = appendEscaped(b, desc)
	b = append(b, "</desc>\n"...)
	b = append(b, svg[tagEnd+1:]...)
	return append(b, '\n'), nil
}

// wrapText breaks s into lines no wider than maxW pixels at size, and
// appends them to lines: at spaces, after '/' and between CJK characters;
// a word longer than a line is broken where it must.
func (m *textMetrics) wrapText(lines []string, s string, size, maxW float64) []string {
	if m.width(s, size) <= maxW {
		return append(lines, s)
	}
	line := ""
	for _, tok := range breakTokens(s) {
		cand := line + tok
		if line != "" && m.width(strings.TrimRight(cand, " "), size) > maxW {
			lines = append(lines, strings.TrimRight(line, " "))
			line = strings.TrimLeft(tok, " ")
		} else {
			line = cand
		}
		for m.width(strings.TrimRight(line, " "), size) > maxW && utf8.RuneCountInString(line) > 1 {
			// a single token wider than the line: cut it rune by rune
			cut := line
			for m.width(cut, size) > maxW && utf8.RuneCountInString(cut) > 1 {
				_, n := utf8.DecodeLastRuneInString(cut)
				cut = cut[:len(cut)-n]
			}
			lines = append(lines, cut)
			line = line[len(cut):]
		}
	}
	if strings.TrimSpace(line) != "" {
		lines = append(lines, strings.TrimRight(line, " "))
	}
	return lines
}

// breakTokens splits s into pieces after which a line may break.
func breakTokens(s string) []string {
	var toks []string
	start := 0
	for i, r := range s {
		next := i + utf8.RuneLen(r)
		k := width.LookupRune(r).Kind()
		wide := k == width.EastAsianWide || k == width.EastAsianFullwidth
		if r == ' ' || r == '/' || wide {
			if wide && i > start {
				toks = append(toks, s[start:i]) // break before a CJK rune too
				start = i
			}
			toks = append(toks, s[start:next])
			start = next
		}
	}
	if start < len(s) {
		toks = append(toks, s[start:])
	}
	return toks
}

// svgID is a chart's name as its ids hold it: the name when it is plain
// (letters, digits, '_' and '-'), else "_" and a hash of it, since a step
// or workload id in it may hold quotes, spaces or '<'.
func svgID(name string) string {
	for i := 0; i < len(name); i++ {
		if c := name[i]; !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			sum := sha256.Sum256([]byte(name))
			return "_" + hex.EncodeToString(sum[:8])
		}
	}
	return name
}
