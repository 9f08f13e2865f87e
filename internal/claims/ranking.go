package claims

import (
	"fmt"
	"math"
	"regexp"
	"strings"

	"github.com/perflab/perflab/internal/report"
)

// A figure may group its thousands with commas ("2,054.21 tok/s").
var rankEntry = regexp.MustCompile(`\(\s*(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)\s*(?:x\s*(\d+))?\s*[^)]*\)`)

// fromTo is a ranking in words: "from 4768.75 tok/s to 4986.20 tok/s".
var fromTo = regexp.MustCompile(`(?i)\bfrom\s+(\d[\d,]*(?:\.\d+)?)\s*(\S*)\s+to\s+(\d[\d,]*(?:\.\d+)?)\s*(\S*)`)

// lowered says a from/to figure went down.
var lowered = regexp.MustCompile(`(?i)\b(reduced|reduces|decreased|decreases|dropped|drops|fell|lowered|lowers)\b`)

// rankOperator is the comparison printed between two entries of a ranking.
var rankOperator = regexp.MustCompile(`[<>=≈~]|&[lg]t;`)

// RankingTolerance is how far apart (a fraction) two figures a ranking
// calls about equal ("≈", "~") may be.
const RankingTolerance = 0.02

// checkRanking verifies that every figure of a printed ranking is a
// headline of the step (as printed, or a rounding of it) and that each
// operator holds between its neighbours: "A (x) > B (y)" needs x > y,
// "=" the same printed figure, "≈" figures within RankingTolerance.
func (r checker) checkRanking(printed string, sr *report.StepResult) (bool, string) {
	if m := fromTo.FindStringSubmatch(printed); m != nil {
		// "improved from 4768.75 tok/s to 4986.20 tok/s": the same check as
		// "(4768.75) < (4986.20)" when it says improved, ">" when reduced.
		op := "<"
		if lowered.MatchString(printed) {
			op = ">"
		}
		printed = fmt.Sprintf("(%s %s) %s (%s %s)", m[1], m[2], op, m[3], m[4])
	}
	entries := rankEntry.FindAllStringSubmatchIndex(printed, -1)
	if len(entries) == 0 {
		return false, fmt.Sprintf("%q has no figure in parentheses to check", printed)
	}
	var prev *report.RunResult
	prevEnd := 0
	for _, loc := range entries {
		entry, num := printed[loc[0]:loc[1]], strings.ReplaceAll(printed[loc[2]:loc[3]], ",", "")
		var cur *report.RunResult
		for i := range sr.Ranking {
			if r.sameFigure(entry, num, sr.Ranking[i].Headline) {
				cur = &sr.Ranking[i]
				break
			}
		}
		if cur == nil {
			return false, fmt.Sprintf("the figure %s appears in no log of step %s", num, sr.Step.ID)
		}
		if prev != nil {
			op := rankOperator.FindString(printed[prevEnd:loc[0]])
			if !operatorHolds(op, prev.Headline, cur.Headline) {
				return false, fmt.Sprintf("%s %s %s does not hold: the logs give %s", report.FormatNumber(prev.Headline.Measured, prev.Headline.Decimals), op,
					report.FormatNumber(cur.Headline.Measured, cur.Headline.Decimals), r.RankingLine(sr))
			}
		}
		if ok, detail := rankedName(printed[prevEnd:loc[0]], num, cur, sr); !ok {
			return false, detail
		}
		prev, prevEnd = cur, loc[1]
	}
	return true, ""
}

func operatorHolds(op string, a, b *report.Value) bool {
	x, y := a.Measured, b.Measured
	switch op {
	case ">", "&gt;":
		return x > y
	case "<", "&lt;":
		return x < y
	case "=":
		return report.FormatNumber(x, a.Decimals) == report.FormatNumber(y, b.Decimals)
	case "≈", "~":
		return math.Abs(x-y) <= RankingTolerance*math.Max(math.Abs(x), math.Abs(y))
	}
	return true // no operator printed: nothing to hold
}

var rankUnit = regexp.MustCompile(`\d\s*(?:x\s*\d+\s*)?(ms|s|tok/s)\b`)

// sameFigure reports whether a ranking entry such as "(2054.21 tok/s)" is
// a headline as its log printed it, or "(1.66 s)" a rounding of one.
func (r checker) sameFigure(entry, num string, h *report.Value) bool {
	if report.FormatNumber(h.Measured, h.Decimals) == num {
		return true
	}
	// Printed with fewer decimals than the log: a rounding of it, either
	// way at the half (5634.45 printed as 5634.4 or 5634.5).
	if v, dec, ok := parseNumber(num); ok && dec < h.Decimals && report.PrintedInterval(h.Measured, h.Decimals).Holds(v, dec) {
		return true
	}
	// A figure in another unit than the log's (seconds for a latency
	// logged in ms, or derived) matches when it is a rounding of it.
	u := rankUnit.FindStringSubmatch(entry)
	if u == nil || u[1] != "s" || !strings.HasSuffix(h.Metric, "_ms") {
		return false
	}
	v, dec, ok := parseNumber(num)
	return ok && report.PrintedInterval(h.Measured, h.Decimals).Holds(v*1000, dec-3)
}
