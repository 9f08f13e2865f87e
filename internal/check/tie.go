package check

import (
	"fmt"
	"math"
	"strings"

	"github.com/perflab/perflab/internal/study"
)

// breakTie: when two input-token counts are each the most common, the
// study's stated workload (num_prompts x input_len of a random dataset)
// decides, within the same slack; without it, it is a tie.
func breakTie(w *study.Workload, tokens []float64, common float64, best int, count map[float64]int) (float64, bool) {
	var top []float64
	for v, n := range count {
		slack := max(randomTokenSlack*common, randomPromptSlack*float64(w.NumPrompts))
		if n == best && !(randomData(w) && math.Abs(v-common) <= slack) {
			top = append(top, v)
		}
	}
	if !containsValue(top, common) {
		top = append(top, common)
	}
	if len(top) < 2 {
		return common, false
	}
	if w.NumPrompts > 0 && w.InputLen > 0 {
		want := float64(w.NumPrompts * w.InputLen)
		var near []float64
		for _, v := range top {
			if math.Abs(v-want) <= max(randomTokenSlack*want, randomPromptSlack*float64(w.NumPrompts)) {
				near = append(near, v)
			}
		}
		if len(near) == 1 {
			return near[0], false
		}
	}
	return common, true
}

func containsValue(xs []float64, v float64) bool {
	for _, x := range xs {
		if x == v {
			return true
		}
	}
	return false
}

// tieDiagnostic says that the runs of a workload split evenly on what they
// sent, and blames none of them.
func tieDiagnostic(s *study.Study, w *study.Workload, at string, runs []string, tokens []float64) Diagnostic {
	var parts []string
	for i := range runs {
		parts = append(parts, fmt.Sprintf("%s sent %.0f", runs[i], tokens[i]))
	}
	return Diagnostic{Rule: RuleSameData, Severity: Error, File: s.Pos.File, Line: w.Pos.Line, Subject: "workload/" + w.ID,
		Message: fmt.Sprintf("the runs of %s%s sent different input tokens and no count is the majority, so none can be blamed: it is a tie (%s); rerun them on the study's workload, or state num_prompts and input_len so that the study decides",
			w.ID, at, strings.Join(parts, ", "))}
}
