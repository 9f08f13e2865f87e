package render

import (
	"slices"

	"github.com/perflab/perflab/internal/claims"
	"github.com/perflab/perflab/internal/report"
)

// optionView is one row of the summary table, its cells in both formats.
type optionView struct {
	Step                            string // the step's anchor
	Option, Best, Reference, Change rich
	NoGain                          bool // "—": the step keeps its reference, or measured nothing
	Erratum                         rich // the published change the logs contradict, a note; zero: none
}

// options are the summary table: each step's best run, its reference and
// the change between them; made once a page for both formats.
func (p *reportPage) Summary() []optionView { return p.optionsV.get(p.newOptions) }

func (p *reportPage) newOptions() []optionView {
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
		v.Erratum = p.erratumNote(claim, rich{}, "erratum.step", "Step", v.Option)
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
	return views
}

// onPath reports whether a run is on the path from the baseline to the
// recommended configuration.
func onPath(rep *report.Report, rr *report.RunResult) bool {
	if rep.Path == nil || rr == nil {
		return false
	}
	return slices.ContainsFunc(rep.Path.Links, func(l report.PathLink) bool { return l.To.Run == rr.Run })
}

// summaryEndView is what follows the summary table, one view for both
// formats: the legend of "—", the path the steps built and the errata
// of the steps; a zero rich is none.
type summaryEndView struct {
	Legend, Path rich
	Errata       []rich
}

// summaryEnd is what follows the summary table, made once a page.
func (p *reportPage) SummaryEnd() *summaryEndView { return p.summaryEndV.get(p.newSummaryEnd) }

func (p *reportPage) newSummaryEnd() *summaryEndView {
	v := &summaryEndView{}
	for _, o := range p.Summary() {
		if o.NoGain {
			v.Legend = p.loc.R("summary.legend")
		}
		if o.Erratum.MD != "" {
			v.Errata = append(v.Errata, o.Erratum)
		}
	}
	v.Path = p.optionsPath()
	return v
}

// optionsPath says how the steps built the recommended configuration:
// the path from the baseline with each step's own change, which compound
// to the whole gain, or why the steps were not measured one at a time.
// Zero without a path through the steps.
func (p *reportPage) optionsPath() rich {
	path, loc := p.rep.Path, p.loc
	if path == nil || len(path.Links) == 0 {
		return rich{}
	}
	parts := []rich{richText(path.Baseline.Run.Name)}
	for _, l := range path.Links {
		parts = append(parts, richFigure(" → "), loc.R("summary.path_link", "Name", l.To.Run.Name, "Change", p.shortChange(l.Change, "step-"+anchorID(l.Step.Step.ID))))
	}
	steps := richJoin(parts...)
	whole := p.shortChange(path.Whole, "optimized-"+anchorID(p.rep.Main.ID))
	if path.OneAtATime {
		return loc.R("summary.path", "Path", steps, "Whole", whole)
	}
	var reason rich
	for _, l := range path.Links {
		if l.Also != nil {
			reason = loc.R("summary.path_also", "Step", p.stepTitle(l.Step.Step.ID), "Other", p.stepTitle(l.Also.Step.ID),
				"Name", l.To.Run.Name, "From", l.From.Run.Name)
			break
		}
	}
	if reason.MD == "" {
		last := path.Links[len(path.Links)-1].To
		reason = loc.R("summary.path_unreached", "Name", path.Recommended.Run.Name, "Last", last.Run.Name)
	}
	return loc.R("summary.path_not_one", "Path", steps, "Whole", whole, "Reason", reason)
}

// shortChange writes a change's headline linked to anchor.
func (p *reportPage) shortChange(ch *report.Change, anchor string) rich {
	if ch == nil {
		return richFigure("—")
	}
	return richLink(richFigure(p.loc.Figure(changeHeadline(ch))), "#"+anchor, ch.Formula)
}

// changeHeadline is a change's direction and percentage, "▲ +61.4 %".
func changeHeadline(ch *report.Change) string {
	switch {
	case ch.Noise:
		return "≈ " + report.FormatPercent(ch.Percent)
	case ch.Better:
		return "▲ " + report.FormatPercent(ch.Percent)
	}
	return "▼ " + report.FormatPercent(ch.Percent)
}

// erratumNote is the note on a published figure that the logs
// contradict: the message id with kv, what was printed and what the logs
// give, then why the difference is acknowledged (ack, zero: it is not);
// zero when the claim holds or was not checked.
func (p *reportPage) erratumNote(claim *claims.Result, ack rich, id string, kv ...any) rich {
	if !contradicts(claim) {
		return rich{}
	}
	text := p.loc.R(id, append(kv, "Printed", claim.Claim.Printed, "Computed", richFigure(claim.Computed))...)
	if ack.MD != "" {
		text = p.loc.R("sentences", "First", text, "Next", ack)
	}
	return richJoin(p.loc.R("label", "Label", p.loc.R("erratum.label")), text)
}
