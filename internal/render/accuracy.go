package render

import (
	"strings"

	"github.com/perflab/perflab/internal/report"
	"github.com/perflab/perflab/internal/study"
)

// stdErrText follows a score with its standard error, zero without one.
func stdErrText(loc *localizer, sc study.Score) rich {
	if sc.StdErrRaw == "" {
		return rich{}
	}
	return loc.R("accuracy.stderr", "SE", sc.StdErrRaw)
}

// accuracyAgainst says how a run's scores differ from its reference's,
// each difference tested against the two evaluations' standard errors;
// zero when the two share no score.
func accuracyAgainst(loc *localizer, ref *report.RunResult, run *study.Run) rich {
	if ref == nil {
		return rich{}
	}
	changes := report.AccuracyChanges(ref.Run, run)
	if len(changes) == 0 {
		return rich{}
	}
	var parts []rich
	for _, c := range changes {
		metric, _, _ := strings.Cut(c.To.Metric, ",")
		dec := max(report.DecimalsIn(c.From.Raw), report.DecimalsIn(c.To.Raw))
		score, diff := richText(c.To.Task+" "+metric), richFigure(report.FormatSigned(c.Diff, dec))
		if !c.Tested {
			parts = append(parts, loc.R("accuracy.change_untested", "Score", score, "Diff", diff))
			continue
		}
		verdict := loc.R("accuracy.within_noise")
		if c.Beyond {
			verdict = loc.R("accuracy.beyond_noise")
		}
		parts = append(parts, loc.R("accuracy.change_tested", "Score", score, "Diff", diff,
			"Low", richFigure(report.FormatSigned(c.Low, dec)), "High", richFigure(report.FormatSigned(c.High, dec)), "P", richFigure(report.FormatP(c.P)), "Verdict", verdict))
	}
	return loc.R("accuracy.against", "Run", ref.Run.Name, "Changes", richList(loc.R("list.separator"), parts...))
}
