package render

import (
	"github.com/perflab/perflab/internal/report"
)

// reproductionsView is the reproductions section.
type reproductionsView struct {
	Intro rich
	Unit  string // of the original and the rerun values
	Runs  []reproducedView
}

// reproducedView is a run with reproductions: a summary line per figure
// and a table row per figure and rerun.
type reproducedView struct {
	ID        string
	Heading   rich // the run's name and id
	Summaries []rich
	Rows      []reproRowView
}

type reproRowView struct {
	Case, Rerun, Original, Value, Change, Agrees, GPU, Version, Command rich
}

// reproductions lays out every run that others reproduced.
func (p *reportPage) reproductions() *reproductionsView {
	loc := p.loc
	var runs []reproducedView
	for _, rp := range report.Reproductions(p.s, p.rep.Headline) {
		anchor := "reproductions-" + rp.Run.ID
		v := reproducedView{ID: rp.Run.ID, Heading: nameAndID(rp.Run.Name, rp.Run.ID)}
		for _, f := range rp.Figures {
			name := richText(p.workloadName(f.Workload))
			sum := loc.R("reproductions.summary", "Case", name, "N", len(f.Reproductions), "Agree", f.Agree)
			var off []rich
			for _, r := range f.Reproductions {
				if !r.Agrees && r.Change != nil {
					off = append(off, richText(r.Run.Name))
				}
				v.Rows = append(v.Rows, p.reproRow(name, f.Original, r, anchor))
			}
			if len(off) > 0 {
				sum = loc.R("sentences", "First", sum, "Next", loc.R("reproductions.disagree", "Runs", richList(loc.R("chart.list_separator"), off...)))
			}
			v.Summaries = append(v.Summaries, sum)
		}
		runs = append(runs, v)
	}
	if runs == nil {
		return nil
	}
	return &reproductionsView{Runs: runs, Unit: p.rep.Headline.Unit,
		Intro: loc.R("reproductions.intro", "Metric", richFigure(p.metricName(p.rep.Headline.Key)), "Band", richFigure(p.noiseBand()))}
}

func (p *reportPage) reproRow(name rich, orig *report.Value, r report.Reproduction, anchor string) reproRowView {
	loc := p.loc
	row := reproRowView{Case: name, Rerun: richText(r.Run.Name), Original: p.intervalRich(orig, anchor),
		Value: loc.R("reproductions.no_result"), Change: richFigure("—"), Agrees: richFigure("—"),
		GPU: comparability(loc, r.GPU, r.GPUs), Version: comparability(loc, r.Version, r.Versions), Command: yesNo(loc, len(r.Differences) == 0)}
	if r.Change != nil {
		row.Value = p.intervalRich(r.RerunValue, anchor)
		row.Change = p.plainChangeRich(r.Change, anchor)
		row.Agrees = yesNo(loc, r.Agrees)
	}
	return row
}

func yesNo(loc *localizer, yes bool) rich {
	if yes {
		return loc.R("reproductions.yes")
	}
	return loc.R("reproductions.no")
}

// comparability writes a comparison: yes, unknown, or no with both values.
func comparability(loc *localizer, c report.Comparability, pair [2]string) rich {
	switch c {
	case report.Same:
		return loc.R("reproductions.yes")
	case report.Different:
		return loc.R("reproductions.different", "Original", pair[0], "Rerun", pair[1])
	}
	return loc.R("reproductions.unknown")
}
