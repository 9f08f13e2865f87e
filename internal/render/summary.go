package render

import (
	"strings"

	"github.com/perflab/perflab/internal/report"
)

// optionView is one row of the summary table, its cells in both formats.
type optionView struct {
	Step                            string // the step's anchor
	Option, Best, Reference, Change rich
	NoGain                          bool // "—": the step keeps its reference, or measured nothing
	Erratum                         erratum
}

// options are the summary table: each step's best run, its reference and
// the change between them; made once a page for both formats.
func (p *reportPage) options() []optionView {
	if p.optionsDone {
		return p.optionViews
	}
	p.optionsDone = true
	loc := p.loc
	dash := richFigure("—")
	views := make([]optionView, len(p.rep.Steps))
	for i := range p.rep.Steps {
		sr := &p.rep.Steps[i]
		v := &views[i]
		v.Step, v.Option, v.Best, v.Change = anchorID(sr.Step.ID), richText(p.stepTitle(sr.Step.ID)), dash, dash
		if sr.Best != nil {
			v.Best = richText(sr.Best.Run.Name)
			if adopted(p.rep, i) || onPath(p.rep, sr.Best) {
				v.Best = richJoin(v.Best, loc.R("summary.adopted"))
			}
			for _, rr := range sr.Tied { // as good a choice: named with it
				v.Best = richJoin(v.Best, richFigure(" ≈ "), richText(rr.Run.Name))
			}
		}
		// The step is credited with its own change: its best alternative
		// against the configuration it changed (report.StepResult.Changed).
		change := sr.Change
		if sr.Reference != nil {
			v.Reference = richText(sr.Reference.Run.Name)
		}
		if credit := sr.BestCredit(); credit != nil {
			change, v.Reference = credit, richText(sr.Changed.Run.Name)
		}
		claim := p.claimFor("step", sr.Step.ID)
		v.Erratum = erratumOf(claim)
		if change != sr.Change {
			claim = nil // a published figure is about the step's reference
		}
		switch {
		case len(sr.Step.Runs) == 0:
			v.Best, v.Reference, v.Change, v.NoGain = dash, dash, loc.R("summary.unmeasured"), true
		case change != nil && (!change.Better || change.Noise):
			// No gain: the step keeps its reference, as a source's "-" says.
			v.Change, v.NoGain = loc.R("summary.no_gain", "Change", p.changeRich(change, claim, "step-"+anchorID(sr.Step.ID))), true
		case change != nil:
			v.Change = p.changeRich(change, claim, "step-"+anchorID(sr.Step.ID))
		}
	}
	p.optionViews = views
	return views
}

// onPath reports whether a run is on the path from the baseline to the
// recommended configuration.
func onPath(rep *report.Report, rr *report.RunResult) bool {
	if rep.Path == nil || rr == nil {
		return false
	}
	for _, l := range rep.Path.Links {
		if l.To.Run == rr.Run {
			return true
		}
	}
	return false
}

// optionsPath says how the steps built the recommended configuration:
// the path from the baseline with each step's own change, which compound
// to the whole gain, or why the steps were not measured one at a time.
// "" without a path through the steps.
func (p *reportPage) optionsPath() string {
	path, loc := p.rep.Path, p.loc
	if path == nil || len(path.Links) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(esc(path.Baseline.Run.Name))
	for _, l := range path.Links {
		b.WriteString(" → " + loc.T("summary.path_link", "Name", esc(l.To.Run.Name), "Change", p.shortChange(l.Change, "step-"+anchorID(l.Step.Step.ID))))
	}
	whole := p.shortChange(path.Whole, "optimized-"+anchorID(p.rep.Main.ID))
	if path.OneAtATime {
		return loc.T("summary.path", "Path", b.String(), "Whole", whole)
	}
	var reason string
	for _, l := range path.Links {
		if l.Also != nil {
			reason = loc.T("summary.path_also", "Step", esc(p.stepTitle(l.Step.Step.ID)), "Other", esc(p.stepTitle(l.Also.Step.ID)),
				"Name", esc(l.To.Run.Name), "From", esc(l.From.Run.Name))
			break
		}
	}
	if reason == "" {
		last := path.Links[len(path.Links)-1].To
		reason = loc.T("summary.path_unreached", "Name", esc(path.Recommended.Run.Name), "Last", esc(last.Run.Name))
	}
	return loc.T("summary.path_not_one", "Path", b.String(), "Whole", whole, "Reason", reason)
}

// shortChange writes a change's headline, "▲ +61.4 %", linked to anchor.
func (p *reportPage) shortChange(ch *report.Change, anchor string) string {
	if ch == nil {
		return "—"
	}
	mark := "▼"
	switch {
	case ch.Noise:
		mark = "≈"
	case ch.Better:
		mark = "▲"
	}
	return sourced(p.loc.figure(mark+" "+report.FormatPercent(ch.Percent)), anchor, ch.Formula)
}
