package render

import (
	"bytes"
	"regexp"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// A change is printed with its statistics, "▲ +4.1 % [+1.3, +6.9] (p =
// 0.009, n = 5 + 5)". On a phone the headline "▲ +4.1 %" keeps its line
// and the statistics go below it, smaller (style.css, .stat): the HTML
// puts them in a span, the Markdown stays as it is.

// changeHead is the headline of a change, as values.go's pct writes it;
// the no-break spaces are keepFiguresWhole's; Chinese and Japanese have
// none before the % (localizer.figure).
var changeHead = regexp.MustCompile(`^[▲▼≈](?: |\x{00a0})[+\-−]?[0-9][0-9.,]*(?: |\x{00a0})?%`)

// kindStat is the span of a change's statistics.
var kindStat = ast.NewNodeKind("PerflabStat")

type statSpan struct{ ast.BaseInline }

func (n *statSpan) Kind() ast.NodeKind { return kindStat }

func (n *statSpan) Dump(source []byte, level int) { ast.DumpHelper(n, source, level, nil, nil) }

// spanStats moves what follows a change's headline in the text of link
// (a link to a place on the page, of plain text only) into a statSpan.
func spanStats(link *ast.Link, source []byte) {
	if len(link.Destination) == 0 || link.Destination[0] != '#' {
		return
	}
	first, ok := link.FirstChild().(*ast.Text)
	if !ok || !startsWithMark(first.Segment.Value(source)) {
		return // most links are values, "3019.19"
	}
	var textValue []byte
	for c := link.FirstChild(); c != nil; c = c.NextSibling() {
		t, ok := c.(*ast.Text)
		if !ok || t.SoftLineBreak() || t.HardLineBreak() || t.IsRaw() {
			return
		}
		textValue = append(textValue, t.Segment.Value(source)...)
	}
	head := changeHead.Find(textValue)
	if head == nil || len(head) == len(textValue) {
		return
	}
	// Find the text node the headline ends in and split it there.
	at := len(head)
	c := link.FirstChild()
	for ; c != nil; c = c.NextSibling() {
		seg := c.(*ast.Text).Segment
		if at < seg.Len() {
			break
		}
		at -= seg.Len()
	}
	t := c.(*ast.Text)
	if at > 0 {
		tail := ast.NewTextSegment(text.NewSegment(t.Segment.Start+at, t.Segment.Stop))
		t.Segment = t.Segment.WithStop(t.Segment.Start + at)
		link.InsertAfter(link, t, tail)
		c = tail
	}
	span := &statSpan{}
	for c != nil {
		next := c.NextSibling()
		link.RemoveChild(link, c)
		span.AppendChild(span, c)
		c = next
	}
	link.AppendChild(link, span)
}

func startsWithMark(b []byte) bool {
	return bytes.HasPrefix(b, []byte("▲")) || bytes.HasPrefix(b, []byte("▼")) || bytes.HasPrefix(b, []byte("≈"))
}

// statRenderer writes a statSpan as <span class="stat">.
type statRenderer struct{}

func (statRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(kindStat, func(w util.BufWriter, _ []byte, _ ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering {
			_, _ = w.WriteString(`<span class="stat">`)
		} else {
			_, _ = w.WriteString(`</span>`)
		}
		return ast.WalkContinue, nil
	})
}
