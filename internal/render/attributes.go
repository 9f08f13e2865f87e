package render

import (
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// isSafeID reports whether id is the only attribute a report may give a
// heading, an anchor: a letter or digit, then letters, digits, '_' and '-'
// (^[A-Za-z0-9][A-Za-z0-9_-]*$, tested by hand: every heading of every
// page asks).
func isSafeID[T string | []byte](id T) bool {
	if len(id) == 0 || id[0] == '_' || id[0] == '-' {
		return false
	}
	return isIDPart(id)
}

// isIDPart reports whether id is letters, digits, '_' and '-', at least
// one (^[A-Za-z0-9_-]+$).
func isIDPart[T string | []byte](id T) bool {
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
			if b, ok := attrs[0].Value.([]byte); ok && isSafeID(b) {
				return // the common case, an anchor: kept as it is
			}
		}
		id, ok := n.AttributeString("id")
		n.RemoveAttributes()
		if b, isBytes := id.([]byte); ok && isBytes && isSafeID(b) {
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
