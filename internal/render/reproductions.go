package render

import (
	"strings"

	"github.com/perflab/perflab/internal/report"
)

// reproducedView is a run with reproductions: a summary line per figure
// and a table row per figure and rerun, ready Markdown.
type reproducedView struct {
	ID, Name  string
	Summaries []string
	Rows      []reproRowView
}

type reproRowView struct {
	Case, Rerun, Original, Value, Change, Agrees, GPU, Version, Command string
}

// reproductions lays out every run that others reproduced.
func (p *reportPage) reproductions() []reproducedView {
	T := p.loc.T
	var views []reproducedView
	for _, rp := range report.Reproductions(p.s, p.rep.Headline) {
		anchor := "reproductions-" + rp.Run.ID
		v := reproducedView{ID: rp.Run.ID, Name: esc(rp.Run.Name)}
		for _, f := range rp.Figures {
			name := esc(p.workloadName(f.Workload))
			sum := T("reproductions.summary", "Case", name, "N", len(f.Reproductions), "Agree", f.Agree)
			var off []string
			for _, r := range f.Reproductions {
				if !r.Agrees && r.Change != nil {
					off = append(off, esc(r.Run.Name))
				}
				v.Rows = append(v.Rows, p.reproRow(name, f.Original, r, anchor))
			}
			if len(off) > 0 {
				sum = T("sentences", "First", sum, "Next", T("reproductions.disagree", "Runs", strings.Join(off, T("chart.list_separator"))))
			}
			v.Summaries = append(v.Summaries, sum)
		}
		views = append(views, v)
	}
	return views
}

func (p *reportPage) reproRow(name string, orig *report.Value, r report.Reproduction, anchor string) reproRowView {
	T := p.loc.T
	row := reproRowView{Case: name, Rerun: esc(r.Run.Name), Original: p.interval(orig, anchor), Value: T("reproductions.no_result"), Change: "—", Agrees: "—"}
	if r.Change != nil {
		row.Value = p.interval(r.RerunValue, anchor)
		row.Change = p.plainChange(r.Change, anchor)
		row.Agrees = yesNo(T, r.Agrees)
	}
	row.GPU = comparability(T, r.GPU, r.GPUs)
	row.Version = comparability(T, r.Version, r.Versions)
	row.Command = yesNo(T, len(r.Differences) == 0)
	return row
}

func yesNo(T func(string, ...any) string, yes bool) string {
	if yes {
		return T("reproductions.yes")
	}
	return T("reproductions.no")
}

// comparability writes a comparison: yes, unknown, or no with both values.
func comparability(T func(string, ...any) string, c report.Comparability, pair [2]string) string {
	switch c {
	case report.Same:
		return T("reproductions.yes")
	case report.Different:
		return T("reproductions.different", "Original", esc(pair[0]), "Rerun", esc(pair[1]))
	}
	return T("reproductions.unknown")
}
