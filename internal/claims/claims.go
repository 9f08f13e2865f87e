// Package claims checks the figures a study publishes (percentages,
// speed-ups, rankings, values, summary lines, tables, commands, accuracy)
// against the report computed from its logs. It computes nothing the
// report shows; it only compares.
package claims

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/perflab/perflab/internal/report"
	"github.com/perflab/perflab/internal/study"
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

func (r checker) claim(c study.Claim) report.ClaimResult {
	res := r.checkClaim(c)
	if !res.Match {
		if id := r.excludedDependency(c, res); id != "" {
			res.Checked, res.Excluded = false, id
			res.Detail = fmt.Sprintf("it rests on run %s, which is excluded from comparisons by %s", id, r.Excluded[id])
		}
	}
	return res
}

// excludedDependency is the excluded run a claim that could not be
// checked, or whose figure only that run gives, rests on; "" when none.
// Such a claim is reported once, on the run, not a second time here.
func (r checker) excludedDependency(c study.Claim, res report.ClaimResult) string {
	var runs []string
	switch {
	case c.Step != "":
		if sr := r.StepByID(c.Step); sr != nil {
			for _, rr := range sr.Runs {
				runs = append(runs, rr.Run.ID)
			}
			if sr.Reference != nil {
				runs = append(runs, sr.Reference.Run.ID)
			}
		}
	case c.Kind == study.ClaimConclusion || c.Kind == study.ClaimValue || c.Kind == study.ClaimCommand:
		runs = append(append(runs, r.Study.Baseline.Runs...), r.Study.Recommended.Runs...)
	case c.Run != "":
		runs = []string{c.Run}
	}
	for _, id := range runs {
		if r.Excluded[id] == "" {
			continue
		}
		if !res.Checked || c.Kind == study.ClaimRanking && r.excludedRunPrints(id, c.Printed) {
			return id
		}
	}
	return ""
}

// excludedRunPrints reports whether an excluded run's headline on the main
// workload is one of the figures of a printed ranking.
func (r checker) excludedRunPrints(id, printed string) bool {
	run := r.Study.Run(id)
	if run == nil || r.Main == nil {
		return false
	}
	b := run.Result(r.Main.ID)
	if b == nil {
		return false
	}
	m, ok := b.Metrics[r.Headline.Key]
	if !ok {
		return false
	}
	h := &report.Value{Measured: m.Value, Decimals: m.Decimals, Metric: r.Headline.Key}
	for _, e := range rankEntry.FindAllStringSubmatch(printed, -1) {
		if r.sameFigure(e[0], e[1], h) {
			return true
		}
	}
	return false
}

// asShown widens a change's inputs to the precision the report prints its
// metric with elsewhere (a latency logged as 1685.23 ms and printed as
// 1.68 s), so a percentage worked out from the printed figures holds.
func (r checker) asShown(c *report.Change) *report.Change {
	dec, ok := r.shownDecimals(c.From.Metric)
	if !ok || dec >= c.From.Decimals && dec >= c.To.Decimals {
		return c
	}
	w := *c
	w.From.Decimals, w.To.Decimals = min(w.From.Decimals, dec), min(w.To.Decimals, dec)
	return &w
}

// shownDecimals is the fewest decimals, in the log's unit, that the
// report's value claims print a metric with.
func (r checker) shownDecimals(key string) (int, bool) {
	best, found := 0, false
	for _, cl := range r.Study.Claims {
		if cl.Kind != study.ClaimValue {
			continue
		}
		m := valueClaim.FindStringSubmatch(strings.TrimSpace(cl.Printed))
		if m == nil {
			continue
		}
		if pv, ok := r.readValue(m[1], m[2], m[3], m[4]); ok && pv.key == key && (!found || pv.decimals < best) {
			best, found = pv.decimals, true
		}
	}
	return best, found
}

func (r checker) checkClaim(c study.Claim) report.ClaimResult {
	res := report.ClaimResult{Claim: c}
	switch c.Kind {
	case study.ClaimConclusion:
		row := r.RowByWorkload(c.Workload)
		if row == nil || row.Change == nil {
			res.Detail = fmt.Sprintf("the logs give no baseline and optimized result for workload %s", c.Workload)
			return res
		}
		res.Checked = true
		res.Computed, res.Match, res.Detail = checkChange(c.Printed, r.asShown(row.Change), r.Headline)
	case study.ClaimStep:
		sr := r.StepByID(c.Step)
		if sr != nil && NoGainMark(c.Printed) {
			res.Checked = true
			res.Computed, res.Match, res.Detail = checkNoGain(c.Printed, sr.Change)
			return res
		}
		if sr == nil || r.stepChange(sr, c.Printed) == nil {
			res.Detail = fmt.Sprintf("step %s has no comparable run besides its reference", c.Step)
			return res
		}
		res.Checked = true
		res.Computed, res.Match, res.Detail = checkChange(c.Printed, r.asShown(r.stepChange(sr, c.Printed)), r.Headline)
	case study.ClaimRanking:
		sr := r.StepByID(c.Step)
		if sr == nil {
			res.Detail = fmt.Sprintf("the study has no step %s", c.Step)
			return res
		}
		res.Checked = true
		res.Computed = r.RankingLine(sr)
		res.Match, res.Detail = r.checkRanking(c.Printed, sr)
	default:
		r.claimFamily(c, &res)
	}
	return res
}

var rankEntry = regexp.MustCompile(`\(\s*(\d+(?:\.(\d+))?)\s*(?:x\s*(\d+))?\s*[^)]*\)`)

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
		entry, num := printed[loc[0]:loc[1]], printed[loc[2]:loc[3]]
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

// checker holds the report the claims are checked against.
type checker struct{ *report.Report }

// Check checks each of the study's published claims against its computed
// report, in the order the study lists them.
func Check(rep *report.Report) []report.ClaimResult {
	r := checker{rep}
	var out []report.ClaimResult
	for _, c := range rep.Study.Claims {
		out = append(out, r.claim(c))
	}
	return out
}
