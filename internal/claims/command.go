package claims

import (
	"fmt"
	"slices"
	"strings"

	"github.com/perflab/perflab/internal/serving"
	"github.com/perflab/perflab/internal/study"
)

// checkCommand: the published recommended serving command must run as the
// command of a run whose numbers the conclusion's optimized column shows.
// Commands are compared as their engine reads them: flag spellings, the
// model's organisation and flags that never change performance (--port,
// --reasoning-parser...) aside.
func (r checker) checkCommand(c study.Claim, res *Result) {
	want := serving.Parse(c.Printed)
	var shown []string
	var closest []string
	closestRun := ""
	for _, row := range r.Rows {
		if row.Optimized == nil {
			continue
		}
		run := row.Optimized.Run
		diff := want.Differences(serving.Parse(run.Command))
		if len(diff) == 0 || (run.CommandDerived && run.Parameters != "" && hasFlags(want, run.Parameters)) {
			res.Checked, res.Match, res.Computed = true, true, run.Command
			return
		}
		if !slices.Contains(shown, run.ID) {
			shown = append(shown, run.ID)
			if closestRun == "" || len(diff) < len(closest) {
				closest, closestRun = diff, run.ID
			}
		}
	}
	if len(shown) == 0 {
		res.Detail = "the conclusion shows no optimized result to compare the command with"
		return
	}
	res.Checked = true
	res.Computed = r.Study.Run(closestRun).Command
	res.Detail = fmt.Sprintf("the recommended command is not the command of any run whose numbers the conclusion shows (%s): against run %s it differs in %s",
		strings.Join(shown, ", "), closestRun, strings.Join(closest, ", "))
	// Leaving out flags of the measured run may be on purpose (the report
	// keeps a workload-dependent setting out of its default): a warning.
	res.Suspect = true
	for _, d := range closest {
		res.Suspect = res.Suspect && strings.HasSuffix(d, " only in the second")
	}
	if res.Suspect {
		res.Detail += "; the conclusion's optimized figures were measured with flags the recommended command leaves out"
	}
}

// hasFlags reports whether the command sets every flag of a rebuilt run's
// printed parameters as they say: a generated report prints only the flags.
func hasFlags(command serving.Command, params string) bool {
	p := serving.Parse(params)
	set := map[string]string{}
	for _, f := range command.Flags {
		set[f.Name] = f.Value
	}
	for _, f := range p.Flags {
		if v, ok := set[f.Name]; (!ok || v != f.Value) && !serving.Ignored(f.Name) {
			return false
		}
	}
	return true
}
