// Package plain makes a field that is not prose (a run name, an id, a
// command, an error, a version) safe to show as text on any output: no
// character of it may break a line, hide text, reorder what a reader sees
// or make a document invalid. Each output then escapes its own markup
// (Markdown, HTML, SVG, GitHub annotations); this package only handles the
// characters that no escaping of markup can make harmless.
//
// Control characters are shown, not dropped, so that a reviewer sees them:
// C0 controls and DEL become their Unicode control pictures (NUL -> ␀,
// ESC -> ␛); C1 controls, bidirectional controls, invisible characters
// (see Hidden), line and paragraph separators, noncharacters and bytes
// that are not UTF-8 become U+FFFD.
package plain

import (
	"html"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Line returns s for one line of text: tabs and line breaks (LF, CR)
// become spaces, every other unsafe character is made visible.
func Line(s string) string {
	if Safe(s) {
		return s
	}
	return rewrite(s, false)
}

// Block returns s for a block of lines, such as a command or a log shown
// in a code block: LF stays and so does a tab, CRLF and a lone CR become
// LF (Markdown reads a lone CR as a line end too, and a terminal would
// write over the text before it), and every other unsafe character is
// made visible.
func Block(s string) string {
	if safe(s, true) {
		return s
	}
	return rewrite(s, true)
}

// Safe reports whether s holds only printable characters that every output
// may show as they are: Line and Block return such a string unchanged.
func Safe(s string) bool { return safe(s, false) }

// safe is Safe, with tab and LF also allowed when block is true.
func safe(s string, block bool) bool {
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c >= 0x20 && c < 0x7f:
			i++
			continue
		case block && (c == '\t' || c == '\n'):
			i++
			continue
		case c < 0x80:
			return false
		case c >= 0xe0 && c < 0xf0 && i+2 < len(s):
			// Three bytes, as Chinese and Japanese text is: decoded here,
			// since utf8's general path costs more than the test.
			c1, c2 := s[i+1], s[i+2]
			r := rune(c&0x0f)<<12 | rune(c1&0x3f)<<6 | rune(c2&0x3f)
			if c1&0xc0 != 0x80 || c2&0xc0 != 0x80 || r < 0x800 || (r >= 0xd800 && r <= 0xdfff) || Unsafe(r) {
				return false
			}
			i += 3
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size <= 1 || Unsafe(r) {
			return false
		}
		i += size
	}
	return true
}

// Unsafe reports whether r is a rune no output may show as it is: a
// control character (tab and line breaks included), a bidirectional
// control, a line or paragraph separator, or a noncharacter.
func Unsafe(r rune) bool {
	switch {
	case r < 0x20 || r >= 0x7f && r <= 0x9f:
		return true
	case Hidden(r):
		return true // bidirectional controls (Trojan Source), invisible characters
	case r == 0x2028 || r == 0x2029:
		return true // line and paragraph separators
	case r >= 0xfdd0 && r <= 0xfdef, r&0xfffe == 0xfffe:
		return true // noncharacters, U+FFFE and U+FFFF of every plane
	}
	return false
}

// Hidden reports whether r changes what a reader sees without being seen
// itself: a bidirectional control (U+202A-202E, U+2066-2069, U+200E,
// U+200F, U+061C), which reorders the text around it ("2054.21" shown as
// "12.4502"), or an invisible character: every format character of
// Unicode (category Cf: zero-width space, joiners, word joiner, U+FEFF,
// U+180E, soft hyphen, the tag characters U+E0000-E007F) and the fillers
// that show as nothing (U+034F, U+115F, U+1160, U+17B4, U+17B5, U+3164,
// U+FFA0).
func Hidden(r rune) bool {
	switch {
	case r < 0xad:
		return false
	case r > 0x206f && r < 0xfeff: // Chinese and Japanese: no table lookup
		return r == 0x3164
	}
	switch r {
	case 0x034f, 0x115f, 0x1160, 0x17b4, 0x17b5, 0xffa0:
		return true
	}
	return unicode.Is(unicode.Cf, r)
}

// ShowHidden returns s with each Hidden rune replaced by U+FFFD, and
// nothing else changed: for text whose other characters are checked
// elsewhere, such as a locale file before it is parsed.
func ShowHidden(s string) string {
	if strings.IndexFunc(s, Hidden) < 0 {
		return s
	}
	return strings.Map(func(r rune) rune {
		if Hidden(r) {
			return utf8.RuneError
		}
		return r
	}, s)
}

// charRef matches an HTML character reference, which Markdown and HTML
// turn into the character it names: "&#x202E;", "&#8238;", "&lrm;".
var charRef = regexp.MustCompile(`&(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});`)

// HiddenRefs returns the byte offsets [start, end) of each character
// reference of s that names a Hidden rune, and that rune: prose written
// "&#x202E;2054.21" shows "12.4502" as surely as the character itself.
func HiddenRefs(s string) (spans [][2]int, runes []rune) {
	if !strings.Contains(s, "&") || !strings.Contains(s, ";") {
		return nil, nil
	}
	for _, m := range charRef.FindAllStringIndex(s, -1) {
		r, size := utf8.DecodeRuneInString(html.UnescapeString(s[m[0]:m[1]]))
		if size > 0 && Hidden(r) {
			spans, runes = append(spans, [2]int{m[0], m[1]}), append(runes, r)
		}
	}
	return spans, runes
}

// ShowHiddenText is ShowHidden for text that Markdown or HTML will read:
// a character reference to a Hidden rune becomes U+FFFD too.
func ShowHiddenText(s string) string {
	spans, _ := HiddenRefs(s)
	if len(spans) > 0 {
		var b strings.Builder
		last := 0
		for _, sp := range spans {
			b.WriteString(s[last:sp[0]])
			b.WriteRune(utf8.RuneError)
			last = sp[1]
		}
		b.WriteString(s[last:])
		s = b.String()
	}
	return ShowHidden(s)
}

func rewrite(s string, block bool) string {
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			b.WriteRune(utf8.RuneError)
		case block && (r == '\n' || r == '\t'):
			b.WriteRune(r)
		case block && r == '\r' && i+1 < len(s) && s[i+1] == '\n':
			// CRLF: the LF that follows ends the line
		case block && r == '\r':
			b.WriteByte('\n')
		case !block && (r == '\t' || r == '\n' || r == '\r'):
			b.WriteByte(' ')
		case r < 0x20:
			b.WriteRune(0x2400 + r) // control pictures: ␀ ␁ … ␟
		case r == 0x7f:
			b.WriteRune(0x2421) // ␡
		case Unsafe(r):
			b.WriteRune(utf8.RuneError)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}
