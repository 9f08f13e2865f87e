package check

import (
	"fmt"

	"github.com/perflab/perflab/internal/report"
	"github.com/perflab/perflab/internal/study"
)

// RuleRegression is a run's headline getting worse, beyond the noise band,
// from one engine version of its history to the next.
const RuleRegression = "regression"

// historyBlockRules checks the blocks of every history log as a run's own.
func historyBlockRules(r *study.Run, add func(Diagnostic)) {
	for _, h := range r.History {
		for _, lg := range h.Logs {
			for i := range lg.Blocks {
				blockRules(&lg.Blocks[i], add)
			}
		}
	}
}

// historyModelRule: a version measured with its own command
// (history.yaml) must serve the study's model, as a run must; a version
// that does not is left out of the run's history (subject
// <run>@<version>, see report.HistorySubject).
func historyModelRule(s *study.Study, r *study.Run, add func(Diagnostic)) {
	for _, h := range r.History {
		served, other := report.OtherModel(s, h.Command)
		if h.Command == "" || !other {
			continue
		}
		add(Diagnostic{Rule: RuleModel, Severity: Error, File: h.Pos.File, Line: h.Pos.Line, Subject: report.HistorySubject(r.ID, h.Version.Raw),
			Printed: served, Computed: s.Model,
			Message: fmt.Sprintf("run %s on %s was served with a command that serves %s, but the study is about %s: fix the command in %s, or remove that version from the history; until then it is left out of the run's history", r.ID, h.Version.Raw, served, s.Model, study.HistoryFile)})
	}
}

// regressionRules warns about every regression of a run's history, on the
// line of the newer version's value.
func regressionRules(rep *report.Report, add func(Diagnostic)) {
	for _, hr := range rep.History {
		for _, t := range append(hr.Trends[:len(hr.Trends):len(hr.Trends)], hr.Tails...) {
			for _, p := range t.Regressions() {
				v := p.Value
				// One subject per version: an acknowledgement of a version's
				// regression covers its tails.
				subject, on := RegressionSubject(hr.Run.ID, t.Workload.ID, p.Version), t.Workload.ID
				if t.Metric.Key != rep.Headline.Key {
					on += " (" + t.Metric.Key + ")"
				}
				add(Diagnostic{Rule: RuleRegression, Severity: Warning, File: v.Source.File, Line: v.Source.Line, Subject: subject,
					Printed: v.Expr(), Computed: report.FormatPercent(regressionChange(p).Percent),
					Message: regressionMessage(hr.Run.ID, on, t.Metric.Unit, p) + fmt.Sprintf("; find the cause, or acknowledge it with rule %s, subject %s", RuleRegression, subject)})
			}
		}
	}
}

// RegressionSubject is what an acknowledgement of a regression names:
// <run>/<workload>@<version>; "<run>/<workload>@*" names every version.
func RegressionSubject(run, workload, version string) string {
	return run + "/" + workload + "@" + version
}

// regressionReason names the rule that made a change a regression.
func regressionReason(c *report.Change) string {
	switch c.Test {
	case report.TestPrediction:
		return fmt.Sprintf("measurable (one run against the prediction interval of the other side's repeats: t = %.2f, df %.0f, p = %.3f on %d + %d repeats) and beyond the %.1f %% noise band", c.T, c.DF, c.P, c.NFrom, c.NTo, c.Band)
	case report.TestAssumed:
		return fmt.Sprintf("beyond the %.1f %% that %d + %d runs can tell from noise at the assumed run-to-run variation of %.1f %% (p = %.3f)", c.Threshold(), c.NFrom, c.NTo, c.Sigma, c.P)
	}
	return fmt.Sprintf("measurable (Welch's p = %.3f on %d + %d repeats) and beyond the %.1f %% noise band", c.P, c.NFrom, c.NTo, c.Band)
}

// regressionChange is the change that made a version a regression.
func regressionChange(p *report.VersionPoint) *report.Change {
	if p.Rule == report.RegressionDrift {
		return p.Drift
	}
	return p.Change
}

// regressionMessage says which rule fired: a step worse than the version
// before, or a drift worse than the earliest version of the window.
func regressionMessage(run, workload, unit string, p *report.VersionPoint) string {
	c := regressionChange(p)
	against := "the version before"
	if p.Rule == report.RegressionDrift {
		against = fmt.Sprintf("the earliest of the %d results before it (a drift that no single version shows)", report.HistoryWindow)
	}
	return fmt.Sprintf("run %s on %s: %s %s on %s against %s on %s (%s), %s",
		run, workload, p.Value.Expr(), unit, p.Version, c.From.Expr(), against, report.FormatPercent(c.Percent), regressionReason(c))
}
