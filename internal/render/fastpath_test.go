package render

import (
	"bufio"
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	gast "github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/text"
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
	stock := stockMarkdown()
	fast := goldmark.New(goldmark.WithExtensions(extension.Table, logBlocks{}, fragmentLinks{}, tableCells{}), goldmark.WithParserOptions(parser.WithAttribute()),
		goldmark.WithRendererOptions(html.WithWriter(htmlText{html.DefaultWriter})))
	f.Fuzz(func(t *testing.T, text, dest, title, more string) {
		doc := []byte("| a | b |\n|---|--:|\n| [" + text + "](" + dest + ` "` + title + `") | [` + text + "](<" + dest + ">) |\n\n" +
			"[" + text + "](" + dest + ")\n\n" + more + "\n")
		sameHTML(t, stock, fast, doc)
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

// FuzzPlainLinks: links and images parsed by plainLinks give the HTML that
// goldmark's own link parser gives, in every context a report has.
func FuzzPlainLinks(f *testing.F) {
	f.Add("3792.50", "#Lf430bec9-10", "results/x.log:10 · Total Token throughput (tok/s) · perflab check: passed", "")
	f.Add("▲ +22.2 % (n = 1 + 1, noise band 1.0 %)", "#run-sglang-tp8", "(4635.31 / 3792.50 - 1) x 100", "")
	f.Add("中文", "../zh/x.md", "", "[a [b](#c)](#d) *[e](#f)* [g](#h)[i](#j)")
	f.Add("x", "#a", "t", "[x]: #ref\n\n[x] [x][] [y](#z 'q') [y](#z (q)) [y]( #z ) [y](#z  \"q\")")
	f.Add("a", "b(c)", "\"", "![alt](a.svg \"t\")! [b](#c)\n- [d](#e)\n\n> [f](#g)\n\n# [h](#i) {#j}")
	f.Add("x", "#y", "t", "\\[x](#y) `[x](#y)` <a>[x](#y)</a> [x](#y \"t\\\"\") [x](<#y>) [x\n](#y)")
	f.Add("x", "#y", "t", "| [x](#y \"t\") | ![x](#y) |\n|---|---|\n| [x](#y) | a |\n\n\t[x](#y)\n\n    [x](#y)")
	for _, label := range []string{"*em*", "_em_", "`c`", "<b>", "&amp;", "a\\*b", "~s~", "n]", "!x", "a|b", "'q'"} {
		f.Add(label, "#y", "t", "")
	}
	for _, dest := range []string{"#a(b)", "<#a>", "#a&amp;b", "#a\\)b", "#a\tb", "#a'b"} {
		f.Add("x", dest, "t", "")
	}
	for _, title := range []string{"a\\\"b", "&copy;", "a'b", "a\tb", "*t*"} {
		f.Add("x", "#y", title, "")
	}
	// As a page's goldmark is, transforms and renderers included.
	stock, fast := reportMarkdown(), reportMarkdown(plainLinks{})
	f.Fuzz(func(t *testing.T, label, dest, title, more string) {
		link := "[" + label + "](" + dest + ` "` + title + `")`
		doc := []byte("| a | b |\n|---|--:|\n| " + link + " | !" + link + "x |\n\n" +
			"a " + link + "[" + label + "](" + dest + ") b\n*" + link + "*\n\n" +
			"- " + link + " {#id}\n\n### " + link + " {#h}\n\n" + more + "\n")
		sameHTML(t, stock, fast, doc)
		// The same tree too, positions included, for what reads it.
		if got, want := dumpAST(fast, doc), dumpAST(stock, doc); got != want {
			t.Errorf("Markdown %q:\ngot  %s\nwant %s", doc, got, want)
		}
	})
}

// dumpAST writes the tree goldmark parses doc into: each node's kind and
// position, a text's segment and flags, a link's destination and title.
func dumpAST(md goldmark.Markdown, doc []byte) string {
	var b strings.Builder
	_ = gast.Walk(md.Parser().Parse(text.NewReader(doc)), func(n gast.Node, entering bool) (gast.WalkStatus, error) {
		if !entering {
			b.WriteString(")")
			return gast.WalkContinue, nil
		}
		fmt.Fprintf(&b, "(%s@%d", n.Kind(), n.Pos())
		switch n := n.(type) {
		case *gast.Text:
			fmt.Fprintf(&b, " %d-%d %v%v%v", n.Segment.Start, n.Segment.Stop, n.SoftLineBreak(), n.HardLineBreak(), n.IsRaw())
		case *gast.Link:
			fmt.Fprintf(&b, " %q %q", n.Destination, n.Title)
		case *gast.Image:
			fmt.Fprintf(&b, " %q %q", n.Destination, n.Title)
		}
		return gast.WalkContinue, nil
	})
	return b.String()
}

// stockMarkdown is goldmark as a report uses it, without the fast paths.
func stockMarkdown() goldmark.Markdown {
	return goldmark.New(goldmark.WithExtensions(extension.Table, logBlocks{}), goldmark.WithParserOptions(parser.WithAttribute()))
}

// sameHTML fails t unless fast renders doc as stock does.
func sameHTML(t *testing.T, stock, fast goldmark.Markdown, doc []byte) {
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
}
