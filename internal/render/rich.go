package render

import (
	"bytes"
	htmltemplate "html/template"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/perflab/perflab/internal/locale"
	"github.com/perflab/perflab/internal/markup"
	"github.com/perflab/perflab/internal/plain"
)

// rich is a piece of a view in both formats at once: the Markdown that
// report.md.tmpl writes and the HTML that report.html.tmpl writes, each
// made from the same parts (text, links, code, messages), so that neither
// is printed in one format and parsed back into the other. Fields, not
// methods: a template reads a field without a reflected call.
type rich struct {
	MD   string
	HTML htmltemplate.HTML
}

// richText is text from results/ or computed, shown as it is.
func richText(s string) rich {
	return rich{markup.Escape(s), htmltemplate.HTML(htmltemplate.HTMLEscapeString(plain.Line(s)))}
}

// richFigure is a figure perflab computed or read (digits, signs, "—"):
// no character of it is Markdown.
func richFigure(s string) rich { return rich{s, htmltemplate.HTML(htmltemplate.HTMLEscapeString(s))} }

// richCode is a line shown verbatim, as a code span.
func richCode(s string) rich {
	return rich{markup.CodeSpan(s), htmltemplate.HTML("<code>" + htmltemplate.HTMLEscapeString(plain.Line(s)) + "</code>")}
}

// richLink links text to href, a place on the page ("#x") or an address
// made by perflab (repoLines), with a title on hover.
func richLink(text rich, href, title string) rich {
	h := `<a href="` + htmltemplate.HTMLEscapeString(href) + `"`
	if title != "" {
		h += ` title="` + htmltemplate.HTMLEscapeString(plain.Line(title)) + `"`
	}
	return rich{linked(text.MD, href, title), htmltemplate.HTML(h + ">" + string(text.HTML) + "</a>")}
}

// richJoin puts pieces one after the other.
func richJoin(parts ...rich) rich { return richList(rich{}, parts...) }

// richList puts pieces one after the other, sep between each two.
func richList(sep rich, parts ...rich) rich {
	var md, html strings.Builder
	for i, p := range parts {
		if i > 0 {
			md.WriteString(sep.MD)
			html.WriteString(string(sep.HTML))
		}
		md.WriteString(p.MD)
		html.WriteString(string(p.HTML))
	}
	return rich{md.String(), htmltemplate.HTML(html.String())}
}

// Field marks stand for a message's fields while its text, which a
// translator wrote in Markdown, is rendered to HTML: private-use
// characters, which no message and no goldmark rule holds.
const markOpen, markClose = "\ue000", "\ue001"

// fieldMarkForms are a mark's forms: as written, and as goldmark
// percent-encodes it in a link's destination.
var fieldMarkForms = [][2]string{{markOpen, markClose}, {url.PathEscape(markOpen), url.PathEscape(markClose)}}

// fieldMarks are the marks of a message's first fields, made once (a
// page fills thousands of messages) and boxed for T.
var fieldMarks = func() (m [12]any) {
	for i := range m {
		m[i] = markOpen + strconv.Itoa(i) + markClose
	}
	return m
}()

// fieldMark is the mark of a message's field i.
func fieldMark(i int) any {
	if i < len(fieldMarks) {
		return fieldMarks[i]
	}
	return markOpen + strconv.Itoa(i) + markClose
}

// R localizes a message whose fields are rich pieces, strings (text) or
// ints. Its Markdown is T's with each field's Markdown. Its HTML is the
// message's own text rendered by goldmark (translators write emphasis in
// it), each field's HTML then put in its mark's place: goldmark renders
// what people wrote, never a value.
func (l *localizer) R(id string, kv ...any) rich {
	markKV := slices.Clone(kv)
	var fields []any // rich pieces and texts
	// The marked text depends on the id and the ints only: it is asked
	// of go-i18n once a language (markedCache), unless a field is of
	// another type or the message is missing.
	key, cached := append([]byte(l.lang+"\x00"+id), 0), l.Has(id)
	for i := 1; i < len(kv); i += 2 {
		switch v := kv[i].(type) {
		case rich, string:
			key = append(append(key, name(kv[i-1])...), 0)
			markKV[i] = fieldMark(len(fields))
			fields = append(fields, v)
		case int: // the same in both formats, and plural forms count it
			key = strconv.AppendInt(append(append(key, name(kv[i-1])...), '='), int64(v), 10)
		default:
			cached = false
		}
	}
	var marked [2]string // go-i18n's text with marks, and its HTML
	if v, ok := l.r.markedCache.Load(string(key)); cached && ok {
		marked = v.([2]string)
	} else {
		lacked := l.Lacked()
		text := l.T(id, markKV...)
		marked = [2]string{text, messageHTML(text)}
		if cached && l.Lacked() == lacked { // a message that failed fails on each page
			l.r.markedCache.Store(string(key), marked)
		}
	}
	// A text is made rich where the message names it; a message may name a
	// field twice, or not at all. Each format is filled in one pass, so a
	// field that holds a mark (a name a contributor wrote) is not read again.
	made := make([]*rich, len(fields))
	field := func(i int) *rich {
		if made[i] == nil {
			f, ok := fields[i].(rich)
			if !ok {
				f = richText(fields[i].(string))
			}
			made[i] = &f
		}
		return made[i]
	}
	md := locale.Fill(marked[0], fieldMarkForms[:1], len(fields), func(i int) string { return field(i).MD })
	html := locale.Fill(marked[1], fieldMarkForms, len(fields), func(i int) string { return string(field(i).HTML) })
	return rich{l.Tidy(md), htmltemplate.HTML(l.Tidy(html))}
}

// name is a message field's name.
func name(key any) string {
	s, _ := key.(string)
	return s
}

// messageHTML renders a message's text, its fields marked, as inline
// HTML: the paragraph goldmark makes of it, without its <p>.
func messageHTML(text string) string {
	// goldmark makes a paragraph of the text, whose spaces at either
	// end it drops: a message keeps them (" *(projected)*").
	body := strings.TrimSpace(text)
	lead, trail := text[:strings.Index(text, body)], text[strings.Index(text, body)+len(body):]
	var b bytes.Buffer
	if err := messageMarkdown.Convert([]byte(body), &b); err != nil {
		return htmltemplate.HTMLEscapeString(text)
	}
	out := strings.TrimSpace(b.String())
	return lead + strings.TrimSuffix(strings.TrimPrefix(out, "<p>"), "</p>") + trail
}
