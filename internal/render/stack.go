package render

import (
	"bytes"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

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
// header cell. The renderer escapes it as an attribute value.
func plainText(n ast.Node, source []byte) []byte {
	var b bytes.Buffer
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch t := c.(type) {
		case *ast.Text:
			b.Write(t.Value(source))
			if t.SoftLineBreak() || t.HardLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			b.Write(t.Value)
		case *ast.CodeSpan:
			for s := t.FirstChild(); s != nil; s = s.NextSibling() {
				if txt, ok := s.(*ast.Text); ok {
					b.Write(txt.Value(source))
				}
			}
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	return bytes.TrimSpace(b.Bytes())
}
