package render

import "strings"

// keepFiguresWhole keeps a figure whole where Chinese and Japanese text
// may break a line at any space: "-12.1 %" and "8 × NVIDIA A100" take a
// no-break space (U+00A0) before the percent sign and around the
// multiplication sign. The figure's characters are unchanged. A change
// figure ("▲ +27.5 % [+26.5, +28.4] ...") takes it in every language: a
// narrow table cell would otherwise wrap before its %. Written by hand,
// faster than strings.Replacer's general search (FuzzKeepFiguresWhole
// holds the two equal).
func keepFiguresWhole(s string) string {
	if !strings.Contains(s, " %") && !strings.Contains(s, "×") {
		return s
	}
	const nbsp, times = "\u00a0", "×"
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
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
		default:
			b.WriteByte(s[i])
			i++
		}
	}
	return b.String()
}
