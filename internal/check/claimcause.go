package check

import (
	"fmt"
	"github.com/perflab/perflab/internal/claims"

	"github.com/perflab/perflab/internal/report"
	"github.com/perflab/perflab/internal/study"
)

// stepClaimCause names, for a step's published change that the logs
// contradict, the run the logs make the step's best: a run added after
// the publication (perflab add) that leads the step changes the figure,
// and then the difference is to be acknowledged, not "corrected".
func stepClaimCause(rep *report.Report, c claims.Result) string {
	if c.Claim.Kind != study.ClaimStep && c.Claim.Kind != study.ClaimRanking {
		return ""
	}
	for _, sr := range rep.Steps {
		if sr.Step.ID != c.Claim.Step || sr.Best == nil || sr.Best.Run == nil {
			continue
		}
		return fmt.Sprintf("; the logs make run %s the best of step %s (%s): if that run was added after the publication, it is why the figures differ: acknowledge the difference with a reason; else correct the published figure",
			sr.Best.Run.ID, sr.Step.ID, sr.Best.Run.Pos.File)
	}
	return ""
}
