package render

import (
	"bytes"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
)

// FuzzFastRenderers: links and table cells rendered by fragmentLinks and
// tableCells are byte for byte those of goldmark's own renderers.
func FuzzFastRenderers(f *testing.F) {
	f.Add("3792.50", "#baseline-sharegpt", `results/x.log:10 · Total "token" throughput & <more>`, "")
	f.Add("x", "#a b", "", "")
	f.Add("*em*", "#%E4&amp;", "t\\\"", "see [y](#y 'z') and [j](javascript:alert(1))")
	f.Add("x", "#", "", "[x](#){.c}\n\n# h {#id}")
	f.Add("x", "#JAVASCRIPT:x", "&copy; &#x41; \\*", "<#x> [r]: #ref\n\n[r]")
	f.Add("a|b", "#c", "", "| x | y | z | w |\n|:--|:-:|--:|---|\n| 1 | 2 | 3 | 4 |\n| 5 |")
	stock := goldmark.New(goldmark.WithExtensions(extension.Table, logBlocks{}), goldmark.WithParserOptions(parser.WithAttribute()))
	fast := goldmark.New(goldmark.WithExtensions(extension.Table, logBlocks{}, fragmentLinks{}, tableCells{}), goldmark.WithParserOptions(parser.WithAttribute()))
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
