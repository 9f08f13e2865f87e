package render

import (
	htmltemplate "html/template"
	"slices"
	"strconv"
	"strings"

	"github.com/perflab/perflab/internal/check"
	"github.com/perflab/perflab/internal/claims"
	"github.com/perflab/perflab/internal/report"
	"github.com/perflab/perflab/internal/study"
)

// conclusionContext says what the conclusion table compares: a mark on
// each figure measured with another serving command than its
// configuration's (the command given under the table), and each
// trade-off's reason under the table, by its row.
type conclusionContext struct {
	Notes []rich // the marks' commands, then the trade-off reasons
	marks map[*study.Run]string
}

// superscripts mark figures measured with another command; a tenth
// command and more get a bracketed number.
var superscripts = []string{"¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"}

func newConclusionContext(rep *report.Report, loc *localizer, workloadName func(string) string, ackReason func(rule, subject string) rich) *conclusionContext {
	c := &conclusionContext{marks: map[*study.Run]string{}}
	for _, row := range rep.Rows {
		c.mark(row.Baseline, rep.Baseline, loc)
		c.mark(row.Optimized, rep.Recommended, loc)
	}
	// One note per reason, naming its rows: a study often gives them all the same one.
	var reasons []rich
	cases := map[string][]rich{}
	for _, row := range rep.Rows {
		if reason := ackReason(check.RuleTradeOff, "conclusion/"+row.Workload.ID); reason.MD != "" {
			if cases[reason.MD] == nil {
				reasons = append(reasons, reason)
			}
			cases[reason.MD] = append(cases[reason.MD], richText(workloadName(row.Workload.ID)))
		}
	}
	for _, reason := range reasons {
		c.Notes = append(c.Notes, loc.R("conclusion.trade_off", "Case", richList(loc.R("chart.list_separator"), cases[reason.MD]...), "Reason", reason))
	}
	return c
}

// mark gives a cell measured with another command than its
// configuration's first run a mark, and the mark a note, once per run.
func (c *conclusionContext) mark(cell *report.Cell, config []*study.Run, loc *localizer) {
	if cell == nil || cell.Run == nil || len(config) == 0 || config[0] == nil || cell.Run.Command == config[0].Command || c.marks[cell.Run] != "" {
		return
	}
	m := "[" + strconv.Itoa(len(c.marks)+1) + "]"
	if len(c.marks) < len(superscripts) {
		m = superscripts[len(c.marks)]
	}
	c.marks[cell.Run] = m
	c.Notes = append(c.Notes, loc.R("conclusion.other_command", "Mark", richFigure(m), "Name", cell.Run.Name, "Command", richCode(cell.Run.Command)))
}

// markOf is the mark of a cell's figure, or "".
func (c *conclusionContext) markOf(cell *report.Cell) string {
	if cell == nil {
		return ""
	}
	return c.marks[cell.Run]
}

// adopted reports whether the best run of step i is carried forward: one
// of the recommended configuration's runs, or the reference of a later step.
func adopted(rep *report.Report, i int) bool {
	best := rep.Steps[i].Best
	if best == nil || best.Run == nil {
		return false
	}
	if slices.Contains(rep.Recommended, best.Run) {
		return true
	}
	for _, later := range rep.Steps[i+1:] {
		if later.Step.Reference == best.Run.ID {
			return true
		}
	}
	return false
}

// rowView is one row of the conclusion table, its cells in both formats.
type rowView struct {
	Case, Baseline, Optimized, Change, BaselineTPOT, OptimizedTPOT rich
	Erratum                                                        rich // the published change the logs contradict, a note; zero: none
}

// contradicts reports whether a published figure was checked and the logs
// contradict it.
func contradicts(claim *claims.Result) bool { return claim != nil && claim.Checked && !claim.Match }

// hasProjection reports whether a figure of the conclusion table is projected.
func hasProjection(rp *report.Report) bool {
	return slices.ContainsFunc(rp.Rows, func(row report.Row) bool {
		return row.Baseline != nil && row.Baseline.Headline.Projected() || row.Optimized != nil && row.Optimized.Headline.Projected()
	})
}

// rows are the conclusion table: each workload's baseline and optimized
// figures, linked to their logs, the change and the TPOTs; made once a
// page for both formats.
func (p *reportPage) rows() []rowView { return p.rowsV.get(p.newRows) }

func (p *reportPage) newRows() []rowView {
	views := make([]rowView, len(p.rep.Rows))
	for i, row := range p.rep.Rows {
		id := anchorID(row.Workload.ID)
		claim := p.claimFor("conclusion", id)
		views[i] = rowView{Case: richText(p.workloadName(id)),
			Baseline:     richJoin(p.cellRich(row.Baseline, false, "baseline-"+id), richFigure(p.conclusion.markOf(row.Baseline))),
			Optimized:    richJoin(p.cellRich(row.Optimized, false, "optimized-"+id), richFigure(p.conclusion.markOf(row.Optimized))),
			Change:       p.changeRich(row.Change, claim, "optimized-"+id),
			BaselineTPOT: p.cellRich(row.Baseline, true, "baseline-"+id), OptimizedTPOT: richJoin(p.cellRich(row.Optimized, true, "optimized-"+id), p.tpotCost(row))}
		formula := ""
		if row.Change != nil {
			formula = row.Change.Formula
		}
		views[i].Erratum = p.erratumNote(claim, p.ackRich("claim-mismatch", "conclusion/"+id), "erratum.conclusion", "Case", views[i].Case, "Formula", richFigure(formula))
	}
	return views
}

// tpotCost marks, next to the recommended configuration's TPOT, a
// latency the throughput gain costs beyond the trade-off threshold.
func (p *reportPage) tpotCost(row report.Row) rich {
	if row.Baseline == nil || row.Optimized == nil || row.Baseline.TPOT == nil || row.Optimized.TPOT == nil || row.Baseline.TPOT.Measured <= 0 {
		return rich{}
	}
	pc := (row.Optimized.TPOT.Measured/row.Baseline.TPOT.Measured - 1) * 100
	if pc <= check.TradeOffThreshold {
		return rich{}
	}
	// The message puts the mark before the figure: bound to it too, "(▼" never ends a line.
	r := p.loc.R("tpot.regression", "Percent", richFigure(report.FormatPercent(pc)))
	return rich{p.loc.Figure(r.MD), htmltemplate.HTML(p.loc.Figure(string(r.HTML)))}
}

// accuracyClaims are each published accuracy figure, with what the runs'
// accuracy files say of it, or that none does.
func (p *reportPage) accuracyClaims() []rich {
	loc := p.loc
	var lines []rich
	for _, cr := range p.res.Claims {
		if cr.Claim.Kind != study.ClaimAccuracy {
			continue
		}
		args := []any{"Printed", cr.Claim.Printed, "Source", richCode(cr.Claim.Source), "Computed", cr.Computed}
		if t := cr.Accuracy; t != nil {
			metric, _, _ := strings.Cut(t.Drop.Change.To.Metric, ",")
			args = append(args, "Score", t.Drop.Change.To.Task+" "+metric, "Drop", richFigure(report.FormatShare(t.Drop.Percent)),
				"Low", richFigure(report.FormatShare(t.Drop.Low)), "High", richFigure(report.FormatShare(t.Drop.High)), "P", richFigure(report.FormatP(t.P)))
		}
		switch {
		case !cr.Checked:
			lines = append(lines, loc.R("accuracy.claim_unchecked", args...))
		case cr.Unsupported:
			lines = append(lines, loc.R("accuracy.claim_unsupported", args...))
		case cr.Match && cr.Accuracy != nil:
			lines = append(lines, loc.R("accuracy.claim_holds_tested", args...))
		case cr.Match:
			lines = append(lines, loc.R("accuracy.claim_holds", args...))
		default:
			lines = append(lines, richJoin(loc.R("accuracy.claim_differs", args...), loc.R("erratum.marker")))
		}
	}
	return lines
}

// conclusionEndView is what follows the conclusion table, one view for
// both formats: the table's note and how its changes were judged (zero
// without rows), the notes on its figures, the charts, the errata, the
// prose of content/'s "notes" and the latency budget.
type conclusionEndView struct {
	TableNote, Verdict rich
	Notes              []rich // the conclusion's notes, then the accuracy claims
	Charts             []rich // in page order
	Errata             []rich
	Prose              rich
	SLO                *sloView
}

// conclusionEnd is what follows the conclusion table, made once a page.
func (p *reportPage) ConclusionEnd() *conclusionEndView {
	return p.conclusionEndV.get(p.newConclusionEnd)
}

func (p *reportPage) newConclusionEnd() *conclusionEndView {
	loc := p.loc
	v := &conclusionEndView{Notes: append(slices.Clip(p.conclusion.Notes), p.accuracyClaims()...)}
	if len(p.rep.Rows) > 0 {
		v.TableNote = loc.R("conclusion.table_note", "Metric", loc.R("metric."+p.rep.Headline.Key))
		if hasProjection(p.rep) {
			v.TableNote = loc.R("sentences", "First", v.TableNote, "Next", loc.R("conclusion.projection_note", "GPUs", p.s.Hardware.GPUs()))
		}
		v.Verdict = verdictNote(loc, p.rep)
	}
	for _, name := range []string{"conclusion", "latency", "distribution"} {
		if ch := p.richChart(name); ch.MD != "" {
			v.Charts = append(v.Charts, ch)
		}
	}
	for _, row := range p.rows() {
		if row.Erratum.MD != "" {
			v.Errata = append(v.Errata, row.Erratum)
		}
	}
	v.Prose, v.SLO = p.richProse("notes"), p.slo()
	return v
}
