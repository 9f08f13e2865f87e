package render

import (
	"os"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/markup"
)

// TestProseAnchors: prose keeps its headings and log blocks but none of
// the ids or line anchors that would claim a place of the page.
func TestProseAnchors(t *testing.T) {
	r, err := New(os.DirFS("../../templates"), os.DirFS("../../locales"))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct{ in, want string }{
		{"plain text, no markup\n", "plain text, no markup\n"},
		{"## Title {#run-a}\n", "## Title\n"},
		{"## {#L1a2b3c4d-10}\n", "## \n"},
		{"Setext {#conclusion}\n---\n", "Setext\n---\n"},
		{"> ### Quoted {#step-x}\n", "> ### Quoted\n"},
		{"- ## In a list {#top}\n", "- ## In a list\n"},
		// A log block's info string makes no anchor: it stays as written.
		{"```log @L1a2b3c4d:1:20 fake\nx\n```\n", "```log @L1a2b3c4d:1:20 fake\nx\n```\n"},
		{"text <a id=\"run-b\"></a> more\n", "text  more\n"},
		{"<div id=\"L1a2b3c4d-1\">x</div>\n\nafter\n", "\nafter\n"},
		{"a mail@example.com and {braces}\n", "a mail@example.com and {braces}\n"},
	}
	for _, c := range cases {
		got := markup.Clean(c.in)
		if got != c.want {
			t.Errorf("Clean(%q) = %q, want %q", c.in, got, c.want)
		}
		html, err := r.markdownToHTML([]byte(got))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(html), " id=") {
			t.Errorf("prose(%q) still sets an id: %s", c.in, html)
		}
	}
}

// TestProseBlocks: prose's code and log blocks and tables read as the
// page's own: a named block of code, a collapsed log, cards on a phone,
// relative links rebased, no attribute but an id.
func TestProseBlocks(t *testing.T) {
	md := newProseMarkdowns(func(string) string { return "Code" })["en"]
	src := "## Notes {#n onclick=x}\n\n```bash\nvllm serve a <b>\n```\n\n```log Raw\nline 1\n```\n\n| a | b |\n|---|--:|\n| 1 | 2 |\n\n[other](x.md)\n"
	var b strings.Builder
	if err := md.Convert([]byte(src), &b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`<h2 id="n">Notes</h2>`,
		`<pre tabindex="0" aria-label="Code"><code class="language-bash">vllm serve a &lt;b&gt;` + "\n</code></pre>",
		`<details class="log"><summary>Raw</summary>`,
		`<table class="stack">`, `<td data-label="b" style="text-align:right">2</td>`,
		`<a href="../x/index.html">other</a>`,
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("no %q in\n%s", want, b.String())
		}
	}
	if strings.Contains(b.String(), "onclick") {
		t.Errorf("an attribute kept: %s", b.String())
	}
}
