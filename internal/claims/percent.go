package claims

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/perflab/perflab/internal/report"
)

var percentClaim = regexp.MustCompile(`^\(?\s*([-+−]?)\s*(\d+(?:\.(\d+))?)\s*%\s*(/\s*GPU)?\s*\)?$`)

// wordedPercent is a change in words: "26.8% higher token throughput per
// GPU", "12% lower latency".
var wordedPercent = regexp.MustCompile(`(?i)^(\d+(?:\.(\d+))?)\s*%\s*(higher|more|faster|lower|less|slower)\b(.*)$`)

// ParsePercent reads a printed percentage such as "+59.2%", "(-13.8%)" or
// "+21.1%/GPU": its value, its decimals and whether it is per GPU.
func ParsePercent(s string) (value float64, decimals int, perGPU bool, ok bool) {
	m := percentClaim.FindStringSubmatch(strings.TrimSpace(s))
	if w := wordedPercent.FindStringSubmatch(strings.TrimSpace(s)); m == nil && w != nil {
		v, _ := strconv.ParseFloat(w[1], 64)
		switch strings.ToLower(w[3]) {
		case "lower", "less", "slower":
			v = -v
		}
		return v, len(w[2]), strings.Contains(strings.ToLower(w[4]), "per gpu"), true
	}
	if m == nil {
		return 0, 0, false, false
	}
	v, err := strconv.ParseFloat(m[2], 64)
	if err != nil {
		return 0, 0, false, false
	}
	if m[1] == "-" || m[1] == "−" {
		v = -v
	}
	return v, len(m[3]), m[4] != "", true
}

// percentRange is the interval of percentages that true values inside the
// printed rounding of both inputs can give.
func percentRange(from, to report.Value, perGPU bool) (lo, hi float64) {
	t, f := report.PrintedInterval(to.Measured, to.Decimals), report.PrintedInterval(from.Measured, from.Decimals)
	ka, kb := float64(to.Replicas), float64(from.Replicas)
	if perGPU {
		ka, kb = 1/float64(to.GPUs), 1/float64(from.GPUs)
	}
	r1 := t.Lo * ka / (f.Hi * kb)
	r2 := t.Hi * ka / (f.Lo * kb)
	return (r1 - 1) * 100, (r2 - 1) * 100
}

// checkPercent compares a printed percentage with a change.
func checkPercent(printed string, c *report.Change) (computed string, match bool, detail string) {
	want, dec, perGPU, ok := ParsePercent(printed)
	if !ok {
		return "", false, fmt.Sprintf("%q is not a percentage perflab can read (expected a form such as +12.3%% or +12.3%%/GPU)", printed)
	}
	got := c.Percent
	if perGPU {
		got = c.PerGPUPercent
	}
	computed = fmt.Sprintf("%+.*f %%", dec, got)
	if strings.Trim(computed, "+-0. %") == "" {
		computed = "+" + computed[1:] // no "-0.0 %"
	}
	if perGPU {
		computed += "/GPU"
	}
	lo, hi := percentRange(c.From, c.To, perGPU)
	if !(report.Interval{Lo: lo, Hi: hi}).Overlaps(report.PrintedInterval(want, dec)) {
		return computed, false, fmt.Sprintf("published %s, but the logs give %s = %s", printed, c.Formula, computed)
	}
	return computed, true, ""
}

var speedupClaim = regexp.MustCompile(`^\(?\s*(\d+(?:\.\d+)?)\s*x\s+(faster|slower)\s*\)?$`)

// checkChange compares a printed change, a percentage or a speed-up
// factor, with a computed change.
func checkChange(printed string, c *report.Change, m report.Metric) (string, bool, string) {
	if _, _, _, ok := ParsePercent(printed); ok {
		if m.HigherBetter {
			return checkPercent(printed, c)
		}
		return checkLatencyPercent(printed, c, m)
	}
	sm := speedupClaim.FindStringSubmatch(strings.TrimSpace(printed))
	if sm == nil {
		return checkPercent(printed, c)
	}
	want, dec, _ := parseNumber(sm[1])
	from := report.PrintedInterval(c.From.Measured, c.From.Decimals).Scale(float64(c.From.Replicas))
	to := report.PrintedInterval(c.To.Measured, c.To.Decimals).Scale(float64(c.To.Replicas))
	ratio := from.Div(to) // lower is better: from/to is how many times faster
	if m.HigherBetter {
		ratio = to.Div(from)
	}
	if sm[2] == "slower" {
		ratio = ratio.Inverse()
	}
	got := c.From.Effective() / c.To.Effective()
	if m.HigherBetter {
		got = 1 / got
	}
	if sm[2] == "slower" {
		got = 1 / got
	}
	computed := fmt.Sprintf("%.*fx %s", dec, got, sm[2])
	if !ratio.Holds(want, dec) {
		return computed, false, fmt.Sprintf("published %s, but the logs give %s / %s = %s", printed, c.From.Expr(), c.To.Expr(), computed)
	}
	return computed, true, ""
}

// checkLatencyPercent checks a percentage of a lower-is-better metric in the
// convention the report used: the change new / old - 1 (negative when
// faster), a speed-up old / new - 1, or a reduction 1 - new / old (both
// positive when faster). The result names the convention.
func checkLatencyPercent(printed string, c *report.Change, m report.Metric) (string, bool, string) {
	computed, ok, detail := checkPercent(printed, c)
	if ok {
		return computed, true, ""
	}
	want, _, _, _ := ParsePercent(printed)
	if want <= 0 || !c.Better {
		return computed, false, detail
	}
	speedup := report.NewChange(m, c.To, c.From)
	if sc, ok, sd := checkPercent(printed, speedup); ok {
		return sc + " (speed-up, old / new - 1)", true, ""
	} else if reduced, ok := checkReduction(printed, c); ok {
		return reduced, true, ""
	} else {
		return sc + " (speed-up, old / new - 1)", false, sd + " (a latency speed-up, old / new - 1)"
	}
}

// checkReduction reads a positive percentage as how much lower the new
// value is: 1 - new / old.
func checkReduction(printed string, c *report.Change) (string, bool) {
	neg := "-" + strings.TrimLeft(strings.TrimSpace(printed), "+(")
	if strings.HasPrefix(strings.TrimSpace(printed), "(") {
		neg = "(" + neg
	}
	computed, ok, _ := checkPercent(neg, c)
	return strings.Replace(computed, "-", "+", 1) + " (reduction, 1 - new / old)", ok
}

func printedZero(printed string) bool {
	if v, _, _, ok := ParsePercent(printed); ok {
		return v == 0
	}
	if m := speedupClaim.FindStringSubmatch(strings.TrimSpace(printed)); m != nil {
		v, _, _ := parseNumber(m[1])
		return v == 1
	}
	return false
}

// NoGainMark reports whether a printed change is a dash: the source's way
// of saying a step brought no gain (nothing adopted, or nothing measured).
func NoGainMark(printed string) bool {
	switch strings.TrimSpace(printed) {
	case "-", "–", "—", "N/A", "n/a":
		return true
	}
	return false
}

// checkNoGain checks a dash printed for a step: it holds when the step's
// best alternative is no better than its reference, or within noise.
func checkNoGain(printed string, c *report.Change) (string, bool, string) {
	if c == nil || !c.Better || c.Noise {
		return printed, true, ""
	}
	computed := report.FormatPercent(c.Percent)
	return computed, false, fmt.Sprintf("published %s (no gain), but the logs give %s for the best alternative: %s", printed, computed, c.Formula)
}
