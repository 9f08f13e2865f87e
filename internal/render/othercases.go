package render

import (
	"github.com/perflab/perflab/internal/benchlog"
	"github.com/perflab/perflab/internal/report"
	"github.com/perflab/perflab/internal/study"
)

// side is one configuration of the "other cases" section.
type side struct {
	Title, Anchor string
	Cells         []sideCell
	// Command is the fenced command every cell ran with, when they share
	// one (Count cells); the cells then leave theirs empty.
	Command string
	Count   int
}

type sideCell struct {
	Workload string
	Anchor   string // the workload's id as its anchor ends
	Run      *study.Run
	LogFile  string
	Block    *benchlog.Block
	// Ready Markdown: the case and the run's name, escaped; its command and
	// its raw result as fenced blocks.
	Case, Name, Command, Raw string
}

// sides are the baseline's and the recommended configuration's result on
// every workload.
func (p *reportPage) sides(rp *report.Report) []side {
	sides := []side{sideOf(rp, rp.Baseline, "other.baseline", "baseline"), sideOf(rp, rp.Recommended, "other.optimized", "optimized")}
	for i := range sides {
		sd := &sides[i]
		same := len(sd.Cells) > 1
		for j := range sd.Cells {
			cl := &sd.Cells[j]
			cl.Case, cl.Name = esc(p.workloadName(cl.Workload)), esc(cl.Run.Name)
			cl.Command, cl.Raw = fence(cl.Run.Command, "bash"), p.rawRepeats(cl.Run, cl.LogFile, cl.Block).md
			same = same && cl.Run.Command == sd.Cells[0].Run.Command
		}
		if same {
			// One command for every case: shown once, with a count.
			sd.Command, sd.Count = sd.Cells[0].Command, len(sd.Cells)
			for j := range sd.Cells {
				sd.Cells[j].Command = ""
			}
		}
	}
	return sides
}

func sideOf(rp *report.Report, runs []*study.Run, title, anchor string) side {
	sd := side{Title: title, Anchor: anchor}
	for _, w := range rp.Study.Workloads {
		if w.Sweep != nil {
			continue // its section shows every point
		}
		for _, run := range runs {
			if lg := findLog(run, w.ID); lg != nil {
				sd.Cells = append(sd.Cells, sideCell{Workload: w.ID, Anchor: anchorID(w.ID), Run: run, LogFile: lg.File, Block: &lg.Blocks[0]})
				break
			}
		}
	}
	return sd
}

func findLog(run *study.Run, workload string) *study.Log {
	for i := range run.Logs {
		if run.Logs[i].Workload == workload && len(run.Logs[i].Blocks) > 0 {
			return &run.Logs[i]
		}
	}
	return nil
}
