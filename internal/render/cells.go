package render

import (
	"github.com/yuin/goldmark"
	gast "github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/util"
)

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
