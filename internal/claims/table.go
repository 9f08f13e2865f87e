package claims

import (
	"fmt"
	"math"
	"regexp"
	"strings"

	"github.com/perflab/perflab/internal/report"
	"github.com/perflab/perflab/internal/study"
)

// checkTable: a figure a document derives from two figures it prints
// ("+25.6%" from 1.25 and 1.57 req/s, "-43.4" s, "8 times" the KV cache,
// "87 %" of a link's bandwidth, "271.2 s" for 271196.67 ms) must follow
// from them, whatever true values their rounding allows. Each figure is
// read in its own unit; a unit perflab does not know leaves the claim
// unchecked, never guessed.
func (r checker) checkTable(c study.Claim, res *Result) {
	from, okFrom := parseFigure(c.From)
	to, okTo := parseFigure(c.To)
	switch {
	case !okFrom || !okTo:
		res.Detail = fmt.Sprintf("the figures %q and %q are not two numbers with units perflab knows", c.From, c.To)
		return
	case from.dim != "" && to.dim != "" && from.dim != to.dim:
		res.Detail = fmt.Sprintf("the figures %q and %q measure different things", c.From, c.To)
		return
	case from.value <= 0 && c.Compare != study.CompareDifference && c.Compare != study.CompareSame:
		res.Detail = fmt.Sprintf("%q is no figure to divide by", c.From)
		return
	}
	fromI, toI := from.interval(), to.interval()
	if c.Compare == study.CompareQuotient && from.dim == "" && from.decimals == 0 {
		fromI = report.Interval{Lo: from.value, Hi: from.value} // a count of GPUs is exact
	}
	var computed string
	var ok, read bool
	switch c.Compare {
	case study.CompareDifference:
		computed, ok, read = checkDifference(c.Printed, toI.Sub(fromI), to.scale)
	case study.CompareRatio:
		computed, ok, read = checkFactor(c.Printed, toI.Div(fromI))
	case study.CompareQuotient:
		computed, ok, read = checkQuotient(c.Printed, toI.Div(fromI), to.scale)
	case study.CompareShare:
		computed, ok, read = checkShare(c.Printed, toI.Div(fromI))
	case study.CompareSame:
		k := to.scale
		if to.dim == "" {
			k = from.scale
		}
		computed = report.FormatNumber(from.value*from.scale/k, to.decimals)
		ok, read = fromI.Scale(1/k).Holds(to.value, to.decimals), true
	default:
		computed, ok, read = checkTableChange(c.Printed, toI.Div(fromI), c.Better == "lower")
	}
	if !read {
		res.Detail = fmt.Sprintf("%q is not a figure perflab can read as a %s", c.Printed, compareName(c.Compare))
		return
	}
	res.Checked, res.Computed, res.Match = true, computed, ok
	if !ok {
		res.Detail = fmt.Sprintf("published %s, but the document's own figures %s and %s give %s (%s)", c.Printed, c.From, c.To, computed, compareName(c.Compare))
	}
}

func compareName(compare string) string {
	switch compare {
	case study.CompareDifference:
		return "difference, new - old"
	case study.CompareRatio:
		return "ratio, new / old"
	case study.CompareQuotient:
		return "quotient, new / old"
	case study.CompareShare:
		return "share, new / old x 100"
	case study.CompareSame:
		return "the same figure"
	}
	return "change, new / old - 1"
}

// checkTableChange checks a percentage of change, or a speed-up written as
// "1.3x faster", against the ratio new / old. A lower-is-better metric
// may print its drop as a gain: 1 - new / old ("+16.0%" for a mean TTFT
// from 271.2 to 227.8 s) or old / new - 1, a speed-up.
func checkTableChange(printed string, ratio report.Interval, lowerBetter bool) (string, bool, bool) {
	if sm := speedupClaim.FindStringSubmatch(strings.TrimSpace(printed)); sm != nil {
		want, dec, _ := parseNumber(sm[1])
		r := ratio
		if lowerBetter != (sm[2] == "slower") {
			r = ratio.Inverse()
		}
		return fmt.Sprintf("%.*fx %s", dec, r.Mid(), sm[2]), r.Holds(want, dec), true
	}
	want, dec, _, ok := ParsePercent(printed)
	if !ok {
		return "", false, false
	}
	change := ratio.Scale(100)
	change = report.Interval{Lo: change.Lo - 100, Hi: change.Hi - 100}
	computed := fmt.Sprintf("%+.*f %%", dec, change.Mid())
	if change.Holds(want, dec) {
		return computed, true, true
	}
	if !lowerBetter || want <= 0 || ratio.Hi >= 1 {
		return computed, false, true
	}
	reduction := report.Interval{Lo: 100 - ratio.Hi*100, Hi: 100 - ratio.Lo*100}
	speedup := ratio.Inverse().Scale(100)
	speedup = report.Interval{Lo: speedup.Lo - 100, Hi: speedup.Hi - 100}
	switch {
	case reduction.Holds(want, dec):
		return fmt.Sprintf("%+.*f %% (reduction, 1 - new / old)", dec, reduction.Mid()), true, true
	case speedup.Holds(want, dec):
		return fmt.Sprintf("%+.*f %% (speed-up, old / new - 1)", dec, speedup.Mid()), true, true
	}
	return fmt.Sprintf("%s, a reduction of %.*f %%", computed, dec, reduction.Mid()), false, true
}

// signedNumber is a difference as printed: "+0.32", "-43.4", "−0.3 s".
var signedNumber = regexp.MustCompile(`^([+\-−]?)\s*(\d[\d,]*(?:\.\d+)?)\s*([A-Za-z/ ]*)$`)

// checkDifference checks new - old, printed in the unit of the new figure
// (scale) unless it prints a unit of its own.
func checkDifference(printed string, diff report.Interval, scale float64) (string, bool, bool) {
	m := signedNumber.FindStringSubmatch(strings.TrimSpace(printed))
	if m == nil {
		return "", false, false
	}
	want, dec, _ := parseNumber(m[2])
	if m[1] == "-" || m[1] == "−" {
		want = -want
	}
	if u := strings.TrimSpace(m[3]); u != "" {
		f, ok := unitOf(u)
		if !ok {
			return "", false, false
		}
		scale = f.scale
	}
	d := diff.Scale(1 / scale)
	return fmt.Sprintf("%+.*f", dec, d.Mid()), d.Holds(want, dec), true
}

// factorWord is a factor as printed: "8x", "8 times", "×8", "1.26×", "8-fold".
var factorWord = regexp.MustCompile(`(?i)^(?:[x×]\s*)?(\d+(?:\.\d+)?)\s*(?:x|×|times|-?fold|倍)?$`)

// checkFactor checks a factor against the ratio of the two figures,
// taken the way round that is at least one ("8 times the KV cache", "2x
// lower latency").
func checkFactor(printed string, ratio report.Interval) (string, bool, bool) {
	m := factorWord.FindStringSubmatch(strings.TrimSpace(printed))
	if m == nil {
		return "", false, false
	}
	want, dec, _ := parseNumber(m[1])
	if ratio.Hi < 1 {
		ratio = ratio.Inverse()
	}
	return fmt.Sprintf("%.*fx", dec, ratio.Mid()), ratio.Holds(want, dec), true
}

// checkQuotient checks a figure worked out as new / old, such as a
// throughput per GPU, in the unit of new unless it prints its own.
func checkQuotient(printed string, q report.Interval, scale float64) (string, bool, bool) {
	f, ok := parseFigure(strings.TrimSuffix(strings.TrimSpace(printed), "/GPU"))
	if !ok {
		return "", false, false
	}
	if f.dim != "" {
		scale = f.scale
	}
	q = q.Scale(1 / scale)
	return report.FormatNumber(q.Mid(), f.decimals), q.Holds(f.value, f.decimals), true
}

// checkShare checks a percentage of a whole: new / old x 100.
func checkShare(printed string, ratio report.Interval) (string, bool, bool) {
	want, dec, _, ok := ParsePercent(printed)
	if !ok || want < 0 {
		return "", false, false
	}
	share := ratio.Scale(100)
	return fmt.Sprintf("%.*f %%", dec, share.Mid()), share.Holds(want, dec), true
}

// figure is a number as printed, with its unit.
type figure struct {
	value    float64
	decimals int
	unitInfo
}

// unitInfo is what a unit measures and its size in that measure's base
// unit (ms, tok/s, req/s, bytes/s, tokens).
type unitInfo struct {
	dim   string // "" when no unit is printed
	scale float64
}

func (f figure) interval() report.Interval {
	return report.PrintedInterval(f.value, f.decimals).Scale(f.scale)
}

// units are the units a derived figure's inputs are printed in. Bits and
// bytes differ only by case, so bandwidths are matched as printed.
var units = map[string]unitInfo{
	"ms": {"time", 1}, "s": {"time", 1000}, "sec": {"time", 1000}, "secs": {"time", 1000}, "seconds": {"time", 1000},
	"min":   {"time", 60000},
	"tok/s": {"tok/s", 1}, "tokens/s": {"tok/s", 1}, "token/s": {"tok/s", 1}, "k tok/s": {"tok/s", 1000}, "ktok/s": {"tok/s", 1000},
	"k tokens/s": {"tok/s", 1000}, "m tok/s": {"tok/s", 1e6},
	"req/s": {"req/s", 1}, "requests/s": {"req/s", 1}, "rps": {"req/s", 1},
	"tokens": {"tokens", 1}, "k tokens": {"tokens", 1000}, "m tokens": {"tokens", 1e6},
	"GB/s": {"bytes/s", 1e9}, "GiB/s": {"bytes/s", 1 << 30}, "MB/s": {"bytes/s", 1e6}, "TB/s": {"bytes/s", 1e12},
	"Gb/s": {"bytes/s", 1.25e8}, "Gbps": {"bytes/s", 1.25e8}, "Tb/s": {"bytes/s", 1.25e11}, "Tbps": {"bytes/s", 1.25e11},
	"GB": {"bytes", 1e9}, "GiB": {"bytes", 1 << 30},
}

func unitOf(u string) (unitInfo, bool) {
	u = strings.Join(strings.Fields(u), " ")
	if f, ok := units[u]; ok {
		return f, true
	}
	f, ok := units[strings.ToLower(u)]
	if ok && f.dim == "bytes/s" {
		return unitInfo{}, false // "gb/s": bits or bytes, it does not say
	}
	return f, ok
}

// figureWord is a number with what may be its unit.
var figureWord = regexp.MustCompile(`^(\d[\d,]*(?:\.\d+)?)\s*([A-Za-z][A-Za-z/ ]*)?$`)

// parseFigure reads "271196.67 ms", "1.2 k tok/s", "12,345" or "87.1 GB/s".
func parseFigure(s string) (figure, bool) {
	m := figureWord.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return figure{}, false
	}
	v, dec, ok := parseNumber(m[1])
	if !ok || math.IsInf(v, 0) {
		return figure{}, false
	}
	f := figure{value: v, decimals: dec, unitInfo: unitInfo{scale: 1}}
	if m[2] != "" {
		u, ok := unitOf(m[2])
		if !ok {
			return figure{}, false
		}
		f.unitInfo = u
	}
	return f, true
}

// KnownUnit reports whether perflab converts a unit a figure is printed in.
func KnownUnit(u string) bool {
	_, ok := unitOf(u)
	return ok
}

// TableHolds checks a table claim on its own figures, for a reader that
// binds a sentence to the figures it may derive from: whether it could
// read them, and whether the printed figure follows.
func TableHolds(c study.Claim) (checked, match bool) {
	var res Result
	checker{}.checkTable(c, &res)
	return res.Checked, res.Match
}
