package render

import (
	"github.com/perflab/perflab/internal/study"
)

// otherCasesView is the "other cases" section, one view for both formats:
// the prose of content/, then the baseline's and the recommended
// configuration's result on every workload.
type otherCasesView struct {
	Prose rich
	Sides []side
}

// side is one configuration of the section.
type side struct {
	Title, Anchor string // a message id, and the anchor of the heading
	Cells         []sideCell
	// Command is the command every cell ran with, when they share one
	// (Same says how many); the cells then leave theirs empty.
	Command, Same rich
}

type sideCell struct {
	Anchor string // the side's anchor, then the workload's id
	// Heading is the case and the run's name; Command the run's command,
	// Raw its raw result.
	Heading, Command, Raw rich
}

// otherCases is the section's view, made once a page for both formats:
// the raw results are numbered targets where they are first shown.
func (p *reportPage) otherCases() *otherCasesView {
	if p.otherCasesTable != nil {
		return p.otherCasesTable
	}
	v := &otherCasesView{Prose: p.richProse("other-cases")}
	rp := p.rep
	for _, s := range []struct {
		runs          []*study.Run
		title, anchor string
	}{{rp.Baseline, "other.baseline", "baseline"}, {rp.Recommended, "other.optimized", "optimized"}} {
		v.Sides = append(v.Sides, p.side(s.runs, s.title, s.anchor))
	}
	p.otherCasesTable = v
	return v
}

// side is one configuration's results on the section's workloads.
func (p *reportPage) side(runs []*study.Run, title, anchor string) side {
	sd := side{Title: title, Anchor: anchor}
	cells := sideLogs(p.s, runs)
	same := len(cells) > 1
	for _, c := range cells {
		same = same && c.run.Command == cells[0].run.Command
		heading := richJoin(richText(p.workloadName(c.workload)), rich{" — ", " — "}, richText(c.run.Name))
		sd.Cells = append(sd.Cells, sideCell{Anchor: anchor + "-" + anchorID(c.workload), Heading: heading,
			Command: richFence(c.run.Command, "bash", p.reader.codeLabel), Raw: p.rawRepeatsRich(c.run, c.log.File, &c.log.Blocks[0])})
	}
	if same {
		// One command for every case: shown once, with a count.
		sd.Command, sd.Same = sd.Cells[0].Command, p.loc.R("other.same_command", "N", len(sd.Cells))
		for j := range sd.Cells {
			sd.Cells[j].Command = rich{}
		}
	}
	return sd
}

// sideLog is a workload's log of one of a side's runs.
type sideLog struct {
	workload string
	run      *study.Run
	log      *study.Log
}

// sideLogs are, for each workload that is no sweep (its section shows
// every point), the log of the first of runs that measured it.
func sideLogs(s *study.Study, runs []*study.Run) []sideLog {
	var out []sideLog
	for _, w := range s.Workloads {
		if w.Sweep != nil {
			continue
		}
		for _, run := range runs {
			if lg := findLog(run, w.ID); lg != nil {
				out = append(out, sideLog{w.ID, run, lg})
				break
			}
		}
	}
	return out
}

func findLog(run *study.Run, workload string) *study.Log {
	for i := range run.Logs {
		if run.Logs[i].Workload == workload && len(run.Logs[i].Blocks) > 0 {
			return &run.Logs[i]
		}
	}
	return nil
}
