package render

import (
	"slices"
	"strings"

	"github.com/perflab/perflab/internal/check"
	"github.com/perflab/perflab/internal/report"
)

// historySection is the history section in both formats: its intro,
// the tails its tables add, and a view per run.
type historySection struct {
	Intro, Tails rich
	Runs         []historyView
}

// historyView is one run of the history section.
type historyView struct {
	ID     string
	Name   rich
	Trends []trendView
	Chart  rich // the chart of its main trend
	// Commands are the serving commands of versions measured with another
	// command than the run's.
	Commands []versionCommand
}

type versionCommand struct {
	Title, Command rich // the line naming the version; the command as a block
}

// trendView is one workload of a run's history as a table: a row per
// version, its headline and, on the main workload, its tails.
type trendView struct {
	Header []historyCell
	Rows   [][]historyCell
	Notes  []rich // maintainers' reasons for its acknowledged regressions, under the table
}

// historyCell is a cell of a history table and its column's header as
// text, which the HTML labels the cell with on a narrow screen.
type historyCell struct {
	rich
	Label string
}

// history is each run measured on earlier engine versions: its headline
// version by version and, on the main workload, its P99 TTFT and TPOT,
// with the regressions; made once a page, nil without history.
func (p *reportPage) History() *historySection { return p.historyV.get(p.makeHistory) }

func (p *reportPage) makeHistory() *historySection {
	if len(p.rep.History) == 0 {
		return nil
	}
	loc := p.loc
	h := &historySection{Tails: p.historyTails(),
		Intro: loc.R("history.intro", "Metric", loc.R("metric."+p.rep.Headline.Key), "Band", richFigure(p.noiseBand()), "Window", report.HistoryWindow)}
	for i := range p.rep.History {
		hr := &p.rep.History[i]
		anchor := "history-" + hr.Run.ID
		hv := historyView{ID: anchorID(hr.Run.ID), Name: richText(hr.Run.Name), Chart: p.richChart(anchor)}
		for j := range hr.Trends {
			hv.Trends = append(hv.Trends, p.trend(hr, &hr.Trends[j], anchor))
		}
		for _, v := range hr.Run.History {
			if v.Command != "" {
				hv.Commands = append(hv.Commands, versionCommand{Title: loc.R("history.command", "Version", v.Version.Raw),
					Command: richFence(v.Command, "bash", p.codeLabel)})
			}
		}
		h.Runs = append(h.Runs, hv)
	}
	return h
}

// trend is a workload's table: the headline's value and change, then
// each tail's on the same workload, version by version.
func (p *reportPage) trend(hr *report.HistoryResult, t *report.Trend, anchor string) trendView {
	loc := p.loc
	metrics := []*report.Trend{t}
	name := p.workloadName(t.Workload.ID)
	unit := " (" + t.Metric.Unit + ")"
	tv := trendView{Header: []historyCell{{loc.R("history.version"), loc.T("history.version")},
		{richJoin(richText(name), richFigure(unit)), name + unit}, {loc.R("history.change"), loc.T("history.change")}}}
	for i := range hr.Tails {
		if tl := &hr.Tails[i]; tl.Workload.ID == t.Workload.ID && len(tl.Points) == len(t.Points) {
			metrics = append(metrics, tl)
			change := loc.T("history.tail_change", "Metric", tailName(tl.Metric.Key))
			tv.Header = append(tv.Header, historyCell{loc.R("metric." + tl.Metric.Key), p.metricName(tl.Metric.Key)},
				historyCell{loc.R("history.tail_change", "Metric", richFigure(tailName(tl.Metric.Key))), change})
		}
	}
	acked := map[string]bool{}
	for i, pt := range t.Points {
		version := richText(pt.Version)
		if pt.Current {
			version = richJoin(version, loc.R("aside", "Text", loc.R("history.current")))
		}
		row := []historyCell{{version, tv.Header[0].Label}}
		for k, m := range metrics {
			mp := &m.Points[i]
			row = append(row, historyCell{p.historyValue(mp.Value, anchor), tv.Header[1+2*k].Label},
				historyCell{p.historyChange(mp, anchor), tv.Header[2+2*k].Label})
			if !mp.Regression || acked[mp.Version] {
				continue
			}
			if reason := p.ackRich(check.RuleRegression, check.RegressionSubject(hr.Run.ID, t.Workload.ID, mp.Version)); reason.MD != "" {
				acked[mp.Version] = true // one acknowledgement covers a version's tails
				tv.Notes = append(tv.Notes, richJoin(richStrong(richText(mp.Version)), richFigure(" · "), reason))
			}
		}
		tv.Rows = append(tv.Rows, row)
	}
	return tv
}

// richStrong is a piece in bold.
func richStrong(r rich) rich {
	return rich{"**" + r.MD + "**", "<strong>" + r.HTML + "</strong>"}
}

// tailName is a tail metric's short name in a column heading, "P99 TTFT".
func tailName(key string) string {
	return strings.ToUpper(strings.TrimSuffix(strings.Replace(key, "_", " ", 1), "_ms"))
}

// historyValue is a version's figure, its log's file and line on hover.
// The page shows no log of an earlier version: the figure links to its
// line in the repository when the site knows the repository, else to the
// history's table.
func (p *reportPage) historyValue(v *report.Value, anchor string) rich {
	if v == nil {
		return richFigure("—")
	}
	href := "#" + anchor
	if p.r.RepoURL != "" && v.Source.File != "" && v.Source.Line > 0 {
		href = repoLines(p.r.RepoURL, p.repoPath(v.Source.File), v.Source.Line, 0)
	}
	return p.valueLinked(v, href)
}

// historyChange is a version's change from the one before and, for a
// regression, the rule that found it.
func (p *reportPage) historyChange(pt *report.VersionPoint, anchor string) rich {
	loc := p.loc
	if pt.Change == nil {
		return richFigure("—")
	}
	s := p.plainChangeRich(pt.Change, anchor)
	if !pt.Regression {
		return s
	}
	s = richJoin(s, richFigure(" "), richStrong(loc.R("history.regression")))
	if pt.Rule == report.RegressionDrift {
		return richJoin(s, loc.R("history.drift", "Change", p.plainChangeRich(pt.Drift, anchor), "Version", pt.DriftFrom))
	}
	return richJoin(s, loc.R("history.step"))
}

// historyTails says which tails the tables add to the headline and the
// noise band each is judged by; zero when no run has them.
func (p *reportPage) historyTails() rich {
	var keys []string
	for _, hr := range p.rep.History {
		for _, t := range hr.Tails {
			if !slices.Contains(keys, t.Metric.Key) {
				keys = append(keys, t.Metric.Key)
			}
		}
	}
	if len(keys) == 0 {
		return rich{}
	}
	bands := make([]rich, len(keys))
	for i, k := range keys {
		bands[i] = p.loc.R("history.tail_band", "Metric", p.loc.R("metric."+k), "Band", richFigure(p.loc.Figure(report.FormatBand(p.rep.BandOf(k).Percent))))
	}
	return p.loc.R("history.tails", "Metrics", richList(p.loc.R("chart.list_separator"), bands...), "Metric", p.loc.R("metric."+p.rep.Headline.Key))
}

// noiseBand is the headline's noise band, "2.0 %".
func (p *reportPage) noiseBand() string {
	return report.FormatBand(p.rep.BandOf(p.rep.Headline.Key).Percent)
}
