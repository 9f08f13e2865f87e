// Package claims checks the figures a study publishes (percentages,
// speed-ups, rankings, values, summary lines, tables, commands, accuracy)
// against the report computed from its logs. It computes nothing the
// report shows; it only compares. Every check is interval arithmetic: a
// printed figure holds when some true values inside the printed rounding
// of its inputs give it.
package claims

import (
	"fmt"
	"slices"
	"strings"

	"github.com/perflab/perflab/internal/report"
	"github.com/perflab/perflab/internal/serving"
	"github.com/perflab/perflab/internal/study"
)

// checker holds the report the claims are checked against.
type checker struct{ *report.Report }

// Check checks each of the study's published claims against its computed
// report, in the order the study lists them.
func Check(rep *report.Report) []Result {
	r := checker{rep}
	var out []Result
	for _, c := range rep.Study.Claims {
		out = append(out, r.claim(c))
	}
	return out
}

func (r checker) claim(c study.Claim) Result {
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
func (r checker) excludedDependency(c study.Claim, res Result) string {
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
		if r.sameFigure(e[0], strings.ReplaceAll(e[1], ",", ""), h) {
			return true
		}
	}
	return false
}

func (r checker) checkClaim(c study.Claim) Result {
	res := Result{Claim: c}
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
		r.checkPublishedKind(c, &res)
	}
	return res
}

// checkPublishedKind checks the other claim kinds, those that imported
// published reports carry.
func (r checker) checkPublishedKind(c study.Claim, res *Result) {
	switch c.Kind {
	case study.ClaimAccuracy:
		r.checkAccuracy(c, res)
	case study.ClaimValue:
		r.checkValueClaim(c, res)
	case study.ClaimSummary:
		sr := r.StepByID(c.Step)
		if sr == nil {
			res.Detail = fmt.Sprintf("the study has no step %s", c.Step)
			return
		}
		res.Checked, res.Match, res.Detail = r.checkSummary(c.Printed, sr)
		res.Checked = res.Checked || res.Match
	case study.ClaimSuccess:
		r.checkSuccess(c, res)
	case study.ClaimCommand:
		r.checkCommand(c, res)
	case study.ClaimTable:
		r.checkTable(c, res)
	case study.ClaimUnchecked:
		res.Detail = "the source derived it from figures it does not tie it to"
	case study.ClaimModel:
		res.Checked, res.Computed = true, r.Study.Model
		res.Match = serving.SameModel(c.Printed, r.Study.Model)
		if !res.Match {
			res.Detail = fmt.Sprintf("the report's setup names the model %s, but its title and serving commands are about %s", c.Printed, r.Study.Model)
		}
	}
}

// stepBest is the run a step's summary row shows: the best of the step's
// runs, which is the reference itself when the reference is one of them
// and ranks first.
func (r checker) stepBest(sr *report.StepResult) *report.RunResult {
	if sr.Reference != nil && sr.Reference.Comparable() && slices.Contains(sr.Step.Runs, sr.Step.Reference) &&
		len(sr.Ranking) > 1 && sr.Ranking[0].Run.ID == sr.Step.Reference {
		return sr.Reference
	}
	return sr.Best
}

// stepChange is the change a step's summary row shows: the best run other
// than the reference against the reference, except that a printed zero
// change ("+0.00%", "1.00x faster") says that the reference itself stayed
// the best, which holds when it ranks first among the step's runs.
func (r checker) stepChange(sr *report.StepResult, printed string) *report.Change {
	if b := r.stepBest(sr); b != nil && b == sr.Reference && printedZero(printed) {
		return report.NewChange(r.Headline, *sr.Reference.Headline, *sr.Reference.Headline)
	}
	return sr.Change
}
