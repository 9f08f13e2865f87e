package report

import "strings"

// DecimalsIn counts the decimals of a number as written.
func DecimalsIn(raw string) int {
	_, frac, _ := strings.Cut(raw, ".")
	n := 0
	for n < len(frac) && frac[n] >= '0' && frac[n] <= '9' {
		n++
	}
	return n
}

// FormatSigned writes x with its sign, "+0.0046", never "-0.0000".
func FormatSigned(x float64, dec int) string {
	s := FormatNumber(x, dec)
	if strings.Trim(s, "-0.") == "" {
		return strings.TrimPrefix(s, "-")
	}
	if !strings.HasPrefix(s, "-") {
		s = "+" + s
	}
	return s
}

// FormatShare writes a share in percent with one decimal, "0.5 %",
// "-2.2 %", never "-0.0 %".
func FormatShare(p float64) string {
	return strings.TrimPrefix(FormatSigned(p, 1), "+") + " %"
}

// FormatShort writes x with at most two decimals and no trailing zeros:
// "8", "2.5", "0.33".
func FormatShort(x float64) string {
	s := FormatNumber(x, 2)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	if s == "-0" {
		return "0"
	}
	return s
}

// FormatBand writes a noise band, "1.0 %".
func FormatBand(b float64) string { return FormatNumber(b, 1) + " %" }
