package render

import (
	"bytes"
	htmltemplate "html/template"
	"strconv"
	"strings"

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
	f := newFenced(text)
	var b strings.Builder
	b.Grow(len(f.body) + 96)
	b.WriteString(`<pre tabindex="0"`)
	if label != "" {
		b.WriteString(` aria-label="` + htmlText.Replace(label) + `"`)
	}
	b.WriteString("><code")
	if lang != "" {
		b.WriteString(` class="language-` + htmlText.Replace(lang) + `"`)
	}
	b.WriteString(">")
	b.WriteString(htmlText.Replace(f.body))
	b.WriteString("\n")
	b.WriteString("</code></pre>\n")
	return rich{f.with(lang), htmltemplate.HTML(b.String())}
}

// logAnchors numbers the first count lines of a log block from first,
// with ids "<prefix>-<line>" (LineID): the targets of the page's figures.
type logAnchors struct {
	prefix       string
	first, count int
}

// richLog is a raw log block under summary: in the HTML a collapsible
// <details>, its first lines numbered targets (at); in the Markdown a
// fenced "log" block whose info string carries the same.
func richLog(text, summary string, at logAnchors) rich {
	f := newFenced(text)
	info := "log " + summary
	if at.prefix != "" {
		info = "log @" + at.prefix + ":" + strconv.Itoa(at.first) + ":" + strconv.Itoa(at.count) + " " + summary
	}
	sum := htmlText.Replace(summary)
	var b bytes.Buffer
	b.Grow(len(f.body)*2 + at.count*48 + 160)
	b.WriteString(`<details class="log"><summary>` + sum + "</summary>\n")
	b.WriteString(`<pre tabindex="0"`)
	if sum != "" {
		b.WriteString(` aria-label="` + sum + `"`)
	}
	b.WriteString(`><code class="language-log">`)
	var num []byte
	for i, line := range strings.Split(f.body, "\n") {
		if i >= at.count {
			b.WriteString(htmlText.Replace(line))
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
		b.WriteString(htmlText.Replace(line))
		b.WriteString("</span>\n")
	}
	b.WriteString("</code></pre>\n</details>\n")
	return rich{f.with(info), htmltemplate.HTML(b.String())}
}

// richChart is one of the page's charts: a Markdown image, relative to
// site/<lang>/, and in the HTML a <picture> whose narrow screens get the
// drawing in narrow/ next to it. Only the page's first chart loads at
// once. The zero rich: no such chart.
func (p *reportPage) richChart(name string) rich {
	for _, ch := range p.charts {
		if ch.Name != name {
			continue
		}
		dest := linkPath(p.s.ID + "/" + name + ".svg")
		md := "![" + esc(ch.Description) + "](" + dest + ")"
		src := "../" + dest
		narrow, _ := narrowChart([]byte(src))
		var b strings.Builder
		b.WriteString(`<p><picture><source media="` + narrowMedia + `" srcset="` + htmlText.Replace(string(narrow)) + `"`)
		w, h, ok := svgSize(ch.SVG)
		nw, nh, nok := svgSize(ch.Narrow)
		if ok && nok {
			b.WriteString(` width="` + strconv.Itoa(nw) + `" height="` + strconv.Itoa(nh) + `"`)
		}
		b.WriteString(`><img src="` + htmlText.Replace(src) + `" alt="` + htmlText.Replace(plain.Line(ch.Description)) + `"`)
		if ok && nok {
			b.WriteString(` width="` + strconv.Itoa(w) + `" height="` + strconv.Itoa(h) + `"`)
		}
		if p.reader.sized { // the first is likely in view as the page opens
			b.WriteString(` loading="lazy"`)
		}
		p.reader.sized = true
		b.WriteString("></picture></p>\n")
		return rich{md, htmltemplate.HTML(b.String())}
	}
	return rich{}
}
