package check

import (
	"fmt"
	"strings"

	"github.com/perflab/perflab/internal/report"
)

// RuleReproduction flags a rerun, submitted as a reproduction of a run,
// whose headline is beyond the noise of the original's.
const RuleReproduction = "reproduction-disagrees"

// reproductionRules warns about each figure a reproduction does not
// reproduce, and says what differs between the two runs as they recorded
// themselves, so a reader can tell a setup difference from a doubtful
// figure.
func reproductionRules(rep *report.Report, add func(Diagnostic)) {
	for _, rp := range report.Reproductions(rep.Study, rep.Headline) {
		for _, f := range rp.Figures {
			for _, r := range f.Reproductions {
				if r.Change == nil || r.Agrees {
					continue
				}
				c := r.Change
				add(Diagnostic{Rule: RuleReproduction, Severity: Warning, File: r.RerunValue.Source.File, Line: r.RerunValue.Source.Line,
					Subject: r.Run.ID + "/" + f.Workload, Printed: r.RerunValue.Expr(), Computed: report.FormatPercent(c.Percent),
					Message: fmt.Sprintf("run %s reproduces %s, but on %s it gives %s %s where %s gives %s: a change of %s (%s), beyond the noise (%s); %s; find the cause, or acknowledge it with a reason",
						r.Run.ID, rp.Run.ID, f.Workload, r.RerunValue.Expr(), rep.Headline.Unit, rp.Run.ID, f.Original.Expr(),
						report.FormatPercent(c.Percent), c.Formula, noiseWords(c), differs(r))})
			}
		}
	}
}

func noiseWords(c *report.Change) string {
	if c.From.Repeated() || c.To.Repeated() {
		return "the 95 % intervals do not overlap"
	}
	return fmt.Sprintf("%g %% between single measurements", report.NoiseBand)
}

// differs says what the two runs' records show to differ, and what they
// do not record.
func differs(r report.Reproduction) string {
	var diff, unknown []string
	switch r.GPU {
	case report.Different:
		diff = append(diff, fmt.Sprintf("GPU %s vs %s", r.GPUs[0], r.GPUs[1]))
	case report.Unknown:
		unknown = append(unknown, "the GPU model")
	}
	switch r.Version {
	case report.Different:
		diff = append(diff, fmt.Sprintf("engine version %s vs %s", r.Versions[0], r.Versions[1]))
	case report.Unknown:
		unknown = append(unknown, "the engine version")
	}
	diff = append(diff, r.Differences...)
	s := "nothing the two runs record differs"
	if len(diff) > 0 {
		s = "what differs: " + strings.Join(diff, "; ")
	}
	if len(unknown) > 0 {
		s += " (not recorded by both: " + strings.Join(unknown, ", ") + ")"
	}
	return s
}
