package plain

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestLineAndBlock(t *testing.T) {
	cases := []struct{ in, line, block string }{
		{"vLLM FP8", "vLLM FP8", "vLLM FP8"},
		{"名前 · 日本語", "名前 · 日本語", "名前 · 日本語"},
		{"a\nb", "a b", "a\nb"},
		{"a\r\nb", "a  b", "a\nb"},
		{"a\rb", "a b", "a\nb"},
		{"a\tb", "a b", "a\tb"},
		{"nul\x00", "nul␀", "nul␀"},
		{"\x1b[31mred", "␛[31mred", "␛[31mred"},
		{"del\x7f", "del␡", "del␡"},
		{"c1\u0085", "c1\ufffd", "c1\ufffd"},
		{"abc\u202edcba", "abc\ufffddcba", "abc\ufffddcba"},
		{"\u2066x\u2069", "\ufffdx\ufffd", "\ufffdx\ufffd"},
		{"line\u2028sep", "line\ufffdsep", "line\ufffdsep"},
		{"bad\xffutf8", "bad\ufffdutf8", "bad\ufffdutf8"},
		{"non\ufdd0char\uffff", "non\ufffdchar\ufffd", "non\ufffdchar\ufffd"},
	}
	for _, c := range cases {
		if got := Line(c.in); got != c.line {
			t.Errorf("Line(%q) = %q, want %q", c.in, got, c.line)
		}
		if got := Block(c.in); got != c.block {
			t.Errorf("Block(%q) = %q, want %q", c.in, got, c.block)
		}
	}
}

// FuzzLine: whatever goes in, what comes out is valid UTF-8 with no unsafe
// rune, and safe input comes out unchanged.
func FuzzLine(f *testing.F) {
	for _, s := range []string{"", "a", "a\r\nb", "\x00\x1b\u202e", "\xff", "日本"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, out := range []string{Line(s), Block(s)} {
			if !utf8.ValidString(out) {
				t.Fatalf("%q: invalid UTF-8 %q", s, out)
			}
			for _, r := range out {
				if Unsafe(r) && r != '\n' && r != '\t' {
					t.Fatalf("%q: unsafe rune %U in %q", s, r, out)
				}
			}
		}
		if strings.ContainsAny(Line(s), "\n\r\t") {
			t.Fatalf("Line(%q) keeps a line break or tab", s)
		}
		if Safe(s) && (Line(s) != s || Block(s) != s) {
			t.Fatalf("safe %q changed", s)
		}
	})
}
