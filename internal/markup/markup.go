// Package markup is goldmark as perflab renders what people wrote, the
// prose of content/, configured at goldmark's extension points as Hugo's
// markup/goldmark configures it for a site: GitHub's tables, heading ids
// only, links rebased to the report's page, tables that stack on a phone,
// and code blocks written by the caller's hook, so that they read as the
// page's own. check reads prose's links through the same goldmark.
package markup

import (
	"bytes"
	"slices"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"github.com/perflab/perflab/internal/check"
	"github.com/perflab/perflab/internal/plain"
)

// CodeBlock writes a fenced code block's HTML from its text, its
// language (the info string's first word) and the rest of its info
// string.
type CodeBlock func(text, lang, rest string) string

// New is goldmark as prose uses it; code writes its code blocks (nil:
// goldmark's own).
func New(code CodeBlock) goldmark.Markdown {
	opts := []goldmark.Option{
		goldmark.WithExtensions(extension.Table),
		goldmark.WithParserOptions(parser.WithAttribute(),
			parser.WithASTTransformers(util.Prioritized(rebaseLinks{}, 100), util.Prioritized(onlyIDAttributes{}, 100),
				util.Prioritized(stackTables{}, 300))),
	}
	if code != nil {
		opts = append(opts, goldmark.WithRendererOptions(renderer.WithNodeRenderers(util.Prioritized(codeBlocks(code), 100))))
	}
	return goldmark.New(opts...)
}

// parser_ reads prose without rendering it, for Clean.
var parser_ = New(nil).Parser()

// codeBlocks is the render hook of fenced code blocks.
type codeBlocks CodeBlock

func (c codeBlocks) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindFencedCodeBlock, c.render)
}

func (c codeBlocks) render(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*ast.FencedCodeBlock)
	code := strings.TrimSuffix(string(n.Lines().Value(source)), "\n")
	lang, rest := string(n.Language(source)), ""
	if n.Info != nil {
		rest = strings.TrimSpace(strings.TrimPrefix(string(bytes.TrimSpace(n.Info.Segment.Value(source))), lang))
	}
	_, _ = w.WriteString(c(code, lang, rest))
	return ast.WalkSkipChildren, nil
}

// Clean returns a content section's Markdown with what would let it claim
// an anchor of the page taken out: the ids of its headings ("## x {#run-a}",
// "{#L1a2b3c4d-10}"). Anchors are perflab's: a figure's source link must
// open the line perflab read, never a lookalike that prose put first. The
// headings themselves stay. Raw HTML, which the HTML page omits anyway,
// is taken out too, so that the Markdown report cannot carry an <a id>
// either. (A log block of prose numbers no line.)
func Clean(md string) string {
	// Bidirectional controls and invisible characters, which check
	// refuses, are shown (U+FFFD), never passed on, and so are character
	// references to them: a page must show the text check read, not
	// "12.4502" for 2054.21.
	md = plain.Block(plain.ShowHiddenText(md))
	if !strings.ContainsAny(md, "{<") {
		return md // no attribute, no anchored log block, no HTML
	}
	src := []byte(md)
	doc := parser_.Parse(text.NewReader(src))
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

// rebaseLinks adapts the links of a report's Markdown, written relative to
// site/<lang>/, to its HTML page one folder deeper, site/<lang>/<study>/:
// relative destinations gain "../", and a link to another report's
// Markdown ("x.md") points to that report's HTML page instead.
type rebaseLinks struct{}

func (rebaseLinks) Transform(doc *ast.Document, _ text.Reader, _ parser.Context) {
	ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch l := n.(type) {
		case *ast.Link:
			l.Destination = rebase(l.Destination)
		case *ast.Image:
			l.Destination = rebase(l.Destination)
		}
		return ast.WalkContinue, nil
	})
}

func rebase(dest []byte) []byte {
	d := string(dest)
	if d == "" || strings.HasPrefix(d, "#") || strings.HasPrefix(d, "/") || strings.Contains(d, "://") || strings.HasPrefix(d, "mailto:") {
		return dest
	}
	frag := ""
	if i := strings.IndexByte(d, '#'); i >= 0 {
		d, frag = d[:i], d[i:]
	}
	if strings.HasSuffix(d, ".md") {
		d = strings.TrimSuffix(d, ".md") + "/index.html"
	}
	return []byte("../" + d + frag)
}

// onlyIDAttributes drops every attribute but a plain id. The templates
// anchor headings with {#id}; prose written in a pull request must not add
// event handlers or styles through the same syntax
// ("## Title {onmouseover=... style=...}").
type onlyIDAttributes struct{}

func (onlyIDAttributes) Transform(doc *ast.Document, _ text.Reader, _ parser.Context) {
	walkBlocks(doc, func(n ast.Node) {
		attrs := n.Attributes()
		if attrs == nil {
			return
		}
		if len(attrs) == 1 && string(attrs[0].Name) == "id" {
			if b, ok := attrs[0].Value.([]byte); ok && SafeID(b) {
				return // the common case, an anchor: kept as it is
			}
		}
		id, ok := n.AttributeString("id")
		n.RemoveAttributes()
		if b, isBytes := id.([]byte); ok && isBytes && SafeID(b) {
			n.SetAttributeString("id", b)
		}
	})
}

// walkBlocks calls visit on every block node of doc, in document order,
// and on no inline node: goldmark's parser gives attributes to headings
// only, and tables are blocks, so the transforms that look for either
// need not visit each word of the page.
func walkBlocks(doc ast.Node, visit func(ast.Node)) {
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		if n.Type() != ast.TypeBlock {
			continue
		}
		visit(n)
		walkBlocks(n, visit)
	}
}

// stackTables lets a report's tables become one card per row on a narrow
// screen (style.css): each body cell gets its column's header as
// data-label, which the stylesheet shows before the value. The page stays
// one HTML for every width. (The all-runs table, written by
// report.html.tmpl, stacks the same way when it has no script.)
type stackTables struct{}

func (stackTables) Transform(doc *ast.Document, reader text.Reader, _ parser.Context) {
	source := reader.Source()
	walkBlocks(doc, func(n ast.Node) {
		if table, ok := n.(*east.Table); ok {
			labelCells(table, source)
		}
	})
}

// labelCells marks table as stackable and labels its body cells.
func labelCells(table *east.Table, source []byte) {
	var labels [][]byte
	for row := table.FirstChild(); row != nil; row = row.NextSibling() {
		if _, ok := row.(*east.TableHeader); ok {
			for cell := row.FirstChild(); cell != nil; cell = cell.NextSibling() {
				labels = append(labels, plainText(cell, source))
			}
			continue
		}
		i := 0
		for cell := row.FirstChild(); cell != nil && i < len(labels); cell = cell.NextSibling() {
			if len(labels[i]) > 0 {
				cell.SetAttributeString("data-label", labels[i])
			}
			i++
		}
	}
	if len(labels) > 0 {
		table.SetAttributeString("class", []byte("stack"))
	}
}

// plainText is the text of n without its markup: what a reader sees of a
// header cell, an image's alternative text included. The renderer
// escapes it as an attribute value.
func plainText(n ast.Node, source []byte) []byte {
	var b []byte
	visibleText(n, source, &b, true)
	return bytes.TrimSpace(b)
}

// LinkReader lists the links of prose as a report page publishes them,
// read by the same goldmark, with the same extensions, as the pages:
// what check judges of a link is what the page shows and opens.
type LinkReader struct{ md goldmark.Markdown }

// NewLinkReader returns a LinkReader; it may be used from any goroutine.
func NewLinkReader() *LinkReader {
	return &LinkReader{md: New(nil)}
}

// Links lists the links of a content file (its front matter, which is
// not Markdown, blanked out first): the text a reader sees, the href the
// page writes and the line of the link's "[".
func (lr *LinkReader) Links(file []byte) []check.ProseLink {
	if !bytes.ContainsRune(file, '[') {
		return nil
	}
	src := blankFrontMatter(file)
	doc := lr.md.Parser().Parse(text.NewReader(src))
	var out []check.ProseLink
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		link, ok := n.(*ast.Link)
		if !entering || !ok {
			return ast.WalkContinue, nil
		}
		var shown []byte
		visibleText(link, src, &shown, false)
		shown = util.ResolveEntityNames(util.ResolveNumericReferences(util.UnescapePunctuations(shown)))
		line := 0
		if at := link.Pos(); at >= 0 {
			line = bytes.Count(src[:at], []byte("\n")) + 1
		}
		out = append(out, check.ProseLink{Text: string(shown), Target: string(util.URLEscape(link.Destination, true)), Line: line})
		return ast.WalkContinue, nil
	})
	return out
}

// visibleText appends the text a reader sees of n: its text and code,
// and the alternative text of an image only when alt is set.
func visibleText(n ast.Node, src []byte, out *[]byte, alt bool) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch c := c.(type) {
		case *ast.Text:
			*out = append(*out, c.Segment.Value(src)...)
			if c.SoftLineBreak() || c.HardLineBreak() {
				*out = append(*out, ' ')
			}
		case *ast.String:
			*out = append(*out, c.Value...)
		case *ast.Image:
			if alt {
				visibleText(c, src, out, alt)
			}
		default:
			visibleText(c, src, out, alt)
		}
	}
}

// blankFrontMatter turns the YAML front matter of a content file, when
// it has one, into blank lines, so that lines keep their numbers.
func blankFrontMatter(file []byte) []byte {
	if !bytes.HasPrefix(file, []byte("---\n")) && !bytes.HasPrefix(file, []byte("---\r\n")) {
		return file
	}
	end, off := -1, 0
	for i, line := range bytes.SplitAfter(file, []byte("\n")) {
		off += len(line)
		if i > 0 && string(bytes.TrimSuffix(bytes.TrimSuffix(line, []byte("\n")), []byte("\r"))) == "---" {
			end = off
			break
		}
	}
	out := bytes.Clone(file)
	for i := range end {
		if out[i] != '\n' {
			out[i] = ' '
		}
	}
	return out
}

// SafeID reports whether id is the only attribute a report may give a
// heading, an anchor: a letter or digit, then letters, digits, '_' and '-'
// (^[A-Za-z0-9][A-Za-z0-9_-]*$, tested by hand: every heading of every
// page asks).
func SafeID[T string | []byte](id T) bool {
	if len(id) == 0 || id[0] == '_' || id[0] == '-' {
		return false
	}
	return IDPart(id)
}

// IDPart reports whether id is letters, digits, '_' and '-', at least
// one (^[A-Za-z0-9_-]+$).
func IDPart[T string | []byte](id T) bool {
	if len(id) == 0 {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}
