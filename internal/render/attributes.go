package render

import (
	"regexp"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// safeID is the only attribute a report may give a heading: an anchor.
var safeID = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]*$`)

// onlyIDAttributes drops every attribute but a plain id. The templates
// anchor headings with {#id}; prose written in a pull request must not add
// event handlers or styles through the same syntax
// ("## Title {onmouseover=... style=...}").
type onlyIDAttributes struct{}

func (onlyIDAttributes) Transform(doc *ast.Document, _ text.Reader, _ parser.Context) {
	ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering || n.Attributes() == nil {
			return ast.WalkContinue, nil
		}
		id, ok := n.AttributeString("id")
		n.RemoveAttributes()
		if b, isBytes := id.([]byte); ok && isBytes && safeID.Match(b) {
			n.SetAttributeString("id", b)
		}
		return ast.WalkContinue, nil
	})
}
