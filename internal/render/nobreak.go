package render

import "strings"

// figureSpaces keeps a figure whole where Chinese and Japanese text may
// break a line at any space: "-12.1 %" and "8 × NVIDIA A100" take a
// no-break space (U+00A0) before the percent sign and around the
// multiplication sign. The figure's characters are unchanged. A change
// figure ("▲ +27.5 % [+26.5, +28.4] ...") takes it in every language: a
// narrow table cell would otherwise wrap before its %.
var figureSpaces = strings.NewReplacer(" %", "\u00a0%", " × ", "\u00a0×\u00a0", " ×", "\u00a0×", "× ", "×\u00a0")

// keepFiguresWhole applies figureSpaces when s has a figure to keep whole.
func keepFiguresWhole(s string) string {
	if !strings.Contains(s, " %") && !strings.Contains(s, "×") {
		return s
	}
	return figureSpaces.Replace(s)
}
