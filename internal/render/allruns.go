package render

import (
	htmltemplate "html/template"
	"strconv"
	"strings"

	"github.com/perflab/perflab/internal/plain"
	"github.com/perflab/perflab/internal/report"
	"github.com/perflab/perflab/internal/study"
)

// allRunsView is the all-runs table of a report, a column per run and a
// row per metric of each workload: one view that report.md.tmpl writes as
// Markdown and report.html.tmpl as HTML.
type allRunsView struct {
	Intro string
	Runs  []allRunsColumn
	Rows  []allRunsRow
	// Compare holds what the page's script compares two columns with;
	// nil when the table is too large to judge every pair, and the page
	// then has no script for it.
	Compare *compareView
}

// allRunsColumn is a run's column: its name, linked to the run's
// section when the page has one.
type allRunsColumn struct {
	ID   string
	Link rich
}

type allRunsRow struct {
	Case   rich // the workload's name, on each row: it stays in view as the table scrolls
	Metric rich
	Cells  rich // the values' cells, written at once (joinCells)
	cells  []allRunsCell
	// For the script: whether higher is better, the metric's noise band
	// in percent (report.Band) and the pairs of columns ("0-3") not
	// comparable on this row, which get no change.
	HigherBetter bool
	Band, Unlike string
}

// allRunsCell is a value linked to where it was read ("—" for none), and
// its cell's attributes, escaped. For the script, which runs no test of
// its own: data-v (the measured value, the shortest text that reads back
// as the same float64), data-replicas when projected, data-t (the
// verdict of the change from each column to it: '1' measurable, '0' not,
// '-' no value); without a script, data-label.
type allRunsCell struct {
	link  rich
	attrs string
}

// joinCells writes a row's cells in both formats, as the templates did:
// html/template spent more on a table's hundreds of cells, a reflected
// call an action, than on the rest of the page (docs/performance.md).
func joinCells(cells []allRunsCell) rich {
	var md, html strings.Builder
	for _, c := range cells {
		md.WriteString(" " + c.link.MD + " |")
		html.WriteString("<td" + c.attrs + ">" + string(c.link.HTML) + "</td>\n")
	}
	return rich{md.String(), htmltemplate.HTML(html.String())}
}

// compareView are the table's data attributes: the columns shown first,
// the labels of the page's language and, for each pair of columns not
// measured like for like, its sentence (data-like-A-B).
type compareView struct {
	First, Second                        int
	LabelFirst, LabelSecond, LabelChange string
	NoiseText, UnlikeText                string
	Likeness                             []htmltemplate.HTMLAttr
}

// newCompareView gives the all-runs table its data attributes and its
// rows theirs.
func newCompareView(t *report.AllRuns, v *allRunsView, loc *localizer, rep *report.Report) *compareView {
	c := &compareView{First: t.First, Second: t.Second,
		LabelFirst: loc.T("allruns.first"), LabelSecond: loc.T("allruns.second"), LabelChange: loc.T("allruns.change"),
		NoiseText: loc.T("change.noise"), UnlikeText: loc.T("allruns.unlike")}
	for i, row := range t.Rows {
		band := rowBand(rep, row)
		rv := &v.Rows[i]
		rv.HigherBetter, rv.Band = row.Metric.HigherBetter, strconv.FormatFloat(band.Percent, 'g', -1, 64)
		for j, val := range row.Values {
			if val == nil {
				continue
			}
			// The page multiplies data-v by the replicas as Value.Effective does.
			attrs := ` data-v="` + strconv.FormatFloat(val.Measured, 'g', -1, 64) + `"`
			if val.Projected() {
				attrs += ` data-replicas="` + strconv.Itoa(val.Replicas) + `"`
			}
			rv.cells[j].attrs = attrs + ` data-t="` + testsTo(band, row, val) + `"`
		}
	}
	c.addLikeness(rep.PairLikenesses(t), v, loc)
	return c
}

// testsTo writes the verdicts of the changes from each column of a row to
// a mean of repeats (see compareRowAttrs.tests): the page cannot run the
// tests, and must give report's answers.
func testsTo(band report.Band, row report.AllRunsRow, to *report.Value) string {
	b := make([]byte, len(row.Values))
	for k, from := range row.Values {
		switch {
		case from == nil:
			b[k] = '-'
		case report.DistinctAt(band, *from, *to):
			b[k] = '1'
		default:
			b[k] = '0'
		}
	}
	return string(b)
}

// rowBand is the noise band of a row of the all-runs table: its metric's,
// or, at a load of a sweep, its metric's at that load.
func rowBand(rep *report.Report, row report.AllRunsRow) report.Band {
	if row.Load != nil {
		return rep.LoadBand(row.Metric.Key, row.Workload, row.Load.Value)
	}
	return rep.BandOf(row.Metric.Key)
}

// allRunsID is the anchor of the all-runs section's heading.
const allRunsID = "all-runs"

// allRuns is the table of every comparable run's figures on every
// workload, made once a page for both formats.
func (p *reportPage) AllRuns() *allRunsView { return p.allRunsV.get(p.makeAllRuns) }

// makeAllRuns makes the all-runs table: each value links to where it was
// read (allRunsLink), each run's name to its section when the page has one.
func (p *reportPage) makeAllRuns() *allRunsView {
	t := p.rep.AllRuns()
	if t == nil {
		return nil
	}
	loc := p.loc
	sections, shown := runSections(p.rep)
	v := &allRunsView{Intro: loc.T("allruns.intro")}
	for _, run := range t.Runs {
		col := allRunsColumn{ID: plain.Line(run.ID), Link: richText(run.Name)}
		if sections[run.ID] {
			col.Link = richLink(col.Link, "#run-"+anchorID(run.ID), "")
		}
		v.Runs = append(v.Runs, col)
	}
	for _, row := range t.Rows {
		name := p.workloadName(row.Workload)
		if row.Load != nil { // a sweep, load by load
			name += " · " + loc.T("sweep.at."+row.LoadKey, "Load", plain.Line(row.Load.Raw))
		}
		rv := allRunsRow{Case: richText(name), Metric: richText(loc.T("metric." + row.Metric.Key)), cells: make([]allRunsCell, len(row.Values))}
		for j, val := range row.Values {
			rv.cells[j].link = richFigure("—")
			if val != nil {
				rv.cells[j].link = p.allRunsLink(val, shown, sections)
			}
		}
		v.Rows = append(v.Rows, rv)
	}
	if t.Judged {
		v.Compare = newCompareView(t, v, loc, p.rep)
	} else {
		for _, row := range v.Rows {
			for j := range row.cells { // a phone shows each value under its run's name
				row.cells[j].attrs = ` data-label="` + htmltemplate.HTMLEscapeString(plain.Line(t.Runs[j].Name)) + `"`
			}
		}
		// Too many runs to judge every pair: the page offers no comparison
		// of two columns, rather than one that may mix unlike runs.
		v.Intro = loc.T("allruns.intro_many", "Runs", len(t.Runs))
	}
	for i := range v.Rows {
		v.Rows[i].Cells = joinCells(v.Rows[i].cells)
	}
	return v
}

// allRunsLink links a value to its line where the page shows its log;
// else to the line in the repository, to its run, or at least names its
// file and line in its title. Its title is where it was read, the check
// status and label of the report's other figures left out: the table has
// many.
func (p *reportPage) allRunsLink(v *report.Value, shown, sections map[string]bool) rich {
	title := p.repoPath(v.Source.File) + ":" + strconv.Itoa(v.Source.Line)
	if v.Projected() {
		title += " " + p.loc.T("source.projected", "Formula", v.Expr(), "Replicas", v.Replicas, "GPUs", v.GPUs)
	}
	href := "#" + allRunsID
	switch {
	case shown[v.Source.File] && v.Source.Line > 0:
		href = "#" + LineID(p.repoPath(v.Source.File), v.Source.Line)
	case p.r.RepoURL != "":
		href = repoLines(p.r.RepoURL, p.repoPath(v.Source.File), v.Source.Line, 0)
	case sections[v.Run]:
		href = "#run-" + anchorID(v.Run)
	}
	return p.link(richFigure(v.Expr()), href, title)
}

// runSections are the runs the page shows under their own heading
// ("#run-<id>"): those of the steps and the other runs. shown are the logs
// whose result the page shows, each line with its id: every such run's
// main result and each workload of the two compared configurations.
func runSections(rep *report.Report) (sections, shown map[string]bool) {
	sections, shown = map[string]bool{}, map[string]bool{}
	add := func(rr report.RunResult) {
		sections[rr.Run.ID] = true
		if rr.Block != nil && !rr.Run.Failed() {
			shown[rr.LogFile] = true
		}
	}
	for _, sr := range rep.Steps {
		for _, rr := range sr.Runs {
			add(rr)
		}
	}
	for _, rr := range rep.Others {
		add(rr)
	}
	for _, runs := range [][]*study.Run{rep.Baseline, rep.Recommended} {
		_, logs := sideLogs(rep.Study, runs)
		for _, lg := range logs {
			shown[lg.File] = true
		}
	}
	return sections, shown
}
