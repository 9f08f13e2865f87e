package render

import (
	"bytes"
	"fmt"
	"html"
	"strings"
)

// NotFound is the page GitHub Pages serves for any missing path, at any
// depth: it carries its own style, says so in every language, and links to
// home (the landing page: an absolute address when the base URL is known,
// else relative, right for a missing page at the top of the site and from
// file://).
func (r *Renderer) NotFound(home string) ([]byte, error) {
	// The page speaks every language; so does its description.
	var description []string
	var paragraphs strings.Builder
	for _, l := range Languages {
		loc := r.localizer(l.Code)
		text, link := loc.T("notfound.text"), loc.T("notfound.link")
		description = append(description, text)
		fmt.Fprintf(&paragraphs, "<p lang=\"%s\">%s <a href=\"%s\">%s</a></p>\n", l.Code, html.EscapeString(text), html.EscapeString(home), html.EscapeString(link))
	}
	var b bytes.Buffer
	b.WriteString(`<!DOCTYPE html>
<html lang="` + Languages[0].Code + `">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>` + html.EscapeString(r.localizer(Languages[0].Code).T("notfound.title")) + ` · perflab</title>
<meta name="description" content="` + html.EscapeString(strings.Join(description, " / ")) + `">
<style>
:root { color-scheme: light dark; }
body { font: 16px/1.5 system-ui, sans-serif; max-width: 40rem; margin: 3rem auto; padding: 0 1rem; }
h1 { font-size: 1.5rem; }
p { margin: .5rem 0; }
</style>
</head>
<body>
<main>
<h1>perflab</h1>
`)
	b.WriteString(paragraphs.String())
	b.WriteString("</main>\n</body>\n</html>\n")
	return b.Bytes(), nil
}
