package render

import "github.com/perflab/perflab/internal/study"

// derivedNote is the sentence under a command that was rebuilt, not
// printed (command_derived: true), saying what it was rebuilt from: the
// engine parameters a published report printed; a published report's
// command for another run, with this run's label; or, in a study that no
// report published (started with perflab add or record), the engine and
// the model. Zero for a command as it was run.
func (p *reportPage) derivedNote(run *study.Run) rich {
	switch {
	case run == nil || !run.CommandDerived:
		return rich{}
	case run.Parameters != "":
		return p.loc.R("run.command_derived_parameters")
	case run.Source != "" || p.s.Source != nil || len(p.s.Claims) > 0:
		// Published: the run names where (source:), or its study was
		// imported from a report or keeps the figures one printed (claims:).
		return p.loc.R("run.command_derived")
	}
	return p.loc.R("run.command_derived_unpublished")
}
