package render

import (
	"strings"

	"github.com/perflab/perflab/internal/report"
	"github.com/perflab/perflab/internal/study"
)

// stdErrText follows a score with its standard error, "" without one.
func stdErrText(loc *localizer, sc study.Score) string {
	if sc.StdErrRaw == "" {
		return ""
	}
	return loc.T("accuracy.stderr", "SE", esc(sc.StdErrRaw))
}

// accuracyAgainst says how a run's scores differ from its reference's,
// each difference tested against the two evaluations' standard errors;
// "" when the two share no score.
func accuracyAgainst(loc *localizer, ref *report.RunResult, run *study.Run) string {
	if ref == nil {
		return ""
	}
	changes := report.AccuracyChanges(ref.Run, run)
	if len(changes) == 0 {
		return ""
	}
	parts := make([]string, len(changes))
	for i, c := range changes {
		metric, _, _ := strings.Cut(c.To.Metric, ",")
		dec := max(decimalsIn(c.From.Raw), decimalsIn(c.To.Raw))
		score := esc(c.To.Task) + " " + esc(metric)
		if !c.Tested {
			parts[i] = loc.T("accuracy.change_untested", "Score", score, "Diff", signedNumber(c.Diff, dec))
			continue
		}
		verdict := loc.T("accuracy.within_noise")
		if c.Beyond {
			verdict = loc.T("accuracy.beyond_noise")
		}
		parts[i] = loc.T("accuracy.change_tested", "Score", score, "Diff", signedNumber(c.Diff, dec),
			"Low", signedNumber(c.Low, dec), "High", signedNumber(c.High, dec), "P", PText(c.P), "Verdict", verdict)
	}
	return loc.T("accuracy.against", "Run", esc(ref.Run.Name), "Changes", strings.Join(parts, loc.T("list.separator")))
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
