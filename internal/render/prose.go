package render

import (
	"bytes"
	htmltemplate "html/template"

	"github.com/yuin/goldmark"

	"github.com/perflab/perflab/internal/markup"
)

// The prose of content/ is what people wrote, and goldmark renders it
// (internal/markup), its code and log blocks written as the page writes
// its own (blocks.go).

// proseMarkdowns are prose's goldmark in each language: a block of code
// is named in it for a screen reader.
type proseMarkdowns map[string]goldmark.Markdown

func newProseMarkdowns(codeLabel func(lang string) string) proseMarkdowns {
	m := proseMarkdowns{}
	for _, l := range Languages {
		label := codeLabel(l.Code)
		m[l.Code] = markup.New(func(text, lang, rest string) string {
			if lang == "log" { // collapsed under the rest of its info string
				return string(richLog(text, rest, logAnchors{}).HTML)
			}
			return string(richFence(text, lang, label).HTML)
		})
	}
	return m
}

// messageMarkdown renders the text of messages, which translators write in
// Markdown: emphasis, code and links, CommonMark as it is.
var messageMarkdown = goldmark.New()

// richProse is a section of content/ that people wrote: its Markdown as
// markup.Clean keeps it (no anchor of the page's, no raw HTML), and the
// HTML goldmark renders of it.
func (p *reportPage) richProse(id string) rich {
	md := markup.Clean(p.c.Sections[id].Markdown)
	if md == "" {
		return rich{}
	}
	var b bytes.Buffer
	if err := p.r.proseHTML[p.lang].Convert([]byte(md), &b); err != nil {
		return rich{md, htmltemplate.HTML("<p>" + htmlText.Replace(md) + "</p>\n")}
	}
	return rich{md, htmltemplate.HTML(b.String())}
}
