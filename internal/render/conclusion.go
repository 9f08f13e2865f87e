package render

import (
	htmltemplate "html/template"
	"strconv"
	"strings"

	"github.com/perflab/perflab/internal/check"
	"github.com/perflab/perflab/internal/claims"
	"github.com/perflab/perflab/internal/report"
	"github.com/perflab/perflab/internal/study"
)

// conclusionContext says what the conclusion table compares: the baseline
// by name and command, a mark on each figure measured with another
// serving command than its configuration's (the command given under the
// table), and each trade-off's reason under the table, by its row.
type conclusionContext struct {
	Baseline rich     // "The baseline is ..."
	Notes    []string // the marks' commands, then the trade-off reasons
	marks    map[*study.Run]string
}

// superscripts mark figures measured with another command; a tenth
// command and more get a bracketed number.
var superscripts = []string{"¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"}

func newConclusionContext(rep *report.Report, loc *localizer, workloadName func(string) string, ackReason func(rule, subject string) string) *conclusionContext {
	c := &conclusionContext{marks: map[*study.Run]string{}}
	if len(rep.Baseline) > 0 && rep.Baseline[0] != nil {
		b := rep.Baseline[0]
		c.Baseline = loc.R("conclusion.baseline", "Name", b.Name, "Command", richCode(b.Command))
	}
	for _, row := range rep.Rows {
		c.mark(row.Baseline, rep.Baseline, loc)
		c.mark(row.Optimized, rep.Recommended, loc)
	}
	// One note per reason, naming its rows: a study often gives them all the same one.
	var reasons []string
	cases := map[string][]string{}
	for _, row := range rep.Rows {
		if reason := ackReason(check.RuleTradeOff, "conclusion/"+row.Workload.ID); reason != "" {
			if cases[reason] == nil {
				reasons = append(reasons, reason)
			}
			cases[reason] = append(cases[reason], esc(workloadName(row.Workload.ID)))
		}
	}
	for _, reason := range reasons {
		c.Notes = append(c.Notes, loc.T("conclusion.trade_off", "Case", strings.Join(cases[reason], loc.T("chart.list_separator")), "Reason", reason))
	}
	return c
}

// mark gives a cell measured with another command than its
// configuration's first run a mark, and the mark a note, once per run.
func (c *conclusionContext) mark(cell *report.Cell, config []*study.Run, loc *localizer) {
	if cell == nil || cell.Run == nil || len(config) == 0 || config[0] == nil || cell.Run.Command == config[0].Command {
		return
	}
	if _, ok := c.marks[cell.Run]; ok {
		return
	}
	m := "[" + strconv.Itoa(len(c.marks)+1) + "]"
	if len(c.marks) < len(superscripts) {
		m = superscripts[len(c.marks)]
	}
	c.marks[cell.Run] = m
	c.Notes = append(c.Notes, loc.T("conclusion.other_command", "Mark", m, "Name", esc(cell.Run.Name), "Command", code(cell.Run.Command)))
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
	for _, r := range rep.Recommended {
		if r == best.Run {
			return true
		}
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
	Erratum                                                        erratum // the published change, when the logs give another
}

// erratum is a published figure that the logs contradict, its fields
// ready Markdown; Wrong is false when there is none.
type erratum struct {
	Wrong                      bool
	Printed, Computed, Formula string
	Ack                        string // why the difference is acknowledged, or empty
}

// erratumOf is the erratum of a checked claim the logs contradict.
func erratumOf(claim *claims.Result) erratum {
	if claim == nil || !claim.Checked || claim.Match {
		return erratum{}
	}
	return erratum{Wrong: true, Printed: esc(claim.Claim.Printed), Computed: claim.Computed}
}

func hasProjection(rp *report.Report) bool {
	for _, row := range rp.Rows {
		for _, c := range []*report.Cell{row.Baseline, row.Optimized} {
			if c != nil && c.Headline.Projected() {
				return true
			}
		}
	}
	return false
}

func (p *reportPage) conclusionNotes() *conclusionContext { return p.conclusion }

// rows are the conclusion table: each workload's baseline and optimized
// figures, linked to their logs, the change and the TPOTs; made once a
// page for both formats.
func (p *reportPage) rows() []rowView {
	if p.rowsDone {
		return p.rowViews
	}
	p.rowsDone = true
	views := make([]rowView, len(p.rep.Rows))
	for i, row := range p.rep.Rows {
		id := anchorID(row.Workload.ID)
		claim := p.claimFor("conclusion", id)
		views[i] = rowView{Case: richText(p.workloadName(id)),
			Baseline:     richJoin(p.cellRich(row.Baseline, "baseline-"+id), richFigure(p.conclusion.markOf(row.Baseline))),
			Optimized:    richJoin(p.cellRich(row.Optimized, "optimized-"+id), richFigure(p.conclusion.markOf(row.Optimized))),
			Change:       p.changeRich(row.Change, claim, "optimized-"+id),
			BaselineTPOT: p.tpotRich(row.Baseline, "baseline-"+id), OptimizedTPOT: richJoin(p.tpotRich(row.Optimized, "optimized-"+id), p.tpotCost(row)),
			Erratum: erratumOf(claim)}
		if e := &views[i].Erratum; e.Wrong {
			if row.Change != nil {
				e.Formula = row.Change.Formula
			}
			e.Ack = p.ackReason("claim-mismatch", "conclusion/"+id)
		}
	}
	p.rowViews = views
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
	return rich{p.loc.figure(r.md), htmltemplate.HTML(p.loc.figure(string(r.html)))}
}

func (p *reportPage) verdictNote() string {
	return verdictNote(p.loc, p.rep, p.loc.T("metric."+p.rep.Headline.Key))
}

// accuracyClaims are each published accuracy figure, with what the runs'
// accuracy files say of it, or that none does.
func (p *reportPage) accuracyClaims() []string {
	loc := p.loc
	var lines []string
	for _, cr := range p.res.Claims {
		if cr.Claim.Kind != study.ClaimAccuracy {
			continue
		}
		args := []any{"Printed", esc(cr.Claim.Printed), "Source", code(cr.Claim.Source), "Computed", esc(cr.Computed)}
		if t := cr.Accuracy; t != nil {
			metric, _, _ := strings.Cut(t.Drop.Change.To.Metric, ",")
			args = append(args, "Score", esc(t.Drop.Change.To.Task+" "+metric), "Drop", percentText(t.Drop.Percent),
				"Low", percentText(t.Drop.Low), "High", percentText(t.Drop.High), "P", PText(t.P))
		}
		switch {
		case !cr.Checked:
			lines = append(lines, loc.T("accuracy.claim_unchecked", args...))
		case cr.Unsupported:
			lines = append(lines, loc.T("accuracy.claim_unsupported", args...))
		case cr.Match && cr.Accuracy != nil:
			lines = append(lines, loc.T("accuracy.claim_holds_tested", args...))
		case cr.Match:
			lines = append(lines, loc.T("accuracy.claim_holds", args...))
		default:
			lines = append(lines, loc.T("accuracy.claim_differs", args...)+loc.T("erratum.marker"))
		}
	}
	return lines
}
