package claims

import (
	"testing"

	"github.com/perflab/perflab/internal/study"
)

// TestTableCompares holds each way a document derives a figure from two
// it prints to its arithmetic, at the printed rounding and in each
// figure's own unit.
func TestTableCompares(t *testing.T) {
	cases := []struct {
		from, to, compare, better, printed string
		checked, match                     bool
	}{
		{"1.25", "1.57", "", "higher", "+25.6%", true, true},
		{"485.78", "695.13", "", "higher", "+43.1%", true, true},
		{"485.78", "695.13", "", "higher", "+43.3%", true, false},
		// A latency's drop printed as a gain, and as a signed change.
		{"271.2", "227.8", "", "lower", "+16.0%", true, true},
		{"271.2", "227.8", "", "lower", "-16.0%", true, true},
		{"790.18 ms", "470.60 ms", "", "lower", "-40.5%", true, false},
		{"790.18 ms", "470.60 ms", "", "lower", "-40.4%", true, true},
		{"790.18 ms", "470.60 ms", "", "lower", "40.4%", true, true},
		// Without the metric, a positive figure for a drop is wrong.
		{"790.18", "470.60", "", "", "+40.4%", true, false},
		{"1.25", "1.57", "difference", "", "+0.32", true, true},
		{"271.2", "227.8", "difference", "", "-43.4", true, true},
		{"271.2", "227.8", "difference", "", "-43.6", true, false},
		{"271196.67 ms", "227780.13 ms", "difference", "", "-43.4 s", true, true},
		{"715,072 tokens", "5,721,088 tokens", "ratio", "", "8 times", true, true},
		{"715,072", "5,721,088", "ratio", "", "7x", true, false},
		{"790.18", "470.60", "ratio", "", "1.68x", true, true},
		{"400 Gbps", "43.5 GB/s", "share", "", "87%", true, true},
		{"400 Gbps", "43.5 GB/s", "share", "", "78%", true, false},
		{"271196.67 ms", "271.2 s", "same", "", "271.2 s", true, true},
		{"271196.67 ms", "271.3 s", "same", "", "271.3 s", true, false},
		{"1204.55 tok/s", "1.2 k tok/s", "same", "", "1.2 k tok/s", true, true},
		{"1.25", "1.57", "", "higher", "1.26x faster", true, true},
		{"400 gb/s", "43.5 GB/s", "share", "", "87%", false, false}, // bits or bytes: not said
		{"1.25", "1.57", "", "", "a lot", false, false},
		{"8", "695.13 tok/s", "quotient", "", "86.89", true, true},
		{"8", "695.13 tok/s", "quotient", "", "86.8", true, false},
		{"8", "1.57 req/s", "quotient", "", "0.196", true, true},
	}
	for _, c := range cases {
		cl := study.Claim{Kind: study.ClaimTable, From: c.from, To: c.to, Compare: c.compare, Better: c.better, Printed: c.printed}
		var res Result
		checker{}.checkTable(cl, &res)
		if res.Checked != c.checked || res.Match != c.match {
			t.Errorf("%s -> %s (%s, %s) printed %q: checked %v match %v (%s; computed %s), want checked %v match %v",
				c.from, c.to, c.compare, c.better, c.printed, res.Checked, res.Match, res.Detail, res.Computed, c.checked, c.match)
		}
	}
}
