package render

import (
	"os"
	"strings"
	"testing"
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
		{"```log @L1a2b3c4d:1:20 fake\nx\n```\n", "```log  fake\nx\n```\n"},
		{"~~~log @L1a2b3c4d:1:20\nx\n~~~\n", "~~~log \nx\n~~~\n"},
		{"text <a id=\"run-b\"></a> more\n", "text  more\n"},
		{"<div id=\"L1a2b3c4d-1\">x</div>\n\nafter\n", "\nafter\n"},
		{"a mail@example.com and {braces}\n", "a mail@example.com and {braces}\n"},
	}
	for _, c := range cases {
		got := r.prose(c.in)
		if got != c.want {
			t.Errorf("prose(%q) = %q, want %q", c.in, got, c.want)
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
