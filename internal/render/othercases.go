package render

import (
	"github.com/perflab/perflab/internal/study"
)

// closingView is the sections after the all-runs table, each nil when
// the page has none: made once a page for both formats (closing).
type closingView struct {
	OtherCases    *otherCasesView
	Reproductions *reproductionsView
	Reproduce     *reproduceView
	Problems      *problemsView
	Feedback      *rich // the invitation to open an issue
}

func (p *reportPage) Closing() *closingView {
	// In page order: a raw result of the other cases has numbered lines
	// where the page first shows it (rawRich).
	return p.closingV.get(func() *closingView {
		return &closingView{p.otherCases(), p.reproductions(), p.reproduce(), p.problemList(), p.feedback()}
	})
}

// otherCasesView is the "other cases": the prose of content/, then the
// baseline's and the recommended configuration's result on every
// workload.
type otherCasesView struct {
	Prose rich
	Sides []side
}

// side is one configuration. Command is the command every cell ran with,
// when they share one (Same says how many); the cells then leave theirs
// empty.
type side struct {
	Title, Anchor string // a message id, the heading's anchor
	Cells         []sideCell
	Command, Same rich
}

// sideCell is a workload's case and run name, command and raw result.
type sideCell struct {
	Anchor                string
	Heading, Command, Raw rich
}

func (p *reportPage) otherCases() *otherCasesView {
	v := &otherCasesView{Prose: p.richProse("other-cases")}
	for _, s := range []struct {
		title, anchor string
		runs          []*study.Run
	}{{"other.baseline", "baseline", p.rep.Baseline}, {"other.optimized", "optimized", p.rep.Recommended}} {
		sd := side{Title: s.title, Anchor: s.anchor}
		ran, logs := sideLogs(p.s, s.runs)
		same := len(ran) > 1
		for i, run := range ran {
			same = same && run.Command == ran[0].Command
			sd.Cells = append(sd.Cells, sideCell{Anchor: sd.Anchor + "-" + anchorID(logs[i].Workload),
				Heading: richJoin(richText(p.workloadName(logs[i].Workload)), rich{" — ", " — "}, richText(run.Name)),
				Command: richFence(run.Command, "bash", p.codeLabel), Raw: p.rawRepeats(run, logs[i].File, &logs[i].Blocks[0])})
		}
		if same { // one command for every case: shown once, with a count
			sd.Command, sd.Same = sd.Cells[0].Command, p.loc.R("other.same_command", "N", len(sd.Cells))
			for j := range sd.Cells {
				sd.Cells[j].Command = rich{}
			}
		}
		v.Sides = append(v.Sides, sd)
	}
	return v
}

// sideLogs are, for each workload that is no sweep (its section shows
// every point), the first of runs that measured it and its log.
func sideLogs(s *study.Study, runs []*study.Run) (ran []*study.Run, logs []*study.Log) {
	for _, w := range s.Workloads {
		if w.Sweep != nil {
			continue
		}
	first:
		for _, run := range runs {
			for i := range run.Logs {
				if lg := &run.Logs[i]; lg.Workload == w.ID && len(lg.Blocks) > 0 {
					ran, logs = append(ran, run), append(logs, lg)
					break first
				}
			}
		}
	}
	return ran, logs
}
