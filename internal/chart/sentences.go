package chart

import "strings"

// Placeholders that no message or sentence holds, to see where the
// "sentences" message puts its two fields.
const (
	firstMark = "\x00first\x00"
	nextMark  = "\x00next\x00"
)

// sentences joins sentences as the language does: with a space in
// English, with none in Chinese and Japanese. The result is the
// "sentences" message applied from the left, T(T(T(a, b), c), d), built in
// one pass: applied that way literally, each step would copy (and tidy)
// everything joined so far, quadratic in a chart with many bars.
func (ct chartText) sentences(list []string) string {
	if len(list) == 0 {
		return ""
	}
	if len(list) == 1 {
		return list[0]
	}
	pattern := ct.T("sentences", "First", firstMark, "Next", nextMark)
	before, rest, ok1 := strings.Cut(pattern, firstMark)
	between, after, ok2 := strings.Cut(rest, nextMark)
	if !ok1 || !ok2 || strings.Contains(before+between+after, "\x00") {
		return ct.sentencesSlow(list) // a message with its fields twice or reversed
	}
	// All but the last step, as the message would write it; the last
	// step is the message itself, so that the language tidies the whole.
	var b strings.Builder
	b.WriteString(strings.Repeat(before, len(list)-2))
	b.WriteString(list[0])
	for _, s := range list[1 : len(list)-1] {
		b.WriteString(between)
		b.WriteString(s)
		b.WriteString(after)
	}
	return ct.T("sentences", "First", b.String(), "Next", list[len(list)-1])
}

// sentencesSlow applies the message step by step.
func (ct chartText) sentencesSlow(list []string) string {
	out := list[0]
	for _, s := range list[1:] {
		out = ct.T("sentences", "First", out, "Next", s)
	}
	return out
}
