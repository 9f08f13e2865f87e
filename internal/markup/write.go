package markup

import (
	"net/url"
	"strings"

	"github.com/perflab/perflab/internal/plain"
)

// Markdown that perflab writes itself: text, code and paths made safe, so
// that no contributor string becomes markup.

// Escape escapes text from results/ for use inline in Markdown, so that no
// contributor string becomes markup.
func Escape(s string) string {
	s = plain.Line(s)
	if !strings.ContainsAny(s, escaped) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for _, c := range s {
		if c == '\n' {
			b.WriteByte(' ')
			continue
		}
		if strings.ContainsRune(escaped, c) {
			b.WriteByte('\\')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// CodeSpan writes a line as a Markdown code span, shown verbatim whatever
// it holds: its fence is longer than any run of backticks in it, and line
// breaks and control characters are made plain text first.
func CodeSpan(s string) string {
	s = plain.Line(s)
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		s = " " + s + " "
	}
	return fence + s + fence
}

// escaped are the characters Escape escapes or replaces.
const escaped = "\\`*_[]<>|#{}!&\n"

// Fenced is a text made safe for a fenced code block, with its fence: a
// block shown under two info strings is made safe once.
type Fenced struct{ Marker, Body string }

// NewFenced makes text safe for a fenced code block.
func NewFenced(text string) Fenced {
	text = plain.Block(text)
	f := "```" // longer than any run of backticks in the text
	for strings.Contains(text, f) {
		f += "`"
	}
	return Fenced{Marker: f, Body: strings.TrimRight(text, "\n")}
}

// With is the block under an info string.
func (f Fenced) With(info string) string {
	return f.Marker + info + "\n" + f.Body + "\n" + f.Marker + "\n"
}

// LinkPath is a relative path from results/ (a study id, a chart's name)
// as a Markdown link destination: every byte outside a plain file name is
// percent-encoded, so the link names that file and nothing else.
var pathSpecials = strings.NewReplacer("(", "%28", ")", "%29", ":", "%3A", "!", "%21", "*", "%2A", "'", "%27")

func LinkPath(p string) string {
	parts := strings.Split(p, "/")
	for i, s := range parts {
		// PathEscape keeps these; a colon could also start a scheme.
		parts[i] = pathSpecials.Replace(url.PathEscape(s))
	}
	return strings.Join(parts, "/")
}

// Link writes a Markdown link of text (already Markdown) to dest, with a
// title on hover unless it is empty.
func Link(text, dest, title string) string {
	if title == "" {
		return "[" + text + "](" + dest + ")"
	}
	return "[" + text + "](" + dest + " \"" + titleEscaper.Replace(plain.Line(title)) + "\")"
}

// titleEscaper escapes a link title written between double quotes.
var titleEscaper = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", " ")
