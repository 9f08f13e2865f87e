package render

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/golang/freetype/truetype"
	"github.com/wcharczuk/go-chart/v2/drawing"
	"github.com/wcharczuk/go-chart/v2/roboto"
	"golang.org/x/image/math/fixed"
	"golang.org/x/text/width"
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
	ascii [0x300]float64 // advance in ems of runes below U+0300; 0 when missing
}

var chartMetrics = sync.OnceValues(func() (*textMetrics, error) {
	f, err := truetype.Parse(roboto.Roboto)
	if err != nil {
		return nil, fmt.Errorf("charts: the go-chart font: %w", err)
	}
	m := &textMetrics{font: f, units: fixed.Int26_6(f.FUnitsPerEm())}
	for r := range m.ascii {
		m.ascii[r] = m.advance(rune(r))
	}
	return m, nil
})

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
		if r < rune(len(m.ascii)) {
			a = m.ascii[r]
		} else if k := width.LookupRune(r).Kind(); k != width.EastAsianWide && k != width.EastAsianFullwidth {
			a = m.advance(r)
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
// path, which was most of the time spent on a chart.
type canvas struct {
	m    *textMetrics
	w, h int
	buf  []byte
	path []byte // the path being built: "M x y\nL x y..."
}

func newCanvas(m *textMetrics, w, h int) (*canvas, error) {
	c := &canvas{m: m, w: w, h: h, buf: make([]byte, 0, 8192)}
	c.buf = fmt.Appendf(c.buf, `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 %d %d">`, w, h)
	return c, nil
}

var xmlEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&#39;")

func xmlEscape(s string) string { return xmlEscaper.Replace(s) }

// appendColor writes a colour as go-chart does: rgba(r,g,b,a.a).
func appendColor(b []byte, c drawing.Color) []byte {
	b = append(b, "rgba("...)
	b = strconv.AppendUint(b, uint64(c.R), 10)
	b = append(b, ',')
	b = strconv.AppendUint(b, uint64(c.G), 10)
	b = append(b, ',')
	b = strconv.AppendUint(b, uint64(c.B), 10)
	b = append(b, ',')
	b = strconv.AppendFloat(b, float64(c.A)/255, 'f', 1, 64)
	return append(b, ')')
}

// appendStyle writes go-chart's style attribute.
func appendStyle(b []byte, strokeWidth float64, stroke, fill drawing.Color, fontSize float64) []byte {
	b = append(b, `style="stroke-width:`...)
	b = strconv.AppendInt(b, int64(int(strokeWidth)), 10)
	b = append(b, ";stroke:"...)
	if stroke.IsZero() {
		b = append(b, "none"...)
	} else {
		b = appendColor(b, stroke)
	}
	b = append(b, ";fill:"...)
	if fill.IsZero() {
		b = append(b, "none"...)
	} else {
		b = appendColor(b, fill)
	}
	if fontSize != 0 {
		b = append(b, ";font-size:"...)
		b = strconv.AppendFloat(b, fontSize, 'f', 1, 64)
		b = append(b, "px"...)
	}
	return append(b, '"')
}

// text draws s with its anchor ("start", "middle" or "end") at x and its
// baseline at y.
func (c *canvas) text(s string, x, y int, size float64, color drawing.Color, anchor string, bold bool) {
	b := append(c.buf, `<text x="`...)
	b = strconv.AppendInt(b, int64(x), 10)
	b = append(b, `" y="`...)
	b = strconv.AppendInt(b, int64(y), 10)
	b = append(b, `" `...)
	b = appendStyle(b, 0, drawing.Color{}, color, size)
	b = append(b, '>')
	tspan := (anchor != "" && anchor != "start") || bold
	if tspan {
		// A tspan carries what go-chart's text element cannot: the anchor
		// (a new text chunk at x) and the weight.
		b = append(b, "<tspan"...)
		if anchor != "" && anchor != "start" {
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
	}
	b = append(b, xmlEscape(s)...)
	if tspan {
		b = append(b, "</tspan>"...)
	}
	c.buf = append(b, "</text>"...)
}

func (c *canvas) moveTo(x, y int) { c.pathOp('M', x, y) }
func (c *canvas) lineTo(x, y int) { c.pathOp('L', x, y) }

func (c *canvas) pathOp(op byte, x, y int) {
	if len(c.path) > 0 {
		c.path = append(c.path, '\n')
	}
	c.path = append(c.path, op, ' ')
	c.path = strconv.AppendInt(c.path, int64(x), 10)
	c.path = append(c.path, ' ')
	c.path = strconv.AppendInt(c.path, int64(y), 10)
}

// drawPath writes the path built so far, as go-chart does.
func (c *canvas) drawPath(fill, stroke drawing.Color, strokeWidth float64, dash []float64) {
	b := append(c.buf, "<path "...)
	if len(dash) > 0 {
		b = append(b, `stroke-dasharray="`...)
		for i, v := range dash {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = strconv.AppendFloat(b, v, 'f', 1, 64)
		}
		b = append(b, '"')
	}
	b = append(b, ` d="`...)
	b = append(b, c.path...)
	b = append(b, `" `...)
	b = appendStyle(b, strokeWidth, stroke, fill, 0)
	c.buf = append(b, "/>"...)
	c.path = c.path[:0]
}

// rect draws a rectangle; a zero colour leaves fill or stroke out.
func (c *canvas) rect(x0, y0, x1, y1 int, fill, stroke drawing.Color, strokeWidth float64, dash []float64) {
	c.moveTo(x0, y0)
	c.lineTo(x1, y0)
	c.lineTo(x1, y1)
	c.lineTo(x0, y1)
	c.path = append(c.path, "\nZ"...)
	c.drawPath(fill, stroke, strokeWidth, dash)
}

// line draws a straight line.
func (c *canvas) line(x0, y0, x1, y1 int, stroke drawing.Color, strokeWidth float64, dash []float64) {
	c.moveTo(x0, y0)
	c.lineTo(x1, y1)
	c.drawPath(drawing.Color{}, stroke, strokeWidth, dash)
}

// hatch draws diagonal lines, every step pixels, clipped to a rectangle:
// the pattern that marks a projected value without relying on colour.
func (c *canvas) hatch(x0, y0, x1, y1, step int, stroke drawing.Color) {
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
		c.drawPath(drawing.Color{}, stroke, 1.5, nil)
	}
}

// svg finishes the drawing: the opening tag gets a size, an accessible
// name, the font stack and a background-independent card, and <title> and
// <desc> come first.
func (c *canvas) svg(id, title, desc, fontFamily string) ([]byte, error) {
	out := append(c.buf, "</svg>"...)
	end := bytes.IndexByte(out, '>')
	if !bytes.HasPrefix(out, []byte("<svg ")) || end < 0 {
		return nil, fmt.Errorf("charts: no <svg> element")
	}
	var b bytes.Buffer
	b.Grow(len(out) + len(title) + len(desc) + 512)
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" width="%d" height="%d" role="img" aria-labelledby="%s-title %s-desc" font-family="%s">`,
		c.w, c.h, c.w, c.h, id, id, xmlEscape(fontFamily))
	fmt.Fprintf(&b, "\n<title id=\"%s-title\">%s</title>\n<desc id=\"%s-desc\">%s</desc>\n", id, xmlEscape(title), id, xmlEscape(desc))
	b.Write(out[end+1:])
	b.WriteByte('\n')
	return b.Bytes(), nil
}

// wrapText breaks s into lines no wider than maxW pixels at size: at spaces,
// after '/' and between CJK characters; a word longer than a
// line is broken where it must.
func (m *textMetrics) wrapText(s string, size, maxW float64) []string {
	if m.width(s, size) <= maxW {
		return []string{s}
	}
	var lines []string
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
