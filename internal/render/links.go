package render

import (
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// rebaseLinks adapts the links of a report's Markdown, written relative to
// site/<lang>/, to its HTML page one folder deeper, site/<lang>/<study>/:
// relative destinations gain "../", and a link to another report's
// Markdown ("x.md") points to that report's HTML page instead.
type rebaseLinks struct{}

// The same walk puts the statistics of each change in a span (stat.go).
func (rebaseLinks) Transform(doc *ast.Document, reader text.Reader, _ parser.Context) {
	source := reader.Source()
	ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch l := n.(type) {
		case *ast.Link:
			l.Destination = rebase(l.Destination)
			spanStats(l, source)
		case *ast.Image:
			l.Destination = rebase(l.Destination)
		}
		return ast.WalkContinue, nil
	})
}

func rebase(dest []byte) []byte {
	d := string(dest)
	// A field of a message (R) is a value perflab made, put in later.
	if d == "" || strings.HasPrefix(d, markOpen) || strings.HasPrefix(d, "#") || strings.HasPrefix(d, "/") || strings.Contains(d, "://") || strings.HasPrefix(d, "mailto:") {
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
