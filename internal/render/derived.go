package render

import "github.com/perflab/perflab/internal/study"

// derivedNote is the sentence under a command that was rebuilt, not
// printed (command_derived: true), saying what it was rebuilt from: the
// engine parameters a published report printed; a published report's
// command for another run, with this run's label; or, in a study that no
// report published (started with perflab add or record), the engine and
// the model. "" for a command as it was run.
func (p *reportPage) derivedNote(run *study.Run) string {
	if id := derivedNoteID(p.s, run); id != "" {
		return p.loc.T(id)
	}
	return ""
}

// derivedNoteID is the message of derivedNote, "" for none.
func derivedNoteID(s *study.Study, run *study.Run) string {
	switch {
	case run == nil || !run.CommandDerived:
		return ""
	case run.Parameters != "":
		return "run.command_derived_parameters"
	case published(s, run):
		return "run.command_derived"
	}
	return "run.command_derived_unpublished"
}

// published reports whether the run comes from a published report: it
// names where (source:), or its study was imported from one or keeps the
// figures one printed (claims:).
func published(s *study.Study, run *study.Run) bool {
	return run.Source != "" || s.Source != nil || len(s.Claims) > 0
}
