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
		{"2054\u200b.21", "2054\ufffd.21", "2054\ufffd.21"},
		{"a\u200cb\u200dc\u2060d\ufeffe", "a\ufffdb\ufffdc\ufffdd\ufffde", "a\ufffdb\ufffdc\ufffdd\ufffde"},
		{"mn\u180e\u00ad\u034f\u3164\uffa0", "mn\ufffd\ufffd\ufffd\ufffd\ufffd", "mn\ufffd\ufffd\ufffd\ufffd\ufffd"},
		{"tag\U000e0041\U000e007f", "tag\ufffd\ufffd", "tag\ufffd\ufffd"},
		{"\u061c\u200e\u200f", "\ufffd\ufffd\ufffd", "\ufffd\ufffd\ufffd"},
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

// TestHidden: the bidirectional controls and invisible characters are
// hidden; the visible characters around them, CJK included, are not.
func TestHidden(t *testing.T) {
	for _, r := range []rune{0x202a, 0x202e, 0x2066, 0x2069, 0x200e, 0x200f, 0x061c, 0x200b, 0x200c, 0x200d, 0x2060, 0x2064,
		0xfeff, 0x180e, 0xad, 0xe0001, 0xe0020, 0xe007f, 0x3164, 0x115f, 0xfff9} {
		if !Hidden(r) {
			t.Errorf("U+%04X is not hidden", r)
		}
	}
	for _, r := range []rune{'a', ' ', 0xa0, 0x3000, '中', 'ト', 0x2014, 0x2212, 0xff05, 0x1f600, 0xfe0f} {
		if Hidden(r) {
			t.Errorf("U+%04X is hidden", r)
		}
	}
	if got := ShowHidden("a\u202eb\tc\u200b"); got != "a\ufffdb\tc\ufffd" {
		t.Errorf("ShowHidden = %q", got)
	}
}

// TestHiddenReferences: a character reference to a hidden character is
// found and shown like the character; other references are left alone.
func TestHiddenReferences(t *testing.T) {
	in := "a &#x202E;2054.21&#8236; b &lrm; c &amp; d &#x41; e &ZeroWidthSpace;f &shy;"
	spans, runes := HiddenRefs(in)
	want := []rune{0x202e, 0x202c, 0x200e, 0x200b, 0xad}
	if len(runes) != len(want) {
		t.Fatalf("found %U, want %U", runes, want)
	}
	for i, r := range want {
		if runes[i] != r || in[spans[i][0]] != '&' || in[spans[i][1]-1] != ';' {
			t.Errorf("reference %d: %U at %v", i, runes[i], spans[i])
		}
	}
	if got := ShowHiddenText(in + "\u200b"); got != "a \ufffd2054.21\ufffd b \ufffd c &amp; d &#x41; e \ufffdf \ufffd\ufffd" {
		t.Errorf("ShowHiddenText = %q", got)
	}
}
