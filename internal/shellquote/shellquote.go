// Package shellquote writes words so that a POSIX shell reads them back
// unchanged: names and commands in results/ are hostile, and a recipe
// someone pastes into a terminal must run only what it says.
package shellquote

import (
	"regexp"
	"strings"
)

var plain = regexp.MustCompile(`^[A-Za-z0-9_@%+=:,./-]+$`)

// Quote returns s as one shell word: unchanged when it holds only
// characters no shell treats specially, else in single quotes.
func Quote(s string) string {
	if plain.MatchString(s) {
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
	if !strings.ContainsAny(text, lineBreaks) {
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

// lineBreaks are the characters Comment replaces.
const lineBreaks = "\n\r\v\f\u0085\u2028\u2029"
