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

// safeByRune is safe as it was written first, rune by rune: the reference
// for the three-byte shortcut.
func safeByRune(s string, block bool) bool {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r >= 0x20 && r < 0x7f, block && (r == '\t' || r == '\n'):
		case r < 0x80 || r == utf8.RuneError && size <= 1 || Unsafe(r):
			return false
		}
		i += size
	}
	return true
}

func FuzzSafeAgreesRuneByRune(f *testing.F) {
	for _, s := range []string{"", "plain", "模型 推理", "\u2028", "\u202e", "\ufdd0", "\uffff", "\xed\xa0\x80", "\xe0\x80\xaf", "\xe3\x81", "a\tb\nc", "\u061c", "\U0010fffe", "\u0085"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, block := range []bool{false, true} {
			if got, want := safe(s, block), safeByRune(s, block); got != want {
				t.Errorf("safe(%q, %v) = %v, rune by rune %v", s, block, got, want)
			}
		}
	})
}

// BenchmarkSafeCJK: Chinese and Japanese text, most of what a page checks.
func BenchmarkSafeCJK(b *testing.B) {
	s := "在该负载下，20 个请求中有 19 个满足全部限制。この負荷では 20 件中 19 件がすべての上限を守りました。"
	for b.Loop() {
		safe(s, false)
	}
}
