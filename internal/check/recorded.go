package check

import (
	"fmt"

	"github.com/perflab/perflab/internal/study"
)

// RuleRecorded flags a run whose recorded facts (run.yaml's recorded, as
// perflab record captured them) contradict what the study says of it.
const RuleRecorded = "recorded-mismatch"

// recordedRules compares what perflab record captured with the study: the
// engine version the output printed against the study's version of that
// engine, and the GPUs the host had against those the run says it used.
// A reproduction may run on another version: its section says so.
func recordedRules(s *study.Study, add func(Diagnostic)) {
	for _, r := range s.Runs {
		rec := r.Recorded
		if rec == nil {
			continue
		}
		at := func(d Diagnostic) {
			d.Rule, d.Severity, d.File, d.Line, d.Subject = RuleRecorded, Warning, r.Pos.File, rec.Pos.Line, r.ID
			add(d)
		}
		if e := s.Engine(r.Engine); e != nil && rec.EngineVersion != "" && r.Reproduces == "" && !sameVersion(rec.EngineVersion, e.Version) {
			at(Diagnostic{Printed: rec.EngineVersion, Computed: e.Version,
				Message: fmt.Sprintf("run %s was recorded on %s %s, but %s:%d gives %s %s: the report would name another version than the one measured; set the engine's version to the one recorded, move the run to a study of that version, or acknowledge it",
					r.ID, e.Name, rec.EngineVersion, e.Pos.File, e.Pos.Line, e.Name, e.Version)})
		}
		if rec.GPUCount > 0 && r.GPUs > rec.GPUCount {
			at(Diagnostic{Printed: fmt.Sprint(r.GPUs), Computed: fmt.Sprint(rec.GPUCount),
				Message: fmt.Sprintf("run %s says it used %d GPUs, but the host it was recorded on had %d: fix gpus, or acknowledge it", r.ID, r.GPUs, rec.GPUCount)})
		}
	}
}

// sameVersion compares two versions as versions ("v0.11" and "0.11.0"
// are one), or as text when either is not one.
func sameVersion(a, b string) bool {
	va, ea := study.ParseVersion(a)
	vb, eb := study.ParseVersion(b)
	if ea != nil || eb != nil {
		return a == b
	}
	return va.Compare(vb) == 0
}
