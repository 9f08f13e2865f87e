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
