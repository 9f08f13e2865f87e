package render

import (
	"bytes"
	htmltemplate "html/template"
	"slices"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"

	"github.com/perflab/perflab/internal/plain"
)

// prose returns a content section's Markdown with what would let it claim
// an anchor of the page taken out: the ids of its headings ("## x {#run-a}",
// "{#L1a2b3c4d-10}") and the line anchors of its log blocks ("```log
// @L1a2b3c4d:1:40"). Anchors are perflab's: a figure's source link must
// open the line perflab read, never a lookalike that prose put first. The
// headings and log blocks themselves stay. Raw HTML, which the HTML page
// omits anyway, is taken out too, so that the Markdown report cannot
// carry an <a id> either.
func (r *Renderer) prose(md string) string {
	// Bidirectional controls and invisible characters, which check
	// refuses, are shown (U+FFFD), never passed on, and so are character
	// references to them: a page must show the text check read, not
	// "12.4502" for 2054.21.
	md = plain.Block(plain.ShowHiddenText(md))
	if !strings.ContainsAny(md, "{@<") {
		return md // no attribute, no anchored log block, no HTML
	}
	src := []byte(md)
	doc := r.md.Parser().Parse(text.NewReader(src))
	var cuts []span
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Heading:
			if lines := n.Lines(); lines.Len() > 0 && n.Attributes() != nil {
				if c, ok := headingAttribute(src, lines.At(lines.Len()-1).Stop); ok {
					cuts = append(cuts, c)
				}
			}
		case *ast.HTMLBlock:
			cuts = appendLines(cuts, n.Lines())
			if n.HasClosure() {
				cuts = append(cuts, span{n.ClosureLine.Start, n.ClosureLine.Stop})
			}
		case *ast.RawHTML:
			cuts = appendLines(cuts, n.Segments)
		case *ast.FencedCodeBlock:
			if n.Info == nil {
				break
			}
			seg := n.Info.Segment
			info := src[seg.Start:seg.Stop]
			if rest, ok := bytes.CutPrefix(info, []byte("log")); ok {
				if a, _ := parseAnchors(bytes.TrimSpace(rest)); a.prefix != "" {
					at := seg.Start + 3 + bytes.IndexByte(rest, '@')
					end := at + bytes.IndexByte(append(src[at:seg.Stop:seg.Stop], ' '), ' ')
					cuts = append(cuts, span{at, end})
				}
			}
		}
		return ast.WalkContinue, nil
	})
	if len(cuts) == 0 {
		return md
	}
	slices.SortFunc(cuts, func(a, b span) int { return a.start - b.start })
	var out strings.Builder
	last := 0
	for _, c := range cuts {
		if c.stop <= last {
			continue
		}
		out.Write(src[last:max(c.start, last)])
		last = c.stop
	}
	out.Write(src[last:])
	return out.String()
}

// span is a range of bytes of a source.
type span struct{ start, stop int }

func appendLines(cuts []span, lines *text.Segments) []span {
	for i := 0; i < lines.Len(); i++ {
		cuts = append(cuts, span{lines.At(i).Start, lines.At(i).Stop})
	}
	return cuts
}

// headingAttribute finds the attribute block "{...}" that ends a heading's
// line after the heading's text, which ends at stop.
func headingAttribute(src []byte, stop int) (span, bool) {
	rest := src[stop:]
	if end := bytes.IndexAny(rest, "\r\n"); end >= 0 {
		rest = rest[:end]
	}
	open := bytes.IndexByte(rest, '{')
	closing := bytes.LastIndexByte(rest, '}')
	if open < 0 || closing < open {
		return span{}, false
	}
	for open > 0 && (rest[open-1] == ' ' || rest[open-1] == '\t') {
		open--
	}
	return span{stop + open, stop + closing + 1}, true
}

// richProse is a section of content/ that people wrote: its Markdown as
// prose keeps it (no anchor of the page's, no raw HTML), and the HTML
// goldmark renders of it.
func (p *reportPage) richProse(id string) rich {
	md := p.section(id)
	if md == "" {
		return rich{}
	}
	var b bytes.Buffer
	if err := p.r.md.Convert([]byte(md), &b, parser.WithContext(p.pc)); err != nil {
		return rich{md, htmltemplate.HTML(htmlText.Replace(md))}
	}
	return rich{md, htmltemplate.HTML(b.String())}
}
