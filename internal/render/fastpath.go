package render

// Renderers and a writer that give goldmark's HTML byte for byte, faster
// on what reports are made of; FuzzFastRenderers compares them with
// goldmark's own.
//
// Kept because they save about a quarter of a build (docs/performance.md).

import (
	"github.com/yuin/goldmark"
	gast "github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// fragmentLinks renders the links to a place on the same page ("#run-x",
// as every figure of a report is) without goldmark's dangerous-URL test,
// which lowercases a copy of the destination for each scheme it knows and
// took a tenth of the HTML rendering: a destination starting with "#" has
// no scheme. Every other link goes to goldmark's own renderer.
type fragmentLinks struct{}

func (fragmentLinks) Extend(m goldmark.Markdown) {
	var stock stockFuncs
	html.NewRenderer(html.WithWriter(htmlText{html.DefaultWriter})).RegisterFuncs(&stock) // with the page's writer
	m.Renderer().AddOptions(renderer.WithNodeRenderers(util.Prioritized(fragmentLinkRenderer{stock[gast.KindLink], htmlText{html.DefaultWriter}}, 100)))
}

type fragmentLinkRenderer struct {
	stock  renderer.NodeRendererFunc
	writer html.Writer
}

func (r fragmentLinkRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(gast.KindLink, r.render)
}

func (r fragmentLinkRenderer) render(w util.BufWriter, source []byte, node gast.Node, entering bool) (gast.WalkStatus, error) {
	n := node.(*gast.Link)
	if !entering || len(n.Destination) == 0 || n.Destination[0] != '#' || n.Attributes() != nil {
		return r.stock(w, source, node, entering)
	}
	writeLinkOpen(w, r.writer, n.Destination, n.Title)
	return gast.WalkContinue, nil
}

// writeLinkOpen writes the opening tag of a link to a place on the page
// (a destination starting with "#"), as goldmark's link renderer does.
func writeLinkOpen(w util.BufWriter, writer html.Writer, dest, title []byte) {
	_, _ = w.WriteString(`<a href="`)
	_, _ = w.Write(util.EscapeHTML(util.URLEscape(dest, true)))
	_ = w.WriteByte('"')
	if title != nil {
		_, _ = w.WriteString(` title="`)
		writer.Write(w, title)
		_ = w.WriteByte('"')
	}
	_ = w.WriteByte('>')
}

// stockFuncs collects the node renderers of goldmark's HTML renderer.
type stockFuncs map[gast.NodeKind]renderer.NodeRendererFunc

func (s *stockFuncs) Register(k gast.NodeKind, f renderer.NodeRendererFunc) {
	if *s == nil {
		*s = stockFuncs{}
	}
	(*s)[k] = f
}

// tableCells renders the cells of a table without attributes, as every
// cell of a report's tables is, with the same bytes as goldmark's table
// extension, which formats each tag with fmt and stores its alignment as a
// style attribute first. A cell with attributes goes to the extension.
type tableCells struct{}

func (tableCells) Extend(m goldmark.Markdown) {
	var stock stockFuncs
	extension.NewTableHTMLRenderer().RegisterFuncs(&stock)
	m.Renderer().AddOptions(renderer.WithNodeRenderers(util.Prioritized(tableCellRenderer{stock[ast.KindTableCell]}, 100)))
}

type tableCellRenderer struct{ stock renderer.NodeRendererFunc }

func (r tableCellRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindTableCell, r.render)
}

func (r tableCellRenderer) render(w util.BufWriter, source []byte, node gast.Node, entering bool) (gast.WalkStatus, error) {
	n := node.(*ast.TableCell)
	if entering && n.Attributes() != nil {
		return r.stock(w, source, node, entering)
	}
	header := n.Parent().Kind() == ast.KindTableHeader
	switch {
	case !entering && header:
		_, _ = w.WriteString("</th>\n")
		return gast.WalkContinue, nil
	case !entering:
		_, _ = w.WriteString("</td>\n")
		return gast.WalkContinue, nil
	case header:
		_, _ = w.WriteString("<th")
	default:
		_, _ = w.WriteString("<td")
	}
	if n.Alignment != ast.AlignNone {
		_, _ = w.WriteString(` style="text-align:`)
		_, _ = w.WriteString(n.Alignment.String())
		_ = w.WriteByte('"')
	}
	_ = w.WriteByte('>')
	return gast.WalkContinue, nil
}

// htmlText is goldmark's HTML writer with a fast path for plain text:
// bytes that need no escaping are written in runs, not one by one, and
// only text with a backslash, an entity or a NUL goes through goldmark's
// own writer, from that byte on.
type htmlText struct{ html.Writer }

// textClass: 1 for the bytes goldmark escapes (<, >, ", &, NUL), 2 for
// those its writer must see in text (backslash escapes, entities, NUL).
var textClass = func() (class [256]uint8) {
	for c := range class {
		if util.EscapeHTMLByte(byte(c)) != nil {
			class[c] = 1
		}
	}
	class['&'], class['\\'], class[0] = 2, 2, 2
	return class
}()

func (h htmlText) Write(w util.BufWriter, source []byte) {
	n := 0 // source[n:i] is plain and not written yet
	for i := 0; i < len(source); i++ {
		switch textClass[source[i]] {
		case 1:
			_, _ = w.Write(source[n:i])
			_, _ = w.Write(util.EscapeHTMLByte(source[i]))
			n = i + 1
		case 2:
			_, _ = w.Write(source[n:i])
			h.Writer.Write(w, source[i:])
			return
		}
	}
	_, _ = w.Write(source[n:])
}

func (htmlText) RawWrite(w util.BufWriter, source []byte) { writeEscaped(w, source) }

// writeEscaped writes source with <, >, & and " escaped, as goldmark's
// RawWrite and util.EscapeHTML do, without a copy.
func writeEscaped(w util.BufWriter, source []byte) {
	n := 0
	for i := 0; i < len(source); i++ {
		if textClass[source[i]] == 0 || source[i] == '\\' {
			continue
		}
		_, _ = w.Write(source[n:i])
		_, _ = w.Write(util.EscapeHTMLByte(source[i]))
		n = i + 1
	}
	_, _ = w.Write(source[n:])
}

// plainLinks parses a link or image written on one line as perflab writes
// every figure's, [text](destination "title") with plain text, in one
// step, where goldmark's link parser opens a label at "[", a delimiter
// list and a closure search for the title. Anything else (brackets, escapes, emphasis, entities or more spaces
// than one before the title) returns nil, and goldmark's parser takes it;
// FuzzPlainLinks holds the two to the same HTML.
type plainLinks struct{}

func (plainLinks) Extend(m goldmark.Markdown) {
	m.Parser().AddOptions(parser.WithInlineParsers(util.Prioritized(plainLinks{}, 150))) // before goldmark's, 200
}

func (plainLinks) Trigger() []byte { return []byte{'[', '!'} }

// notPlain marks the bytes a fast link leaves to goldmark: those that start
// or end markup in a label, a destination or a title, and control bytes.
var notPlain = controlsAnd("[]()\\`*_<>&!~|\"'")

// controlsAnd marks the control bytes (below 0x20, and DEL), 0xFF
// (goldmark's readers take it for the end of the text) and chars.
func controlsAnd(chars string) (set [256]bool) {
	for c := range 0x20 {
		set[c] = true
	}
	set[0x7f], set[0xff] = true, true
	for i := 0; i < len(chars); i++ {
		set[chars[i]] = true
	}
	return set
}

func (plainLinks) Parse(parent gast.Node, block text.Reader, pc parser.Context) gast.Node {
	line, seg := block.PeekLine()
	if seg.Padding != 0 {
		return nil
	}
	open := 0 // "[" is at open
	image := line[0] == '!'
	if image {
		open = 1
	}
	i := open + 1
	if len(line) <= i || line[open] != '[' {
		return nil
	}
	for i < len(line) && !notPlain[line[i]] {
		i++
	}
	label := text.NewSegment(seg.Start+open+1, seg.Start+i)
	if label.Len() == 0 || label.Len() > 998 || i+1 >= len(line) || line[i] != ']' || line[i+1] != '(' {
		return nil
	}
	i += 2
	d := i
	for i < len(line) && !notPlain[line[i]] && line[i] != ' ' {
		i++
	}
	destination := line[d:i]
	if len(destination) == 0 || i >= len(line) {
		return nil
	}
	var title []byte
	if line[i] == ' ' && i+1 < len(line) && line[i+1] == '"' {
		t := i + 2
		for i = t; i < len(line) && line[i] != '"'; i++ {
			if line[i] == '\\' || line[i] < 0x20 {
				return nil
			}
		}
		if i >= len(line) {
			return nil
		}
		title = line[t:i]
		i++
	}
	if i >= len(line) || line[i] != ')' {
		return nil
	}
	link := gast.NewLink()
	link.Destination, link.Title = destination, title
	link.AppendChild(link, gast.NewTextSegment(label))
	block.Advance(i + 1)
	var n gast.Node = link
	if image {
		n = gast.NewImage(link)
	}
	n.(interface{ SetPos(int) }).SetPos(seg.Start) // at "[" or "!", as goldmark's
	return n
}
