package report

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/perflab/perflab/internal/study"
)

var percentClaim = regexp.MustCompile(`^\(?\s*([-+−]?)\s*(\d+(?:\.(\d+))?)\s*%\s*(/\s*GPU)?\s*\)?$`)

// ParsePercent reads a printed percentage such as "+59.2%", "(-13.8%)" or
// "+21.1%/GPU": its value, its decimals and whether it is per GPU.
func ParsePercent(s string) (value float64, decimals int, perGPU bool, ok bool) {
	m := percentClaim.FindStringSubmatch(strings.TrimSpace(s))
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
func percentRange(from, to Value, perGPU bool) (lo, hi float64) {
	ha, hb := half(to.Decimals), half(from.Decimals)
	ka, kb := float64(to.Replicas), float64(from.Replicas)
	if perGPU {
		ka, kb = 1/float64(to.GPUs), 1/float64(from.GPUs)
	}
	r1 := (to.Measured - ha) * ka / ((from.Measured + hb) * kb)
	r2 := (to.Measured + ha) * ka / ((from.Measured - hb) * kb)
	return (r1 - 1) * 100, (r2 - 1) * 100
}

func half(decimals int) float64 { return 0.5 * math.Pow10(-decimals) }

// checkPercent compares a printed percentage with a change.
func checkPercent(printed string, c *Change) (computed string, match bool, detail string) {
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
	h := half(dec)
	if want+h < lo || want-h > hi {
		return computed, false, fmt.Sprintf("published %s, but the logs give %s = %s", printed, c.Formula, computed)
	}
	return computed, true, ""
}

func (r *Report) claim(c study.Claim) ClaimResult {
	res := ClaimResult{Claim: c}
	switch c.Kind {
	case study.ClaimConclusion:
		row := r.RowByWorkload(c.Workload)
		if row == nil || row.Change == nil {
			res.Detail = fmt.Sprintf("the logs give no baseline and optimized result for workload %s", c.Workload)
			return res
		}
		res.Checked = true
		res.Computed, res.Match, res.Detail = checkChange(c.Printed, row.Change, r.Headline)
	case study.ClaimStep:
		sr := r.StepByID(c.Step)
		if sr == nil || r.stepChange(sr, c.Printed) == nil {
			res.Detail = fmt.Sprintf("step %s has no comparable run besides its reference", c.Step)
			return res
		}
		res.Checked = true
		res.Computed, res.Match, res.Detail = checkChange(c.Printed, r.stepChange(sr, c.Printed), r.Headline)
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

// checkRanking verifies that every figure of a printed ranking is a
// headline of the step and that the printed order is the measured order.
func (r *Report) checkRanking(printed string, sr *StepResult) (bool, string) {
	entries := rankEntry.FindAllStringSubmatch(printed, -1)
	if len(entries) == 0 {
		return false, fmt.Sprintf("%q has no figure in parentheses to check", printed)
	}
	// "A > B" lists the larger value first; best first when higher is better.
	bestFirst := strings.Contains(printed, "<") != r.Headline.HigherBetter
	prev := -1
	for n, e := range entries {
		idx := -1
		for i, rr := range sr.Ranking {
			if r.sameFigure(e[0], e[1], rr.Headline) {
				idx = i
				break
			}
		}
		if idx < 0 {
			return false, fmt.Sprintf("the figure %s appears in no log of step %s", e[1], sr.Step.ID)
		}
		if n > 0 && (idx > prev) != bestFirst {
			return false, fmt.Sprintf("the printed order differs from the measured one: %s", r.RankingLine(sr))
		}
		prev = idx
	}
	return true, ""
}
