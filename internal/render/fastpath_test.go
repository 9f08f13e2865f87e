package render

import (
	"bufio"
	"bytes"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/util"
)

// FuzzFastRenderers: links, table cells and text rendered by fragmentLinks,
// tableCells and htmlText are byte for byte those of goldmark's own.
func FuzzFastRenderers(f *testing.F) {
	f.Add("3792.50", "#baseline-sharegpt", `results/x.log:10 · Total "token" throughput & <more>`, "")
	f.Add("x", "#a b", "", "")
	f.Add("*em*", "#%E4&amp;", "t\\\"", "see [y](#y 'z') and [j](javascript:alert(1))")
	f.Add("x", "#", "", "[x](#){.c}\n\n# h {#id}")
	f.Add("x", "#JAVASCRIPT:x", "&copy; &#x41; \\*", "<#x> [r]: #ref\n\n[r]")
	f.Add("a|b", "#c", "", "| x | y | z | w |\n|:--|:-:|--:|---|\n| 1 | 2 | 3 | 4 |\n| 5 |")
	f.Add("a < b & c > \"d\"", "#x", "\\* &amp; &#35; &#x41; &bogus; \x00", "`code <a> & \\`\n\n```log t\n<x> \"y\" & z\n```\n\n\\\\ \\& &copy \x00 end\\")
	stock := goldmark.New(goldmark.WithExtensions(extension.Table, logBlocks{}), goldmark.WithParserOptions(parser.WithAttribute()))
	fast := goldmark.New(goldmark.WithExtensions(extension.Table, logBlocks{}, fragmentLinks{}, tableCells{}), goldmark.WithParserOptions(parser.WithAttribute()),
		goldmark.WithRendererOptions(html.WithWriter(htmlText{html.DefaultWriter})))
	f.Fuzz(func(t *testing.T, text, dest, title, more string) {
		doc := []byte("| a | b |\n|---|--:|\n| [" + text + "](" + dest + ` "` + title + `") | [` + text + "](<" + dest + ">) |\n\n" +
			"[" + text + "](" + dest + ")\n\n" + more + "\n")
		var want, got bytes.Buffer
		if err := stock.Convert(doc, &want); err != nil {
			t.Skip()
		}
		if err := fast.Convert(doc, &got); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Errorf("Markdown %q:\ngot  %q\nwant %q", doc, got.Bytes(), want.Bytes())
		}
	})
}

// FuzzHTMLText: htmlText writes any bytes as goldmark's writer does, and
// writeEscaped as util.EscapeHTML escapes them.
func FuzzHTMLText(f *testing.F) {
	for _, s := range []string{"", "plain", `a<b>&"c"`, `\* \\ \a`, "&amp; &#35; &#x41; &#xZZ; &bogus; &", "\x00x\x00", "tail\\", "é 模型 <>"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		var want, got bytes.Buffer
		ww, gw := bufio.NewWriter(&want), bufio.NewWriter(&got)
		html.DefaultWriter.Write(ww, src)
		htmlText{html.DefaultWriter}.Write(gw, src)
		html.DefaultWriter.RawWrite(ww, src)
		htmlText{html.DefaultWriter}.RawWrite(gw, src)
		ww.Write(util.EscapeHTML(src))
		writeEscaped(gw, src)
		ww.Flush()
		gw.Flush()
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Errorf("%q: got %q, want %q", src, got.Bytes(), want.Bytes())
		}
	})
}
