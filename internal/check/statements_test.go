package check

import (
	"fmt"
	"strings"
	"testing"
)

// TestStatedChanges reads the changes sentences state, with their
// direction words and the metric they name.
func TestStatedChanges(t *testing.T) {
	cases := map[string]string{
		"Enabling it delivers 43% faster token generation, 26% higher throughput.":                     "43%:43:0:+0:+1:output_throughput 26%:26:0:+1:+0:total_token_throughput",
		"The change reduced TTFT by 40.5 %.":                                                           "40.5 %:40.5:0:-1:+0:mean_ttft_ms",
		"The kv cache token number has increased by 8 times.":                                          "8 times:8:1:+1:+0:",
		"Throughput went from 1.2 to 1.5 (+25.0%).":                                                    "+25.0%:25:0:+0:+0:total_token_throughput",
		"Enabling it gives (43% faster token generation, 26% higher throughput) with no latency cost.": "43%:43:0:+0:+1:output_throughput 26%:26:0:+1:+0:total_token_throughput",
	}
	for in, want := range cases {
		var got []string
		for _, s := range StatedChanges(in) {
			f := 0
			if s.Factor {
				f = 1
			}
			got = append(got, fmt.Sprintf("%s:%g:%d:%+d:%+d:%s", s.Raw, s.Value, f, s.Up, s.Better, s.Metric))
		}
		if g := strings.Join(got, " "); g != want {
			t.Errorf("%q: got %q, want %q", in, g, want)
		}
	}
}
