package render

import (
	"slices"
	"strings"

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

// trendView is one workload of a run's history as a table: a row per
// version, its headline and, on the main workload, its tails.
type trendView struct {
	Header []string
	Rows   [][]string
	Notes  []string // maintainers' reasons for its acknowledged regressions, under the table
}

// history is each run measured on earlier engine versions: its headline
// version by version and, on the main workload, its P99 TTFT and TPOT,
// with the regressions.
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

// trend is a workload's table: the headline's value and change, then
// each tail's on the same workload, version by version.
func (p *reportPage) trend(hr *report.HistoryResult, t *report.Trend, anchor string) trendView {
	loc := p.loc
	metrics := []*report.Trend{t}
	tv := trendView{Header: []string{loc.T("history.version"), esc(p.workloadName(t.Workload.ID)) + " (" + t.Metric.Unit + ")", loc.T("history.change")}}
	for i := range hr.Tails {
		if tl := &hr.Tails[i]; tl.Workload.ID == t.Workload.ID && len(tl.Points) == len(t.Points) {
			metrics = append(metrics, tl)
			tv.Header = append(tv.Header, p.metricName(tl.Metric.Key), loc.T("history.tail_change", "Metric", tailName(tl.Metric.Key)))
		}
	}
	acked := map[string]bool{}
	for i, pt := range t.Points {
		version := esc(pt.Version)
		if pt.Current {
			version += loc.T("aside", "Text", loc.T("history.current"))
		}
		row := []string{version}
		for _, m := range metrics {
			mp := &m.Points[i]
			row = append(row, p.historyValue(mp.Value, anchor), p.historyChange(mp, anchor))
			if !mp.Regression || acked[mp.Version] {
				continue
			}
			if reason := p.ackReason(check.RuleRegression, check.RegressionSubject(hr.Run.ID, t.Workload.ID, mp.Version)); reason != "" {
				acked[mp.Version] = true // one acknowledgement covers a version's tails
				tv.Notes = append(tv.Notes, "**"+esc(mp.Version)+"** · "+reason)
			}
		}
		tv.Rows = append(tv.Rows, row)
	}
	return tv
}

// tailName is a tail metric's short name in a column heading, "P99 TTFT".
func tailName(key string) string {
	return strings.ToUpper(strings.TrimSuffix(strings.Replace(key, "_", " ", 1), "_ms"))
}

// historyValue is a version's figure, its log's file and line on hover.
// The page shows no log of an earlier version: the figure links to its
// line in the repository when the site knows the repository, else to the
// history's table.
func (p *reportPage) historyValue(v *report.Value, anchor string) string {
	if v == nil {
		return "—"
	}
	link := sourced(v.Expr(), anchor, p.valueTitle(v))
	if p.r.RepoURL != "" && v.Source.File != "" && v.Source.Line > 0 {
		link = linked(v.Expr(), repoLines(p.r.RepoURL, p.repoPath(v.Source.File), v.Source.Line, 0), p.valueTitle(v))
	}
	s := p.repeats(v, link)
	if v.Projected() {
		s += p.loc.T("aside", "Text", p.loc.T("value.projected"))
	}
	return s
}

// historyChange is a version's change from the one before and, for a
// regression, the rule that found it.
func (p *reportPage) historyChange(pt *report.VersionPoint, anchor string) string {
	loc := p.loc
	if pt.Change == nil {
		return "—"
	}
	s := p.plainChange(pt.Change, anchor)
	if !pt.Regression {
		return s
	}
	s += " **" + loc.T("history.regression") + "**"
	if pt.Rule == report.RegressionDrift {
		return s + loc.T("history.drift", "Change", p.plainChange(pt.Drift, anchor), "Version", esc(pt.DriftFrom))
	}
	return s + loc.T("history.step")
}

// historyTails says which tails the tables add to the headline and the
// noise band each is judged by, or nothing when no run has them.
func (p *reportPage) historyTails() string {
	var keys []string
	for _, hr := range p.rep.History {
		for _, t := range hr.Tails {
			if !slices.Contains(keys, t.Metric.Key) {
				keys = append(keys, t.Metric.Key)
			}
		}
	}
	if len(keys) == 0 {
		return ""
	}
	bands := make([]string, len(keys))
	for i, k := range keys {
		bands[i] = p.loc.T("history.tail_band", "Metric", p.metricName(k), "Band", p.loc.figure(bandText(p.rep.BandOf(k).Percent)))
	}
	return p.loc.T("history.tails", "Metrics", strings.Join(bands, p.loc.T("chart.list_separator")), "Metric", p.metricName(p.rep.Headline.Key))
}

// noiseBand is the headline's noise band, "2.0 %".
func (p *reportPage) noiseBand() string { return bandText(p.rep.BandOf(p.rep.Headline.Key).Percent) }
