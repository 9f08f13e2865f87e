package check

import (
	"strconv"
	"strings"

	"github.com/perflab/perflab/internal/study"
)

// evidenceRules hold what a study says (labels, workload settings,
// commands) against the evidence behind it: the commands as the shell
// and the engine read them, and the logs.
func evidenceRules(s *study.Study, add func(Diagnostic)) {
	for _, r := range s.Runs {
		engineLabelRule(s, r, add)
		engineVersionRule(s, r, add)
	}
	workloadEvidenceRule(s, add)
	shellRules(s, add)
	runEvidenceRules(s, add)
}

// withoutRunBlame drops the requests-failed warnings of a workload whose
// stated num_prompts the logs contradict: the runs sent what they were
// given, and the error on study.yaml says so.
func withoutRunBlame(s *study.Study, diags []Diagnostic) []Diagnostic {
	wrong := map[string]string{} // workload -> its stated count
	for _, d := range diags {
		if d.Rule == RuleWorkload && d.File == s.Pos.File && strings.HasPrefix(d.Subject, "workload/") {
			if w := s.Workload(strings.TrimPrefix(d.Subject, "workload/")); w != nil && d.Line == w.Line("num_prompts") {
				wrong[w.ID] = strconv.Itoa(w.NumPrompts)
			}
		}
	}
	if len(wrong) == 0 {
		return diags
	}
	kept := diags[:0]
	for _, d := range diags {
		// Only the warnings that took the stated count as what was sent.
		if _, wl, ok := strings.Cut(d.Subject, "/"); ok && d.Rule == RuleRequests && wrong[wl] != "" && d.Computed == wrong[wl] {
			continue
		}
		kept = append(kept, d)
	}
	return kept
}
