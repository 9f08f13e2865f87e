package render

import (
	"bytes"
	"fmt"
	"strings"
)

// NotFound is the page GitHub Pages serves for any missing path, at any
// depth (notfound.html.tmpl); home is the landing page's address: absolute
// when the base URL is known, else relative, right for a missing page at
// the top of the site and from file://.
func (r *Renderer) NotFound(home string) ([]byte, error) {
	// The page speaks every language; so does its description.
	type paragraph struct{ Lang, Text, Link string }
	var paragraphs []paragraph
	var description []string
	for _, l := range Languages {
		loc := r.localizer(l.Code)
		paragraphs = append(paragraphs, paragraph{l.Code, loc.T("notfound.text"), loc.T("notfound.link")})
		description = append(description, loc.T("notfound.text"))
	}
	var b bytes.Buffer
	err := r.notFound.Execute(&b, map[string]any{"Lang": Languages[0].Code, "Title": r.localizer(Languages[0].Code).T("notfound.title"),
		"Description": strings.Join(description, " / "), "Home": home, "Paragraphs": paragraphs})
	if err != nil {
		return nil, fmt.Errorf("templates/notfound.html.tmpl: %w", err)
	}
	return b.Bytes(), nil
}
