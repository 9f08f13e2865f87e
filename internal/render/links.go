package render

import (
	"bytes"
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
			markLanguage(l, source)
			l.Destination = rebase(l.Destination)
			spanStats(l, source)
		case *ast.Image:
			l.Destination = rebase(l.Destination)
		}
		return ast.WalkContinue, nil
	})
}

// markLanguage gives a link to a report in another language
// ("../ja/<study>.md") whose text is that language's name its lang:
// "日本語" on an English page is set in a Japanese font. (goldmark writes
// no hreflang on a link; the header's language links carry it.)
func markLanguage(l *ast.Link, source []byte) {
	for _, lang := range Languages {
		if !bytes.HasPrefix(l.Destination, []byte("../"+lang.Code+"/")) || !bytes.HasSuffix(l.Destination, []byte(".md")) {
			continue
		}
		if t, ok := l.FirstChild().(*ast.Text); ok && l.FirstChild() == l.LastChild() && string(t.Segment.Value(source)) == lang.Name {
			l.SetAttributeString("lang", []byte(lang.Code))
		}
		return
	}
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
