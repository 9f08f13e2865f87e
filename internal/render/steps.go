package render

import (
	"fmt"
	"strings"

	"github.com/perflab/perflab/internal/report"
	"github.com/perflab/perflab/internal/serving"
	"github.com/perflab/perflab/internal/study"
)

// stepView is one step of the optimization path, ready Markdown, so that
// the template keeps the step's structure without a call per detail.
type stepView struct {
	ID      string
	Number  int
	Title   string // escaped
	Section string // the step's prose from content/, Markdown
	Runs    []runView
	Chart   string // the step's chart as a Markdown image, or empty
	// Unmeasured: the source lists the option but publishes no run of it.
	Unmeasured bool
	Ranking    string  // comparable runs best first, linked; empty with fewer than two
	Erratum    erratum // the published ranking, when the logs give another
}

// runView is one run of a step, its Markdown made ready in Go so that the
// template, which keeps the section's structure, does little per run.
type runView struct {
	ID      string
	Name    string // escaped
	Command string // fenced
	// DerivedNote says what a command that was not recorded was rebuilt
	// from; empty for a command as it was run.
	DerivedNote string
	Failed      bool
	Error       string // the failed run's error
	Raw         string // the raw result as a fenced log block; empty without one
	Outcome     string // headline, exclusion or "no main result" line
}

func (p *reportPage) steps() []stepView {
	views := make([]stepView, len(p.rep.Steps))
	for i := range p.rep.Steps {
		sr := &p.rep.Steps[i]
		id := sr.Step.ID
		views[i] = stepView{ID: anchorID(id), Number: i + 1, Title: esc(p.stepTitle(id)), Section: p.r.prose(p.c.Sections["step/"+id].Markdown),
			Runs: p.runs(sr), Chart: p.chartImage("step-" + id), Unmeasured: len(sr.Step.Runs) == 0}
		if len(sr.Ranking) > 1 {
			views[i].Ranking = p.ranking(sr)
			views[i].Erratum = erratumOf(p.claimFor("ranking", id))
		}
	}
	return views
}

// others are the runs of no step.
func (p *reportPage) others() []runView {
	if len(p.rep.Others) == 0 {
		return nil
	}
	return p.runs(&report.StepResult{Runs: p.rep.Others})
}

func (p *reportPage) runs(sr *report.StepResult) []runView {
	views := make([]runView, len(sr.Runs))
	for i := range sr.Runs {
		rr := &sr.Runs[i]
		v := &views[i]
		v.ID, v.Name = anchorID(rr.Run.ID), esc(rr.Run.Name)
		v.Command, v.DerivedNote = fence(rr.Run.Command, "bash"), p.derivedNote(rr.Run).md
		if v.Failed = rr.Run.Failed(); v.Failed {
			v.Error = code(rr.Run.Error)
			continue
		}
		if rr.Block != nil {
			v.Raw = p.rawRepeats(rr.Run, rr.LogFile, rr.Block)
		}
		v.Outcome = p.outcome(sr, rr)
		for _, acc := range []string{p.accuracy(rr.Run), accuracyAgainst(p.loc, sr.Reference, rr.Run)} {
			if acc != "" {
				v.Outcome = p.loc.T("sentences", "First", v.Outcome, "Next", acc)
			}
		}
	}
	return views
}

// outcome is the line under a run's raw result: its headline against the
// step's reference, why it is not comparable, or that it has none.
func (p *reportPage) outcome(sr *report.StepResult, rr *report.RunResult) string {
	loc := p.loc
	anchor := "run-" + anchorID(rr.Run.ID)
	switch {
	case rr.Excluded != "":
		out := loc.T("label", "Label", loc.T("run.not_comparable")) + loc.T("rule."+rr.Excluded, "Run", esc(rr.Run.Name),
			"Served", esc(serving.Parse(rr.Run.Command).Model), "Model", esc(p.s.Model))
		if reason := p.ackReason(rr.Excluded, rr.Run.ID); reason != "" {
			out = loc.T("sentences", "First", out, "Next", reason)
		}
		return out
	case rr.Headline != nil:
		out := loc.T("run.headline."+string(p.s.Objective), "Value", p.value(rr.Headline, anchor))
		if rr.Change != nil {
			out += loc.T("paren.after", "Text", loc.T("run.vs", "Change", p.changeLink(rr.Change, nil, anchor), "Run", esc(sr.Reference.Run.Name)))
		} else if rr.Run.ID == sr.Step.Reference {
			out += loc.T("paren.after", "Text", loc.T("run.reference"))
		}
		return out
	}
	return loc.T("run.no_main_result")
}

// accuracy writes a run's accuracy scores, each with its file and line,
// as a sentence to follow its throughput.
func (p *reportPage) accuracy(run *study.Run) string {
	if len(run.Accuracy) == 0 {
		return ""
	}
	var parts []string
	for _, sc := range run.Accuracy {
		metric, _, _ := strings.Cut(sc.Metric, ",")
		parts = append(parts, esc(sc.Task)+" "+esc(metric)+" "+sourced(esc(sc.Raw), "run-"+anchorID(run.ID), fmt.Sprintf("%s:%d", p.repoPath(sc.File), sc.Line))+stdErrText(p.loc, sc))
	}
	return p.loc.T("run.accuracy", "Scores", strings.Join(parts, p.loc.T("chart.list_separator")))
}

// ranking writes a step's comparable runs best first, ties joined by "≈".
func (p *reportPage) ranking(sr *report.StepResult) string {
	rep := p.rep
	sep := " > "
	if !rep.Headline.HigherBetter {
		sep = " < "
	}
	var out strings.Builder
	for i, rr := range sr.Ranking {
		// Each figure links to its run, like every number of the page.
		figure := p.repeats(rr.Headline, sourced(rr.Headline.Expr(), "run-"+anchorID(rr.Run.ID), p.valueTitle(rr.Headline)))
		if i > 0 {
			// A run the ranking's family of comparisons cannot tell from
			// its group's first is tied with it (report.RankTies), so
			// every run tied with the best is named.
			if sr.RankTied[i] {
				out.WriteString(" ≈ ")
			} else {
				out.WriteString(sep)
			}
		}
		out.WriteString(esc(rr.Run.Name) + p.loc.T("paren.after", "Text", figure+" "+rep.Headline.Unit))
	}
	return out.String()
}
