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
		dec := max(decimalsIn(c.From.Raw), decimalsIn(c.To.Raw))
		score, diff := richText(c.To.Task+" "+metric), richFigure(signedNumber(c.Diff, dec))
		if !c.Tested {
			parts = append(parts, loc.R("accuracy.change_untested", "Score", score, "Diff", diff))
			continue
		}
		verdict := loc.R("accuracy.within_noise")
		if c.Beyond {
			verdict = loc.R("accuracy.beyond_noise")
		}
		parts = append(parts, loc.R("accuracy.change_tested", "Score", score, "Diff", diff,
			"Low", richFigure(signedNumber(c.Low, dec)), "High", richFigure(signedNumber(c.High, dec)), "P", richFigure(PText(c.P)), "Verdict", verdict))
	}
	return loc.R("accuracy.against", "Run", ref.Run.Name, "Changes", richList(loc.R("list.separator"), parts...))
}

// decimalsIn counts the decimals of a number as written.
func decimalsIn(raw string) int {
	_, frac, _ := strings.Cut(raw, ".")
	n := 0
	for n < len(frac) && frac[n] >= '0' && frac[n] <= '9' {
		n++
	}
	return n
}

// signedNumber writes x with its sign, "+0.0046", never "-0.0000".
func signedNumber(x float64, dec int) string {
	s := report.FormatNumber(x, dec)
	if strings.Trim(s, "-0.") == "" {
		return strings.TrimPrefix(s, "-")
	}
	if !strings.HasPrefix(s, "-") {
		s = "+" + s
	}
	return s
}

// percentText writes a share in percent with one decimal, "0.5 %",
// "-2.2 %", never "-0.0 %".
func percentText(p float64) string {
	return strings.TrimPrefix(signedNumber(p, 1), "+") + " %"
}
