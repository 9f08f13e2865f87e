package render

import (
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

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

// fragmentLinks renders the links to a place on the same page ("#run-x",
// as every figure of a report is) without goldmark's dangerous-URL test,
// which lowercases a copy of the destination for each scheme it knows and
// took a tenth of the HTML rendering: a destination starting with "#" has
// no scheme. Every other link goes to goldmark's own renderer.
type fragmentLinks struct{}

func (fragmentLinks) Extend(m goldmark.Markdown) {
	var stock stockFuncs
	html.NewRenderer().RegisterFuncs(&stock)
	m.Renderer().AddOptions(renderer.WithNodeRenderers(util.Prioritized(fragmentLinkRenderer{stock[ast.KindLink]}, 100)))
}

type fragmentLinkRenderer struct{ stock renderer.NodeRendererFunc }

func (r fragmentLinkRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindLink, r.render)
}

func (r fragmentLinkRenderer) render(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	n := node.(*ast.Link)
	if !entering || len(n.Destination) == 0 || n.Destination[0] != '#' || n.Attributes() != nil {
		return r.stock(w, source, node, entering)
	}
	_, _ = w.WriteString(`<a href="`)
	_, _ = w.Write(util.EscapeHTML(util.URLEscape(n.Destination, true)))
	_ = w.WriteByte('"')
	if n.Title != nil {
		_, _ = w.WriteString(` title="`)
		html.DefaultWriter.Write(w, n.Title)
		_ = w.WriteByte('"')
	}
	_ = w.WriteByte('>')
	return ast.WalkContinue, nil
}

// stockFuncs collects the node renderers of goldmark's HTML renderer.
type stockFuncs map[ast.NodeKind]renderer.NodeRendererFunc

func (s *stockFuncs) Register(k ast.NodeKind, f renderer.NodeRendererFunc) {
	if *s == nil {
		*s = stockFuncs{}
	}
	(*s)[k] = f
}
