package check

import (
	"fmt"
	"strings"

	"github.com/perflab/perflab/internal/claims"
	"github.com/perflab/perflab/internal/study"
)

// RuleUnchecked: a study that holds figures perflab could not recompute
// says how many, beside how many it did, so a check with nothing wrong
// is never read as a check of everything.
const RuleUnchecked = "figures-unchecked"

// FigureCount is how many of a study's published figures check
// recomputed and how many it could not.
type FigureCount struct{ Checked, Unchecked int }

// CountFigures counts a study's claim results: recomputed, or left
// unchecked (kind unchecked, or a claim no log or figure could settle).
func CountFigures(results []claims.Result) FigureCount {
	var n FigureCount
	for _, c := range results {
		if c.Checked {
			n.Checked++
		} else {
			n.Unchecked++
		}
	}
	return n
}

// uncheckedRule reports, once per study, the figures it lists as
// unchecked, the first few by their source.
func uncheckedRule(results []claims.Result, add func(Diagnostic)) {
	var where []string
	first := study.Claim{}
	for _, c := range results {
		if c.Claim.Kind != study.ClaimUnchecked {
			continue
		}
		if len(where) == 0 {
			first = c.Claim
		}
		if len(where) < 5 {
			where = append(where, fmt.Sprintf("%q at %s", c.Claim.Printed, c.Claim.Source))
		} else if len(where) == 5 {
			where = append(where, "...")
		}
	}
	if len(where) == 0 {
		return
	}
	n := CountFigures(results)
	add(Diagnostic{Rule: RuleUnchecked, Severity: Warning, File: first.Pos.File, Line: first.Pos.Line, Subject: "unchecked",
		Printed: fmt.Sprint(n.Unchecked), Computed: fmt.Sprint(n.Checked),
		Message: fmt.Sprintf("%d of the %d published figures could not be recomputed (%s); %d were: tie each to the figures it derives from (a table claim with from and to), or acknowledge it",
			n.Unchecked, n.Checked+n.Unchecked, strings.Join(where, ", "), n.Checked)})
}
