package chart

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/golang/freetype/truetype"
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

// canvas draws a chart as SVG. It writes the elements exactly as go-chart's
// SVG renderer (chart.SVG at 72 DPI) writes them, straight into one buffer:
// go-chart formats every coordinate and colour with fmt and copies each
// path, which was most of the time spent on a chart. Canvases are pooled:
// their buffers keep their size from one chart to the next, and a finished
// chart is copied out once, at its exact size.
type canvas struct {
	w     int      // the chart's width in pixels: chartWidth or narrowWidth
	buf   []byte   // the elements drawn so far
	path  []byte   // the path being built: "M x y\nL x y..."
	pts   [][2]int // scratch for the distribution chart's polylines
	lines []string // scratch for wrapped text
}

var canvasPool = sync.Pool{New: func() any {
	return &canvas{buf: make([]byte, 0, 16<<10), path: make([]byte, 0, 1<<10)}
}}

func newCanvas() *canvas { return canvasPool.Get().(*canvas) }

func (c *canvas) release() {
	if cap(c.buf) > 1<<20 {
		return // an outsized chart: let its buffer go
	}
	clear(c.lines) // let the strings go
	c.buf, c.path, c.pts, c.lines = c.buf[:0], c.path[:0], c.pts[:0], c.lines[:0]
	canvasPool.Put(c)
}

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

// byteText and alphaText are a colour channel as go-chart writes it: a
// byte in decimal, an alpha as a fraction with one decimal. Tables, since
// every element has a colour or two.
var byteText, alphaText = func() (d, a [256]string) {
	for i := range d {
		d[i] = strconv.Itoa(i)
		a[i] = strconv.FormatFloat(float64(i)/255, 'f', 1, 64)
	}
	return d, a
}()

// appendColor writes a colour as go-chart does: rgba(r,g,b,a.a).
func appendColor(b []byte, c drawing.Color) []byte {
	b = append(b, "rgba("...)
	b = append(b, byteText[c.R]...)
	b = append(b, ',')
	b = append(b, byteText[c.G]...)
	b = append(b, ',')
	b = append(b, byteText[c.B]...)
	b = append(b, ',')
	b = append(b, alphaText[c.A]...)
	return append(b, ')')
}

// appendFloat1 writes v with one decimal, as strconv's 'f' format does;
// the sizes and dashes drawn are whole numbers, which skip the float
// formatting.
func appendFloat1(b []byte, v float64) []byte {
	if v >= 0 && v < 1e9 && v == math.Trunc(v) && !math.Signbit(v) {
		b = appendInt(b, int(v))
		return append(b, ".0"...)
	}
	return strconv.AppendFloat(b, v, 'f', 1, 64)
}

// digitPairs are the two-digit numbers 00 to 99, side by side.
const digitPairs = "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"

// appendInt is strconv.AppendInt for coordinates, which are mostly small
// and non-negative: those are written two digits at a time, without
// strconv's scratch buffer and copy.
func appendInt(b []byte, v int) []byte {
	u := uint(v)
	switch {
	case u >= 10000: // negative, too
		return strconv.AppendInt(b, int64(v), 10)
	case u < 10:
		return append(b, byte('0'+u))
	case u < 100:
		return append(b, digitPairs[2*u], digitPairs[2*u+1])
	case u < 1000:
		lo := u % 100
		return append(b, byte('0'+u/100), digitPairs[2*lo], digitPairs[2*lo+1])
	}
	hi, lo := u/100, u%100
	return append(b, digitPairs[2*hi], digitPairs[2*hi+1], digitPairs[2*lo], digitPairs[2*lo+1])
}

// paint is a colour as go-chart writes it, rgba(r,g,b,a.a), written out
// once: every element has a colour or two.
type paint string

// noPaint is no colour: "none".
const noPaint paint = ""

func hexPaint(hex string) paint { return paint(appendColor(nil, drawing.ColorFromHex(hex))) }

// dashes is a stroke-dasharray as go-chart writes it: "5.0, 4.0".
type dashes string

// solid is no dashes at all.
const solid dashes = ""

func dashArray(d ...float64) dashes {
	var b []byte
	for i, v := range d {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = appendFloat1(b, v)
	}
	return dashes(b)
}

// appendPaint writes p, or "none".
func appendPaint(b []byte, p paint) []byte {
	if p == noPaint {
		return append(b, "none"...)
	}
	return append(b, p...)
}

// appendStyle writes go-chart's style attribute of a path.
func appendStyle(b []byte, strokeWidth float64, stroke, fill paint) []byte {
	b = append(b, `style="stroke-width:`...)
	b = appendInt(b, int(strokeWidth))
	b = append(b, ";stroke:"...)
	b = appendPaint(b, stroke)
	b = append(b, ";fill:"...)
	b = appendPaint(b, fill)
	return append(b, '"')
}

// text draws s with its anchor ("start", "middle" or "end") at x and its
// baseline at y.
func (c *canvas) text(s string, x, y int, size float64, color paint, anchor string, bold bool) {
	tspan := c.openText(x, y, size, color, anchor, bold)
	c.buf = appendEscaped(c.buf, s)
	c.closeText(tspan)
}

// tick draws an axis tick's value centred at x, as text would draw its
// digits, without making a string of them.
func (c *canvas) tick(v float64, x, y int) {
	tspan := c.openText(x, y, tickSize, colMuted, "middle", false)
	c.buf = appendTick(c.buf, v) // digits, nothing to escape
	c.closeText(tspan)
}

// openText writes a text element's start tags, and says whether it opened
// a tspan.
func (c *canvas) openText(x, y int, size float64, color paint, anchor string, bold bool) (tspan bool) {
	b := append(c.buf, `<text x="`...)
	b = appendInt(b, x)
	b = append(b, `" y="`...)
	b = appendInt(b, y)
	b = append(b, `" style="stroke-width:0;stroke:none;fill:`...) // go-chart's style attribute
	b = appendPaint(b, color)
	b = append(b, ";font-size:"...)
	b = appendFloat1(b, size)
	b = append(b, `px">`...)
	tspan = (anchor != "" && anchor != "start") || bold
	if tspan {
		// A tspan carries what go-chart's text element cannot: the anchor
		// (a new text chunk at x) and the weight.
		b = append(b, "<tspan"...)
		if anchor != "" && anchor != "start" {
			b = append(b, ` x="`...)
			b = appendInt(b, x)
			b = append(b, `" text-anchor="`...)
			b = append(b, anchor...)
			b = append(b, '"')
		}
		if bold {
			b = append(b, ` font-weight="bold"`...)
		}
		b = append(b, '>')
	}
	c.buf = b
	return tspan
}

func (c *canvas) closeText(tspan bool) {
	if tspan {
		c.buf = append(c.buf, "</tspan>"...)
	}
	c.buf = append(c.buf, "</text>"...)
}

func (c *canvas) moveTo(x, y int) { c.pathOp('M', x, y) }
func (c *canvas) lineTo(x, y int) { c.pathOp('L', x, y) }

func (c *canvas) pathOp(op byte, x, y int) {
	b := c.path
	if len(b) > 0 {
		b = append(b, '\n')
	}
	b = append(b, op, ' ')
	b = appendInt(b, x)
	b = append(b, ' ')
	c.path = appendInt(b, y)
}

// drawPath writes the path built so far, as go-chart does.
func (c *canvas) drawPath(fill, stroke paint, strokeWidth float64, dash dashes) {
	b := append(c.buf, "<path "...)
	if dash != solid {
		b = append(b, `stroke-dasharray="`...)
		b = append(b, dash...)
		b = append(b, '"')
	}
	b = append(b, ` d="`...)
	b = append(b, c.path...)
	b = append(b, `" `...)
	b = appendStyle(b, strokeWidth, stroke, fill)
	c.buf = append(b, "/>"...)
	c.path = c.path[:0]
}

// rect draws a rectangle; noPaint leaves fill or stroke out.
func (c *canvas) rect(x0, y0, x1, y1 int, fill, stroke paint, strokeWidth float64, dash dashes) {
	c.moveTo(x0, y0)
	c.lineTo(x1, y0)
	c.lineTo(x1, y1)
	c.lineTo(x0, y1)
	c.path = append(c.path, "\nZ"...)
	c.drawPath(fill, stroke, strokeWidth, dash)
}

// line draws a straight line.
func (c *canvas) line(x0, y0, x1, y1 int, stroke paint, strokeWidth float64, dash dashes) {
	c.moveTo(x0, y0)
	c.lineTo(x1, y1)
	c.drawPath(noPaint, stroke, strokeWidth, dash)
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

// svg finishes a chart h pixels high whose elements, all but the card
// under them, are drawn: the opening tag gets a size, an accessible name,
// the font stack (fontAttr, escaped) and a background-independent card,
// and <title> and <desc> come first. Its ids start with "chart-"+name.
func (c *canvas) svg(name, title, desc, fontAttr string, h int) []byte {
	// The card and the head go after the elements in the buffer, then the
	// three are copied out in order: the card needs the height, known only
	// once the elements are laid out.
	name = svgID(name)
	body := len(c.buf)
	c.rect(0, 0, c.w-1, h-1, colCard, colCardEdge, 1, solid)
	card := len(c.buf)
	b := append(c.buf, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 `...)
	b = appendInt(b, c.w)
	b = append(b, ' ')
	b = appendInt(b, h)
	b = append(b, `" width="`...)
	b = appendInt(b, c.w)
	b = append(b, `" height="`...)
	b = appendInt(b, h)
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
	c.buf = b
	const end = "</svg>\n"
	out := make([]byte, 0, len(b)+len(end))
	out = append(out, b[card:]...)
	out = append(out, b[body:card]...)
	out = append(out, b[:body]...)
	return append(out, end...)
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
