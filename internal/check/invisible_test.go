package check

import (
	"strings"
	"testing"
)

// TestInvisible: each hidden character is an error at its line and its
// column in characters (a CJK character is one), naming the code point;
// a flood of them is cut to maxInvisible lines and a count.
func TestInvisible(t *testing.T) {
	text := "plain line\n吞吐量为 \u202e2054.21\u202c tok/s\nzero\u200bwidth and tag\U000e0041\n\ufeffbom\n"
	got := Invisible("content/zh/x.md", text)
	want := []struct {
		line, col int
		name      string
	}{
		{2, 6, "U+202E RIGHT-TO-LEFT OVERRIDE"},
		{2, 14, "U+202C POP DIRECTIONAL FORMATTING"},
		{3, 5, "U+200B ZERO WIDTH SPACE"},
		{3, 19, "U+E0041 TAG LATIN CAPITAL LETTER A"},
		{4, 1, "U+FEFF ZERO WIDTH NO-BREAK SPACE"},
	}
	if len(got) != len(want) {
		t.Fatalf("%d problems, want %d: %v", len(got), len(want), got)
	}
	for i, w := range want {
		g := got[i]
		if g.Rule != RuleInvisible || g.Severity != Error || g.File != "content/zh/x.md" || g.Line != w.line || g.Column != w.col ||
			!strings.HasPrefix(g.Message, w.name) || !strings.Contains(g.Message, "delete it") {
			t.Errorf("problem %d = %s (column %d), want line %d column %d naming %s", i, g, g.Column, w.line, w.col, w.name)
		}
	}
	if !strings.Contains(got[0].Message, "reorders") || !strings.Contains(got[2].Message, "invisible") {
		t.Errorf("the messages do not say what the characters do: %q, %q", got[0].Message, got[2].Message)
	}
	if got := Invisible("x.md", "figures 2054.21 and 中文、日本語 — “quoted”\n"); got != nil {
		t.Errorf("visible text gives %v", got)
	}
	refs := Invisible("content/en/x.md", "ok\nfigure &#x202E;2054.21&#x202C; and a&ZeroWidthSpace;b, &amp; &#65;\n")
	if len(refs) != 3 || refs[0].Line != 2 || refs[0].Column != 8 || !strings.HasPrefix(refs[0].Message, "&#x202E; writes U+202E RIGHT-TO-LEFT OVERRIDE") ||
		refs[2].Column != 37 || !strings.Contains(refs[2].Message, "U+200B ZERO WIDTH SPACE") {
		t.Errorf("character references: %v", refs)
	}
	flood := Invisible("x.md", strings.Repeat("\u200b", 100))
	if len(flood) != maxInvisible+1 || !strings.Contains(flood[maxInvisible].Message, "80 more") {
		t.Errorf("a flood gives %d problems, the last %q", len(flood), flood[len(flood)-1].Message)
	}
}
