package locale

import (
	"strings"
	"unicode/utf8"
)

// keepFiguresWhole keeps a figure whole where Chinese and Japanese text
// may break a line at any space: "-12.1 %" and "8 × NVIDIA A100" take a
// no-break space (U+00A0) before the percent sign and around the
// multiplication sign, and a change's mark keeps to its figure ("▼ +22.2 %",
// never "(▼" at the end of a line). The figure's characters are unchanged.
// A change figure takes it in every language: a narrow table cell would
// otherwise wrap before its %. Written by hand, faster than
// strings.Replacer's general search (FuzzKeepFiguresWhole holds the two
// equal).
func keepFiguresWhole(s string) string {
	if !strings.Contains(s, " %") && !strings.Contains(s, "×") && !strings.Contains(s, "▲ ") && !strings.Contains(s, "▼ ") && !strings.Contains(s, "≈ ") {
		return s
	}
	const nbsp, times = "\u00a0", "×"
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		// Only a space, "×" or a mark starts a figure's join: the text
		// between is copied at once.
		j := strings.IndexAny(s[i:], " ×▲▼≈")
		if j < 0 {
			b.WriteString(s[i:])
			break
		}
		b.WriteString(s[i : i+j])
		i += j
		rest := s[i:]
		switch {
		case strings.HasPrefix(rest, " %"):
			b.WriteString(nbsp + "%")
			i += 2
		case strings.HasPrefix(rest, " "+times+" "):
			b.WriteString(nbsp + times + nbsp)
			i += 2 + len(times)
		case strings.HasPrefix(rest, " "+times):
			b.WriteString(nbsp + times)
			i += 1 + len(times)
		case strings.HasPrefix(rest, times+" "):
			b.WriteString(times + nbsp)
			i += len(times) + 1
		case markedFigure(rest):
			b.WriteString(rest[:len("▲")] + nbsp)
			i += len("▲") + 1
		default:
			_, size := utf8.DecodeRuneInString(rest)
			b.WriteString(rest[:size])
			i += size
		}
	}
	return b.String()
}

// percentAfterDigits writes a percent sign right after its figure, as
// Chinese and Japanese do ("+18.7%"): a space or no-break space between a
// digit and "%" goes. A digit followed by "%" is never a line break
// opportunity (UAX #14: NU × PO), so the figure stays whole, and a copy
// gives the figure as written.
func percentAfterDigits(s string) string {
	if !strings.Contains(s, " %") && !strings.Contains(s, "\u00a0%") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == ' ' && strings.HasPrefix(s[i+1:], "%") && i > 0 && isDigit(s[i-1]):
			continue
		case strings.HasPrefix(s[i:], "\u00a0%") && i > 0 && isDigit(s[i-1]):
			i++ // U+00A0 is two bytes
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// markedFigure reports whether s starts with a change's mark, a space and
// its figure ("▲ +3.0", "≈ -0.2"), not a mark between names ("A ≈ B").
func markedFigure(s string) bool {
	if !strings.HasPrefix(s, "▲ ") && !strings.HasPrefix(s, "▼ ") && !strings.HasPrefix(s, "≈ ") {
		return false
	}
	rest := s[len("▲")+1:]
	return rest != "" && (isDigit(rest[0]) || rest[0] == '+' || rest[0] == '-' || strings.HasPrefix(rest, "−"))
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// Figure writes a figure the way the language does: in Chinese and
// Japanese, the percent sign right after it ("+18.7%"); in English with
// the project's no-break space ("+18.7 %"); in every language bound to
// its mark and to a multiplication sign.
func (l *Localizer) Figure(s string) string {
	s = keepFiguresWhole(s)
	if l.unspaced {
		s = percentAfterDigits(s)
	}
	return s
}
