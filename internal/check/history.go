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

// regressionRules warns about every regression of a run's history, on the
// line of the newer version's value.
func regressionRules(rep *report.Report, add func(Diagnostic)) {
	for _, hr := range rep.History {
		for _, t := range hr.Trends {
			for _, p := range t.Regressions() {
				v, from := p.Value, p.Change.From
				subject := RegressionSubject(hr.Run.ID, t.Workload.ID, p.Version)
				add(Diagnostic{Rule: RuleRegression, Severity: Warning, File: v.Source.File, Line: v.Source.Line, Subject: subject,
					Printed: v.Expr(), Computed: report.FormatPercent(p.Change.Percent),
					Message: fmt.Sprintf("run %s on %s: %s %s on %s against %s on the version before (%s), beyond the %.0f %% noise band; find the cause, or acknowledge it with rule %s, subject %s",
						hr.Run.ID, t.Workload.ID, v.Expr(), rep.Headline.Unit, p.Version, from.Expr(), report.FormatPercent(p.Change.Percent), report.NoiseBand, RuleRegression, subject)})
			}
		}
	}
}

// RegressionSubject is what an acknowledgement of a regression names:
// <run>/<workload>@<version>; "<run>/<workload>@*" names every version.
func RegressionSubject(run, workload, version string) string {
	return run + "/" + workload + "@" + version
}
