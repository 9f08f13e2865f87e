package report

import "testing"

// TestFormats: the figures of a page as they are written.
func TestFormats(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{FormatP(0.0004), "p < 0.001"},
		{FormatP(0.025), "p = 0.025"},
		{FormatP(0.44), "p = 0.44"},
		{FormatSigned(0.00456, 4), "+0.0046"},
		{FormatSigned(-0.00001, 4), "0.0000"}, // never "-0.0000"
		{FormatSigned(-43.4, 1), "-43.4"},
		{FormatShare(0.5), "0.5 %"},
		{FormatShare(-2.24), "-2.2 %"},
		{FormatShare(-0.01), "0.0 %"},
		{FormatShort(8), "8"},
		{FormatShort(2.5), "2.5"},
		{FormatShort(1.0 / 3), "0.33"},
		{FormatShort(-0.001), "0"},
		{FormatBand(2.04), "2.0 %"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
	for raw, want := range map[string]int{"0.7412": 4, "12": 0, "3.10 ±": 2, "": 0} {
		if got := DecimalsIn(raw); got != want {
			t.Errorf("DecimalsIn(%q) = %d, want %d", raw, got, want)
		}
	}
}
