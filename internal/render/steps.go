package render

import (
	"fmt"
	"strings"

	"github.com/perflab/perflab/internal/report"
	"github.com/perflab/perflab/internal/serving"
	"github.com/perflab/perflab/internal/study"
)

// stepView is one step of the optimization path in both formats, so that
// the templates keep the step's structure without a call per detail.
type stepView struct {
	ID      string
	Number  int
	Title   rich
	Section rich // the step's prose from content/
	Runs    []runView
	Chart   rich
	// Unmeasured: the source lists the option but publishes no run of it.
	Unmeasured bool
	Ranking    rich // "Result:" and the comparable runs best first; zero with fewer than two
	Erratum    rich // the published ranking, when the logs give another; zero else
}

// runView is one run of a step or of no step, each part made in Go so
// that the templates do little per run.
type runView struct {
	ID      string
	Name    rich
	Command rich // a code block
	// DerivedNote says what a command that was not recorded was rebuilt
	// from; zero for a command as it was run.
	DerivedNote rich
	Failed      bool
	Error       rich // the failed run's line: its error and what it means
	Raw         rich // the raw result as log blocks; zero without one
	Outcome     rich // headline, exclusion or "no main result" line
}

// steps are made once a page for both formats.
func (p *reportPage) Steps() []stepView { return p.stepsV.get(p.makeSteps) }

func (p *reportPage) makeSteps() []stepView {
	loc := p.loc
	views := make([]stepView, len(p.rep.Steps))
	for i := range p.rep.Steps {
		sr := &p.rep.Steps[i]
		id := sr.Step.ID
		views[i] = stepView{ID: anchorID(id), Number: i + 1, Title: richText(p.stepTitle(id)), Section: p.richProse("step/" + id),
			Runs: p.runs(sr), Chart: p.richChart("step-" + id), Unmeasured: len(sr.Step.Runs) == 0}
		if len(sr.Ranking) > 1 {
			views[i].Ranking = richJoin(loc.R("label", "Label", loc.R("step.result")), p.ranking(sr))
			if claim := p.claimFor("ranking", id); contradicts(claim) {
				views[i].Erratum = richJoin(loc.R("label", "Label", loc.R("erratum.label")), loc.R("erratum.ranking", "Printed", claim.Claim.Printed))
			}
		}
	}
	return views
}

// others are the runs of no step, made once a page; none is an empty
// list, which the templates leave out as they would nil.
func (p *reportPage) Others() []runView {
	return p.othersV.get(func() []runView { return p.runs(&report.StepResult{Runs: p.rep.Others}) })
}

func (p *reportPage) runs(sr *report.StepResult) []runView {
	loc := p.loc
	views := make([]runView, len(sr.Runs))
	for i := range sr.Runs {
		rr := &sr.Runs[i]
		v := &views[i]
		v.ID, v.Name = anchorID(rr.Run.ID), richText(rr.Run.Name)
		v.Command = richFence(rr.Run.Command, "bash", p.codeLabel)
		v.DerivedNote = p.derivedNote(rr.Run)
		if v.Failed = rr.Run.Failed(); v.Failed {
			v.Error = richJoin(loc.R("label", "Label", loc.R("run.failed")), richCode(rr.Run.Error), richFigure(" "), loc.R("run.failed_note"))
			continue
		}
		if rr.Block != nil {
			v.Raw = p.rawRepeats(rr.Run, rr.LogFile, rr.Block)
		}
		v.Outcome = p.outcome(sr, rr)
		for _, acc := range []rich{p.accuracy(rr.Run), accuracyAgainst(loc, sr.Reference, rr.Run)} {
			if acc.MD != "" {
				v.Outcome = loc.R("sentences", "First", v.Outcome, "Next", acc)
			}
		}
	}
	return views
}

// outcome is the line under a run's raw result: its headline against the
// step's reference, why it is not comparable, or that it has none.
func (p *reportPage) outcome(sr *report.StepResult, rr *report.RunResult) rich {
	loc := p.loc
	anchor := "run-" + anchorID(rr.Run.ID)
	switch {
	case rr.Excluded != "":
		out := richJoin(loc.R("label", "Label", loc.R("run.not_comparable")), loc.R("rule."+rr.Excluded, "Run", rr.Run.Name,
			"Served", serving.Parse(rr.Run.Command).Model, "Model", p.s.Model))
		if reason := p.ackRich(rr.Excluded, rr.Run.ID); reason.MD != "" {
			out = loc.R("sentences", "First", out, "Next", reason)
		}
		return out
	case rr.Headline != nil:
		out := loc.R("run.headline."+string(p.s.Objective), "Value", p.valueRich(rr.Headline, anchor))
		if rr.Change != nil {
			out = richJoin(out, loc.R("paren.after", "Text", loc.R("run.vs", "Change", p.changeRich(rr.Change, nil, anchor), "Run", sr.Reference.Run.Name)))
		} else if rr.Run.ID == sr.Step.Reference {
			out = richJoin(out, loc.R("paren.after", "Text", loc.R("run.reference")))
		}
		return out
	}
	return loc.R("run.no_main_result")
}

// accuracy writes a run's accuracy scores, each with its file and line,
// as a sentence to follow its throughput; zero without scores.
func (p *reportPage) accuracy(run *study.Run) rich {
	if len(run.Accuracy) == 0 {
		return rich{}
	}
	parts := make([]rich, len(run.Accuracy))
	for i, sc := range run.Accuracy {
		metric, _, _ := strings.Cut(sc.Metric, ",")
		parts[i] = richJoin(richText(sc.Task+" "+metric+" "),
			richLink(richText(sc.Raw), "#run-"+anchorID(run.ID), fmt.Sprintf("%s:%d", p.repoPath(sc.File), sc.Line)), stdErrText(p.loc, sc))
	}
	return p.loc.R("run.accuracy", "Scores", richList(p.loc.R("chart.list_separator"), parts...))
}

// ranking writes a step's comparable runs best first, ties joined by "≈".
func (p *reportPage) ranking(sr *report.StepResult) rich {
	rep := p.rep
	sep := richFigure(" > ")
	if !rep.Headline.HigherBetter {
		sep = richFigure(" < ")
	}
	var parts []rich
	for i, rr := range sr.Ranking {
		// Each figure links to its run, like every number of the page.
		figure := richLink(richFigure(rr.Headline.Expr()), "#run-"+anchorID(rr.Run.ID), p.valueTitle(rr.Headline))
		if rr.Headline.Repeated() {
			figure = p.loc.R("value.repeats", "Value", figure, "HalfWidth", richFigure(rr.Headline.HalfWidthExpr()), "N", rr.Headline.Repeats)
		}
		if i > 0 {
			// A run the ranking's family of comparisons cannot tell from
			// its group's first is tied with it (report.RankTies), so
			// every run tied with the best is named.
			if sr.RankTied[i] {
				parts = append(parts, richFigure(" ≈ "))
			} else {
				parts = append(parts, sep)
			}
		}
		parts = append(parts, richText(rr.Run.Name), p.loc.R("paren.after", "Text", richJoin(figure, richFigure(" "+rep.Headline.Unit))))
	}
	return richJoin(parts...)
}
