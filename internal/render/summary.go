package render

// optionView is one row of the summary table, its cells ready Markdown.
type optionView struct {
	Step, Option, Best, Reference, Change string
	NoGain                                bool // "—": the step keeps its reference, or measured nothing
	Erratum                               erratum
}

// options are the summary table: each step's best run, its reference and
// the change between them.
func (p *reportPage) options() []optionView {
	loc := p.loc
	views := make([]optionView, len(p.rep.Steps))
	for i := range p.rep.Steps {
		sr := &p.rep.Steps[i]
		v := &views[i]
		v.Step, v.Option, v.Best, v.Change = anchorID(sr.Step.ID), esc(p.stepTitle(sr.Step.ID)), "—", "—"
		if sr.Best != nil {
			v.Best = esc(sr.Best.Run.Name)
			if adopted(p.rep, i) {
				v.Best += loc.T("summary.adopted")
			}
			for _, rr := range sr.Tied { // as good a choice: named with it
				v.Best += " ≈ " + esc(rr.Run.Name)
			}
		}
		if sr.Reference != nil {
			v.Reference = esc(sr.Reference.Run.Name)
		}
		claim := p.claimFor("step", sr.Step.ID)
		switch {
		case len(sr.Step.Runs) == 0:
			v.Best, v.Reference, v.Change, v.NoGain = "—", "—", loc.T("summary.unmeasured"), true
		case sr.Change != nil && (!sr.Change.Better || sr.Change.Noise):
			// No gain: the step keeps its reference, as a source's "-" says.
			v.Change, v.NoGain = loc.T("summary.no_gain", "Change", p.changeLink(sr.Change, claim, "step-"+anchorID(sr.Step.ID))), true
		case sr.Change != nil:
			v.Change = p.changeLink(sr.Change, claim, "step-"+anchorID(sr.Step.ID))
		}
		v.Erratum = erratumOf(claim)
	}
	return views
}
