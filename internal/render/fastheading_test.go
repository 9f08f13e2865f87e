package render

import (
	"testing"

	gast "github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// FuzzFastHeadings: a page's goldmark reads every heading, fast or not,
// into the tree goldmark's heading parser makes, and writes the same HTML.
func FuzzFastHeadings(f *testing.F) {
	for _, s := range []string{
		"## Conclusion {#conclusion}", "# 8 × NVIDIA A100 での Qwen3 {#top}", "### 1. The engine {#step-engine}",
		"## a {#}", "## a {#A}", "## a {#a .b}", "## a{#a}", "##a {#a}", "## a #  {#a}", "## a {#a} x",
		"####### a {#a}", "## {#a}", "##  a   {#a}", "## a \\{ {#a}", "## *a* [b](#c) {#d}", "##\ta {#a}",
		"## a {#a}\r", "## a {#a-1}", "# \xff {#0}", "## { {#a}", "## a } {#a}", " ## a {#a}",
	} {
		f.Add("text\n", s, "\nmore")
		f.Add("", s, "")
	}
	stock, fast := reportMarkdown(), reportMarkdown(fastHeadings{})
	f.Fuzz(func(t *testing.T, before, heading, after string) {
		doc := []byte(before + heading + after)
		sameHTML(t, stock, fast, doc)
		if got, want := dumpAST(fast, doc), dumpAST(stock, doc); got != want {
			t.Errorf("Markdown %q:\ngot  %s\nwant %s", doc, got, want)
		}
	})
}

// The fast path takes a report's headings: the fuzz test above compares
// nothing if it takes none.
func TestFastHeadingsTaken(t *testing.T) {
	for heading, want := range map[string]bool{
		"## Conclusion {#conclusion}\n": true, "# 8 × A100 での Qwen3 {#top}": true, "#### vLLM FP8 {#run-vllm-fp8}\n": true,
		"## a {#a .b}\n": false, "## a\n": false, "## a {#a}\r\n": false,
	} {
		reader := text.NewReader([]byte(heading))
		pc := parser.NewContext()
		pc.SetBlockOffset(0) // as goldmark's parser sets it for a line at its start
		node, _ := fastHeadingParser{}.Open(gast.NewDocument(), reader, pc)
		if got := node != nil; got != want {
			t.Errorf("%q read fast: %v, want %v", heading, got, want)
		}
	}
}
