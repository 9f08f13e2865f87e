package claims

import (
	"fmt"
	"strings"

	"github.com/perflab/perflab/internal/report"
	"github.com/perflab/perflab/internal/serving"
)

// rankedName checks the name a ranking prints before a figure against the
// run whose log gives that figure: "vLLM (4635.31 tok/s) > SGLang
// (3792.50 tok/s)" swaps the names of two runs while the figures stay, and
// credits one engine with the other's result. A name that names an engine
// must name the run's engine; one that is another ranked run's name (and
// not this run's) names the wrong run. Names that say neither pass.
func rankedName(text, num string, cur *report.RunResult, sr *report.StepResult) (bool, string) {
	name := strings.TrimSpace(rankOperator.ReplaceAllString(text, " "))
	name = strings.TrimSpace(strings.Trim(name, ",;:"))
	if name == "" || cur.Run == nil {
		return true, ""
	}
	if strings.EqualFold(name, cur.Run.Name) {
		return true, ""
	}
	for _, o := range sr.Ranking {
		if o.Run != nil && o.Run != cur.Run && strings.EqualFold(name, o.Run.Name) {
			return false, fmt.Sprintf("the figure %s is run %s's (%s), but the ranking credits it to %q, the name of run %s", num, cur.Run.ID, cur.Run.Name, name, o.Run.ID)
		}
	}
	own := runEngines(cur)
	if named := serving.NamedAll(name); len(named) > 0 && len(own) > 0 {
		for _, e := range named {
			if own[e] {
				return true, ""
			}
		}
		return false, fmt.Sprintf("the figure %s is run %s's (%s), but the ranking credits it to %q, another engine", num, cur.Run.ID, cur.Run.Name, name)
	}
	return true, ""
}

// runEngines are the engines a run is known by: its name's, its label's
// and the one its command starts.
func runEngines(rr *report.RunResult) map[*serving.Engine]bool {
	out := map[*serving.Engine]bool{}
	for _, e := range serving.NamedAll(rr.Run.Name) {
		out[e] = true
	}
	for _, e := range []*serving.Engine{serving.ByAlias(rr.Run.Engine), serving.Started(rr.Run.Command)} {
		if e != nil {
			out[e] = true
		}
	}
	return out
}
