package render

import (
	"github.com/perflab/perflab/internal/check"
	"github.com/perflab/perflab/internal/report"
)

// historyView is one run of the history section, ready Markdown.
type historyView struct {
	ID, Name string // run id; name, escaped
	Trends   []trendView
	Chart    string // the chart of its main trend as a Markdown image
	// Commands are the serving commands of versions measured with another
	// command than the run's, fenced.
	Commands []versionCommand
}

type versionCommand struct {
	Version string // escaped
	Command string // fenced
}

// trendView is one workload of a run's history: a row per version.
type trendView struct {
	Case  string // escaped
	Rows  []versionRow
	Notes []string // maintainers' reasons for its acknowledged regressions, under the table
}

type versionRow struct {
	Version, Value, Change string
}

// history is each run measured on earlier engine versions: its headline
// version by version, with the regressions.
func (p *reportPage) history() []historyView {
	var views []historyView
	for i := range p.rep.History {
		hr := &p.rep.History[i]
		anchor := "history-" + hr.Run.ID
		hv := historyView{ID: anchorID(hr.Run.ID), Name: esc(hr.Run.Name), Chart: p.chartImage(anchor)}
		for j := range hr.Trends {
			hv.Trends = append(hv.Trends, p.trend(hr, &hr.Trends[j], anchor))
		}
		for _, h := range hr.Run.History {
			if h.Command != "" {
				hv.Commands = append(hv.Commands, versionCommand{Version: esc(h.Version.Raw), Command: fence(h.Command, "bash")})
			}
		}
		views = append(views, hv)
	}
	return views
}

func (p *reportPage) trend(hr *report.HistoryResult, t *report.Trend, anchor string) trendView {
	loc := p.loc
	tv := trendView{Case: esc(p.workloadName(t.Workload.ID))}
	for _, pt := range t.Points {
		row := versionRow{Version: esc(pt.Version), Value: "—", Change: "—"}
		if pt.Current {
			row.Version += loc.T("aside", "Text", loc.T("history.current"))
		}
		if v := pt.Value; v != nil {
			row.Value = p.repeats(v, sourced(v.Expr(), anchor, p.valueTitle(v)))
			if v.Projected() {
				row.Value += loc.T("aside", "Text", loc.T("value.projected"))
			}
		}
		if pt.Change != nil {
			row.Change = p.plainChange(pt.Change, anchor)
		}
		if pt.Regression {
			row.Change += " **" + loc.T("history.regression") + "**"
			if pt.Rule == report.RegressionDrift {
				row.Change += loc.T("history.drift", "Change", p.plainChange(pt.Drift, anchor), "Version", esc(pt.DriftFrom))
			}
			if reason := p.ackReason(check.RuleRegression, check.RegressionSubject(hr.Run.ID, t.Workload.ID, pt.Version)); reason != "" {
				tv.Notes = append(tv.Notes, "**"+esc(pt.Version)+"** · "+reason)
			}
		}
		tv.Rows = append(tv.Rows, row)
	}
	return tv
}

// noiseBand is the headline's noise band, "2.0 %".
func (p *reportPage) noiseBand() string { return bandText(p.rep.BandOf(p.rep.Headline.Key).Percent) }
