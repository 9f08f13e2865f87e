package render

import (
	"strconv"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"

	"github.com/perflab/perflab/internal/report"
	"github.com/perflab/perflab/internal/study"
)

// allRunsView is the all-runs table of a report, its cells ready Markdown:
// a column per run, a row per metric of each workload.
type allRunsView struct {
	Intro string
	Runs  []string // the runs' names, each linked to its section
	Rows  []allRunsRowView
}

type allRunsRowView struct {
	Case   string // the workload's name, on each row: it stays in view as the table scrolls
	Metric string
	Cells  []string // a value linked to its log line, or "—"
}

// compareAttrs are the data attributes the HTML page gives the all-runs
// table, so that its script compares two columns from the numbers
// themselves, never from their formatted text: on the table the columns
// shown first, the noise band and the labels of the page's language; on
// each body row whether higher is better; on each cell its measured value
// and, when projected, its replicas: a change compares effective values
// (measured x replicas), as every change of a report does.
type compareAttrs struct {
	table [][2]string // name, value
	runs  []string    // the columns' run ids, for the header's cells
	rows  []compareRowAttrs
}

type compareRowAttrs struct {
	higherBetter bool
	values       []string // by column; "" where the run has none
	replicas     []string // by column; "" where the value is not projected
	// tests holds, by column with a value, the verdict of the change from
	// each column to it: '1' measurable, '0' not, '-' where the other
	// column has no value. The page runs no test of its own: one run a
	// side is tested against the metric's assumed variation, as on the
	// report.
	tests []string
	band  string // the metric's noise band in percent (report.Band)
	// unlike lists the pairs of columns ("0-3") not comparable on this
	// row: the page prints no change for them.
	unlike string
}

// newCompareAttrs gives the all-runs table its data attributes.
func newCompareAttrs(t *report.AllRuns, loc *localizer, rep *report.Report) *compareAttrs {
	a := &compareAttrs{table: [][2]string{
		{"data-compare", ""},
		{"data-first", strconv.Itoa(t.First)},
		{"data-second", strconv.Itoa(t.Second)},
		{"data-label-first", loc.T("allruns.first")},
		{"data-label-second", loc.T("allruns.second")},
		{"data-label-change", loc.T("allruns.change")},
		{"data-noise-text", loc.T("change.noise")},
		{"data-unlike-text", loc.T("allruns.unlike")},
	}}
	for _, run := range t.Runs {
		a.runs = append(a.runs, run.ID)
	}
	for _, row := range t.Rows {
		band := rowBand(rep, row)
		ra := compareRowAttrs{higherBetter: row.Metric.HigherBetter, values: make([]string, len(row.Values)),
			replicas: make([]string, len(row.Values)), tests: make([]string, len(row.Values)),
			band: strconv.FormatFloat(band.Percent, 'g', -1, 64)}
		for i, v := range row.Values {
			if v == nil {
				continue
			}
			// The shortest text that reads back as the same float64; the
			// page multiplies it by the replicas as Value.Effective does.
			ra.values[i] = strconv.FormatFloat(v.Measured, 'g', -1, 64)
			if v.Projected() {
				ra.replicas[i] = strconv.Itoa(v.Replicas)
			}
			ra.tests[i] = testsTo(band, row, v)
		}
		a.rows = append(a.rows, ra)
	}
	a.addLikeness(rep.PairLikenesses(t), loc)
	return a
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

// compareKey holds a page's compareAttrs in goldmark's parser context.
var compareKey = parser.NewContextKey()

// allRunsID is the anchor of the all-runs section's heading; its table is
// the first one after it.
const allRunsID = "all-runs"

// compareTable puts the data attributes of the page's all-runs table, if
// the page has one, on the first table after the heading anchored
// allRunsID. A table of another shape than the attributes (prose that
// reuses the anchor) gets none, and the page no script behaviour.
type compareTable struct{}

func (compareTable) Transform(doc *ast.Document, _ text.Reader, pc parser.Context) {
	a, _ := pc.Get(compareKey).(*compareAttrs)
	if a == nil {
		return
	}
	table, _ := firstAllRunsTable(doc.FirstChild()).(*east.Table)
	if table == nil || !a.fits(table) {
		return
	}
	for _, kv := range a.table {
		table.SetAttributeString(kv[0], []byte(kv[1]))
	}
	i := 0
	for row := table.FirstChild(); row != nil; row = row.NextSibling() {
		if _, ok := row.(*east.TableHeader); ok {
			cell := row.FirstChild().NextSibling().NextSibling()
			for _, id := range a.runs {
				cell.SetAttributeString("data-run", []byte(id))
				cell = cell.NextSibling()
			}
			continue
		}
		ra := a.rows[i]
		i++
		better := "0"
		if ra.higherBetter {
			better = "1"
		}
		row.SetAttributeString("data-higher-better", []byte(better))
		row.SetAttributeString("data-band", []byte(ra.band))
		if ra.unlike != "" {
			row.SetAttributeString("data-unlike", []byte(ra.unlike))
		}
		cell := row.FirstChild().NextSibling().NextSibling() // after the case and the metric
		for j, v := range ra.values {
			if v != "" {
				cell.SetAttributeString("data-v", []byte(v))
			}
			if x := ra.replicas[j]; x != "" {
				cell.SetAttributeString("data-replicas", []byte(x))
			}
			if x := ra.tests[j]; x != "" {
				cell.SetAttributeString("data-t", []byte(x))
			}
			cell = cell.NextSibling()
		}
	}
}

func bytesEqual(v any, s string) bool {
	b, ok := v.([]byte)
	return ok && string(b) == s
}

// fits reports whether table has a header and a body row for each row of
// attributes, each with the case, the metric and a cell per column.
func (a *compareAttrs) fits(table *east.Table) bool {
	var rows []int
	for row := table.FirstChild(); row != nil; row = row.NextSibling() {
		if _, ok := row.(*east.TableHeader); ok {
			if row.ChildCount() != 2+len(a.runs) {
				return false
			}
			continue
		}
		rows = append(rows, row.ChildCount())
	}
	if len(rows) != len(a.rows) {
		return false
	}
	for i, n := range rows {
		if n != 2+len(a.rows[i].values) {
			return false
		}
	}
	return true
}

// allRuns is the table of every comparable run's figures on every
// workload; the page then carries the script that compares two runs.
func (p *reportPage) allRuns() *allRunsView {
	t := p.rep.AllRuns()
	if t == nil {
		return nil
	}
	shown, sections := shownLogs(p.rep), runSections(p.rep)
	link := func(v *report.Value) string { return p.allRunsLink(v, shown, sections) }
	v := allRunsOf(t, p.loc, p.workloadName, link, sections)
	v.Intro = p.loc.T("allruns.intro")
	if t.Judged {
		p.compare = newCompareAttrs(t, p.loc, p.rep)
	} else {
		// Too many runs to judge every pair: the page offers no comparison
		// of two columns, rather than one that may mix unlike runs.
		v.Intro = p.loc.T("allruns.intro_many", "Runs", len(t.Runs))
	}
	return v
}

// allRunsLink links a value to its line where the page shows its log;
// else to the line in the repository, to its run, or at least names its
// file and line in its title. Its title is where it was read, the check
// status and label of the report's other figures left out: the table has
// many.
func (p *reportPage) allRunsLink(v *report.Value, shown, sections map[string]bool) string {
	title := p.repoPath(v.Source.File) + ":" + strconv.Itoa(v.Source.Line)
	if v.Projected() {
		title += " " + p.loc.T("source.projected", "Formula", v.Expr(), "Replicas", v.Replicas, "GPUs", v.GPUs)
	}
	switch {
	case shown[v.Source.File] && v.Source.Line > 0:
		return sourced(v.Expr(), LineID(p.repoPath(v.Source.File), v.Source.Line), title)
	case p.r.RepoURL != "":
		return linked(v.Expr(), repoLines(p.r.RepoURL, p.repoPath(v.Source.File), v.Source.Line, 0), title)
	case sections[v.Run]:
		return sourced(v.Expr(), "run-"+anchorID(v.Run), title)
	}
	return sourced(v.Expr(), allRunsID, title)
}

// allRunsOf makes the all-runs table's Markdown; link writes a value
// linked to where it was read; sections are the runs the page has a
// section of, which their names link to.
func allRunsOf(t *report.AllRuns, loc *localizer, workloadName func(string) string, link func(*report.Value) string, sections map[string]bool) *allRunsView {
	v := &allRunsView{}
	for _, run := range t.Runs {
		name := esc(run.Name)
		if sections[run.ID] {
			name = "[" + name + "](#run-" + anchorID(run.ID) + ")"
		}
		v.Runs = append(v.Runs, name)
	}
	for _, row := range t.Rows {
		rv := allRunsRowView{Case: esc(workloadName(row.Workload)), Metric: loc.T("metric." + row.Metric.Key), Cells: make([]string, len(row.Values))}
		if row.Load != nil { // a sweep, load by load
			rv.Case += " · " + loc.T("sweep.at."+row.LoadKey, "Load", esc(row.Load.Raw))
		}
		for j, val := range row.Values {
			rv.Cells[j] = "—"
			if val != nil {
				rv.Cells[j] = link(val)
			}
		}
		v.Rows = append(v.Rows, rv)
	}
	return v
}

// runSections are the runs the page shows under their own heading
// ("#run-<id>"): those of the steps and the other runs.
func runSections(rep *report.Report) map[string]bool {
	out := map[string]bool{}
	for _, sr := range rep.Steps {
		for _, rr := range sr.Runs {
			out[rr.Run.ID] = true
		}
	}
	for _, rr := range rep.Others {
		out[rr.Run.ID] = true
	}
	return out
}

// shownLogs are the logs whose result the page shows, each line with its
// id: every run's main result in its step or among the other runs, and
// each workload of the two compared configurations.
func shownLogs(rep *report.Report) map[string]bool {
	shown := map[string]bool{}
	add := func(rr report.RunResult) {
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
		for _, c := range sideOf(rep, runs, "", "").Cells {
			shown[c.LogFile] = true
		}
	}
	return shown
}

// firstAllRunsTable is compareTable's choice among the blocks from first
// on: the first table in a section whose heading is anchored allRunsID.
func firstAllRunsTable(first ast.Node) ast.Node {
	for n := first; n != nil; n = n.NextSibling() {
		h, ok := n.(*ast.Heading)
		if !ok {
			continue
		}
		if id, _ := h.AttributeString("id"); !bytesEqual(id, allRunsID) {
			continue
		}
		for m := h.NextSibling(); m != nil; m = m.NextSibling() {
			if _, ok := m.(*ast.Heading); ok {
				break
			}
			if _, ok := m.(*east.Table); ok {
				return m
			}
		}
	}
	return nil
}
