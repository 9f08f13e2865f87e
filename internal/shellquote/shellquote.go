// Package shellquote writes words so that a POSIX shell reads them back
// unchanged: names and commands in results/ are hostile, and a recipe
// someone pastes into a terminal must run only what it says.
package shellquote

import "strings"

// plain marks the bytes no shell treats specially: A-Z a-z 0-9 _@%+=:,./-
var plain = func() (p [256]bool) {
	for _, c := range []byte("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_@%+=:,./-") {
		p[c] = true
	}
	return p
}()

// Quote returns s as one shell word: unchanged when it holds only
// characters no shell treats specially, else in single quotes.
func Quote(s string) string {
	if isPlain(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Join quotes each word and joins them with spaces.
func Join(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = Quote(w)
	}
	return strings.Join(q, " ")
}

// Comment makes text safe on a line that starts with "# ": every line
// break (of any kind) becomes a space, so nothing escapes the comment.
func Comment(text string) string {
	if !hasLineBreak(text) {
		return text
	}
	return strings.Map(func(r rune) rune {
		switch r {
		case '\n', '\r', '\v', '\f', '\u0085', '\u2028', '\u2029':
			return ' '
		}
		return r
	}, text)
}

func isPlain(s string) bool {
	for i := 0; i < len(s); i++ {
		if !plain[s[i]] {
			return false
		}
	}
	return s != ""
}

// hasLineBreak says whether text holds a character Comment replaces, by
// its UTF-8 bytes: neither 0xC2 nor 0xE2 can continue another character,
// so each starts the character it spells wherever it is.
func hasLineBreak(text string) bool {
	for i := 0; i < len(text); i++ {
		switch c := text[i]; {
		case c >= '\n' && c <= '\r': // \n \v \f \r
			return true
		case c == 0xC2 && strings.HasPrefix(text[i+1:], "\x85"): // U+0085
			return true
		case c == 0xE2 && (strings.HasPrefix(text[i+1:], "\x80\xa8") || strings.HasPrefix(text[i+1:], "\x80\xa9")): // U+2028, U+2029
			return true
		}
	}
	return false
}
