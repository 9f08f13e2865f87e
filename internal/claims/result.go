package claims

import (
	"github.com/perflab/perflab/internal/report"
	"github.com/perflab/perflab/internal/study"
)

// Result is a published figure next to what the logs give.
type Result struct {
	Claim    study.Claim
	Computed string // the figure recomputed from the logs, formatted like the claim
	Match    bool
	Detail   string // why it does not match, when it does not
	Checked  bool   // false when the logs do not allow recomputing it
	Excluded string // the excluded run the claim rests on, which left it unchecked
	// Suspect marks a mismatch that may be intended: a recommended command
	// that leaves out flags of the measured run.
	Suspect bool
	// Unsupported marks a claim the measured figure meets but whose 95 %
	// interval reaches past it: the data cannot support it.
	Unsupported bool
	// Accuracy is the test behind an accuracy claim; nil without one.
	Accuracy *report.AccuracyClaimTest
}

// For returns the result of the claim about a conclusion row or a step,
// if any.
func For(results []Result, kind study.ClaimKind, subject string) *Result {
	for i := range results {
		c := &results[i]
		if c.Claim.Kind != kind {
			continue
		}
		if (kind == study.ClaimConclusion && c.Claim.Workload == subject) || (kind != study.ClaimConclusion && c.Claim.Step == subject) {
			return c
		}
	}
	return nil
}
