package render

import (
	"bytes"
	htmltemplate "html/template"
	"slices"
	"strconv"
	"strings"

	"github.com/perflab/perflab/internal/chart"
	"github.com/perflab/perflab/internal/markup"
	"github.com/perflab/perflab/internal/plain"
)

// The blocks of a page that a view holds in both formats (rich): code,
// logs with numbered lines, charts and the prose of content/. Each HTML is
// written here from the same text as its Markdown; none is parsed back.

// htmlText escapes text as goldmark escapes a code block's or an
// attribute's text, so that a block reads the same whichever wrote it.
var htmlText = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;")

// richFence is a block of code, a command or a recipe: a fenced block in
// the Markdown, a <pre> that a keyboard reaches (tabindex) in the HTML,
// named label for a screen reader.
func richFence(text, lang, label string) rich {
	f := markup.NewFenced(text)
	h := `<pre tabindex="0"`
	if label != "" {
		h += ` aria-label="` + htmlText.Replace(label) + `"`
	}
	h += "><code"
	if lang != "" {
		h += ` class="language-` + htmlText.Replace(lang) + `"`
	}
	return rich{f.With(lang), htmltemplate.HTML(h + ">" + htmlText.Replace(f.Body) + "\n</code></pre>\n")}
}

// logAnchors numbers the first count lines of a log block from first,
// with ids "<prefix>-<line>" (LineID): the targets of the page's figures.
type logAnchors struct {
	prefix       string
	first, count int
}

// richLog is a raw log block under summary: in the HTML a collapsible
// <details>, its first lines numbered targets (at); in the Markdown a
// fenced "log" block.
func richLog(text, summary string, at logAnchors) rich {
	f := markup.NewFenced(text)
	sum := htmlText.Replace(summary)
	var b bytes.Buffer
	b.Grow(len(f.Body)*2 + at.count*48 + 160)
	b.WriteString(`<details class="log"><summary>` + sum + "</summary>\n")
	b.WriteString(`<pre tabindex="0"`)
	if sum != "" {
		b.WriteString(` aria-label="` + sum + `"`)
	}
	b.WriteString(`><code class="language-log">`)
	var num []byte
	for i, line := range strings.Split(f.Body, "\n") {
		if i >= at.count {
			htmlText.WriteString(&b, line)
			b.WriteByte('\n')
			continue
		}
		// Each line is a target, written in pieces: a page has
		// thousands of them.
		num = strconv.AppendInt(num[:0], int64(at.first+i), 10)
		b.WriteString(`<span class="ln" id="`)
		b.WriteString(at.prefix)
		b.WriteByte('-')
		b.Write(num)
		b.WriteString(`"><a href="#`)
		b.WriteString(at.prefix)
		b.WriteByte('-')
		b.Write(num)
		b.WriteString(`">`)
		b.Write(num)
		b.WriteString(`</a>`)
		htmlText.WriteString(&b, line)
		b.WriteString("</span>\n")
	}
	b.WriteString("</code></pre>\n</details>\n")
	return rich{f.With("log " + summary), htmltemplate.HTML(b.String())}
}

// richChart is one of the page's charts: a Markdown image, relative to
// site/<lang>/, and in the HTML a <picture> whose narrow screens get the
// drawing in narrow/ next to it. Only the page's first chart loads at
// once. The zero rich: no such chart.
func (p *reportPage) richChart(name string) rich {
	i := slices.IndexFunc(p.charts, func(ch chart.Chart) bool { return ch.Name == name })
	if i < 0 {
		return rich{}
	}
	ch := p.charts[i]
	md := "![" + markup.Escape(ch.Description) + "](" + markup.LinkPath(p.s.ID+"/"+name+".svg") + ")"
	src := "../" + markup.LinkPath(p.s.ID+"/"+name+".svg")
	var b strings.Builder
	size := func(w, h int) string { return ` width="` + strconv.Itoa(w) + `" height="` + strconv.Itoa(h) + `"` }
	b.WriteString(`<p><picture><source media="` + narrowMedia + `" srcset="` + htmlText.Replace(narrowChart(src)) + `"` + size(ch.NarrowWidth, ch.NarrowHeight))
	b.WriteString(`><img src="` + htmlText.Replace(src) + `" alt="` + htmlText.Replace(plain.Line(ch.Description)) + `"` + size(ch.Width, ch.Height))
	if p.chartShown { // the first is likely in view as the page opens
		b.WriteString(` loading="lazy"`)
	}
	p.chartShown = true
	b.WriteString("></picture></p>\n")
	return rich{md, htmltemplate.HTML(b.String())}
}

// LineID is the id of a log line in a page: the log's path made an id,
// and the line.
func LineID(repoPath string, line int) string {
	return lineIDPrefix(repoPath) + "-" + strconv.Itoa(line)
}

// lineIDPrefix is short, as it is written twice on every line of every
// log: "L" and the 32-bit FNV-1a hash of the log's path in hex (written
// out here: a page asks for it at every figure).
func lineIDPrefix(repoPath string) string {
	const hexDigits = "0123456789abcdef"
	h := uint32(2166136261) // FNV-1a, 32 bits: offset basis and prime
	for i := 0; i < len(repoPath); i++ {
		h ^= uint32(repoPath[i])
		h *= 16777619
	}
	var id [9]byte
	id[0] = 'L'
	for i := 8; i > 0; i-- {
		id[i] = hexDigits[h&0xf]
		h >>= 4
	}
	return string(id[:])
}

// narrowMedia is the screens that get a chart's narrow drawing: a phone's,
// where the wide one would be scaled to less than half its size.
const narrowMedia = "(max-width: 640px)"

// narrowChart is the narrow drawing of a chart at dest ("../s/x.svg" gives
// "../s/narrow/x.svg").
func narrowChart(dest string) string {
	cut := strings.LastIndexByte(dest, '/') + 1
	return dest[:cut] + "narrow/" + dest[cut:]
}
