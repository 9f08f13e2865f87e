package render

import (
	"strings"
	"testing"
)

// TestStackTables: each body cell carries its column's header as plain,
// escaped text, so that a phone shows the table as cards.
func TestStackTables(t *testing.T) {
	r, err := chartRenderer()
	if err != nil {
		t.Fatal(err)
	}
	md := "| Case | **Base** (tok/s) | `x\"><b>` |\n|---|--:|---|\n| a | [1](#L1) | 2 |\n| b |\n"
	out, err := r.markdownToHTML([]byte(md))
	if err != nil {
		t.Fatal(err)
	}
	html := string(out)
	for _, want := range []string{
		`<table class="stack">`,
		`<td data-label="Case">a</td>`,
		`<td data-label="Base (tok/s)" style="text-align:right"><a href="#L1">1</a></td>`,
		`<td data-label="x&quot;&gt;&lt;b&gt;">2</td>`,
		`<td data-label="Case">b</td>`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("no %s in\n%s", want, html)
		}
	}
	if strings.Contains(html, "<b>") {
		t.Errorf("a header's markup reached an attribute unescaped:\n%s", html)
	}
}
