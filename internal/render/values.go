package render

import (
	"fmt"
	htmltemplate "html/template"
	"strconv"
	"strings"

	"github.com/perflab/perflab/internal/claims"
	"github.com/perflab/perflab/internal/markup"
	"github.com/perflab/perflab/internal/report"
)

// linked writes text as a Markdown link to dest with a title. GitHub
// shows a title in full: a link on the page keeps only the part that
// says where its figure comes from, before the first " · ".
func linked(text, dest, title string) string {
	if strings.HasPrefix(dest, "#") {
		title, _, _ = strings.Cut(title, " · ")
	}
	return markup.Link(text, dest, title)
}

// link is richLink whose Markdown points where GitHub can show it: a log
// line (#Lxxxxxxxx-N) on the repository's page of the log when there is
// one (--repo-url); else at the line's anchor, which rawRich writes
// before the log's block.
func (p *reportPage) link(text rich, href, title string) rich {
	l := richLink(text, href, title)
	if md := p.mdHref(href); md != href {
		l.MD = linked(text.MD, md, title)
	}
	return l
}

// mdHref is where a link to href on the page goes in its Markdown.
func (p *reportPage) mdHref(href string) string {
	prefix, line, ok := strings.Cut(strings.TrimPrefix(href, "#"), "-")
	if p.r.RepoURL == "" || !ok || len(prefix) != 9 || prefix[0] != 'L' || href[0] != '#' {
		return href
	}
	n, err := strconv.Atoi(line)
	if p.linePaths == nil {
		p.linePaths = map[string]string{}
		for file := range p.logOf {
			p.linePaths[lineIDPrefix(p.repoPath(file))] = p.repoPath(file)
		}
	}
	if path, known := p.linePaths[prefix]; known && err == nil {
		return repoLines(p.r.RepoURL, path, n, 0)
	}
	return href
}

// repoLines is the address of lines from to to of a file (its path in the
// repository) on the repository's site; to <= from is one line.
func repoLines(repoURL, file string, from, to int) string {
	u := repoURL + "/blob/HEAD/" + markup.LinkPath(file) + "#L" + strconv.Itoa(from)
	if to > from {
		u += "-L" + strconv.Itoa(to)
	}
	return u
}

// valueTitle is a value's hover text: its file, line and label, whether
// the checks passed there, its projection and its repeats.
func (p *reportPage) valueTitle(v *report.Value) string {
	loc := p.loc
	status := loc.T("source.check_passed")
	if rule := p.flagged[fileLine{v.Source.File, v.Source.Line}]; rule != "" {
		status = loc.T("source.check_failed", "Rule", rule)
	}
	title := loc.T("source.value", "File", p.repoPath(v.Source.File), "Line", v.Source.Line, "Label", v.Source.Label, "Status", status)
	if v.Projected() {
		title += " " + loc.T("source.projected", "Formula", v.Expr(), "Replicas", v.Replicas, "GPUs", v.GPUs)
	}
	return title + p.repeatsTitle(v)
}

// repeatsTitle ends a mean's hover text with every repeat it is made of,
// each with its line; "" for a value measured once.
func (p *reportPage) repeatsTitle(v *report.Value) string {
	if !v.Repeated() {
		return ""
	}
	lines := make([]string, len(v.Samples))
	for i, sm := range v.Samples {
		lines[i] = fmt.Sprintf("%s:%d (%s)", p.repoPath(sm.Source.File), sm.Source.Line, report.FormatNumber(sm.Measured, min(v.Decimals, 4)))
	}
	return " " + p.loc.T("source.repeats", "N", v.Repeats, "Level", report.ConfidenceLevel, "Repeats", strings.Join(lines, p.loc.T("chart.list_separator")))
}

// valueAnchor is the log line a value was read from, or anchor when it
// has none.
func (p *reportPage) valueAnchor(v *report.Value, anchor string) string {
	if v.Source.File != "" && v.Source.Line > 0 {
		return LineID(p.repoPath(v.Source.File), v.Source.Line)
	}
	return anchor
}

// valueRich is value in both formats.
func (p *reportPage) valueRich(v *report.Value, anchor string) rich {
	if v == nil {
		return richFigure("—")
	}
	return p.valueLinked(v, "#"+p.valueAnchor(v, anchor))
}

// valueLinked is a value linked to href, with its interval and whether
// it is projected.
func (p *reportPage) valueLinked(v *report.Value, href string) rich {
	s := p.link(richFigure(v.Expr()), href, p.valueTitle(v))
	if v.Repeated() {
		s = p.loc.R("value.repeats", "Value", s, "HalfWidth", richFigure(v.HalfWidthExpr()), "N", v.Repeats)
	}
	if v.Projected() {
		s = richJoin(s, p.loc.R("aside", "Text", p.loc.R("value.projected")))
	}
	return s
}

// intervalRich is valueRich with a mean of repeats written short,
// "1000.00 ± 24.84", for a table whose note says what ± means.
func (p *reportPage) intervalRich(v *report.Value, anchor string) rich {
	if v == nil || !v.Repeated() {
		return p.valueRich(v, anchor)
	}
	return p.loc.R("value.interval", "Value", p.link(richFigure(v.Expr()), "#"+p.valueAnchor(v, anchor), p.valueTitle(v)),
		"HalfWidth", richFigure(v.HalfWidthExpr()))
}

// pctRich writes a change: its direction, percentage and statistics, or
// why it compares unlike runs. The HTML puts the statistics after the
// headline "▲ +4.1 %" in a span: on a phone they go below it, smaller
// (style.css, .stat); the Markdown stays as it is.
func (p *reportPage) pctRich(ch *report.Change) rich {
	loc := p.loc
	if ch == nil {
		return richFigure("—")
	}
	if why := unlike(loc, ch); why.MD != "" {
		return why
	}
	head, stats := changeHeadline(ch), changeStats(loc, ch)
	if ch.Noise {
		stats = noiseStats(loc, ch)
	}
	// No break before a %, in any language.
	r := rich{MD: loc.Figure(head + stats.MD), HTML: htmltemplate.HTML(htmltemplate.HTMLEscapeString(loc.Figure(head)))}
	if stats.MD != "" {
		r.HTML += `<span class="stat">` + htmltemplate.HTML(loc.Figure(string(stats.HTML))) + `</span>`
	}
	return r
}

// changeRich is pct linked to anchor, its formula and the published
// figure it was checked against on hover.
func (p *reportPage) changeRich(ch *report.Change, claim *claims.Result, anchor string) rich {
	loc := p.loc
	if ch == nil {
		return richFigure("—")
	}
	status := loc.T("source.no_claim")
	if claim != nil && claim.Checked {
		status = loc.T("source.claim_matches", "Printed", claim.Claim.Printed)
	}
	if contradicts(claim) {
		status = loc.T("source.claim_differs", "Printed", claim.Claim.Printed)
	}
	s := richJoin(richLink(p.pctRich(ch), "#"+anchor, loc.T("source.change", "Formula", ch.Formula, "Status", status)), caveats(loc, ch))
	if contradicts(claim) {
		s = richJoin(s, loc.R("erratum.marker"))
	}
	return s
}

// plainChangeRich is pctRich linked to anchor, checked against no
// published figure.
func (p *reportPage) plainChangeRich(ch *report.Change, anchor string) rich {
	return richLink(p.pctRich(ch), "#"+anchor, p.loc.T("source.change", "Formula", ch.Formula, "Status", p.loc.T("source.no_claim")))
}

// cellRich is a cell's headline, or with tpot its TPOT, in both formats;
// "—" for none.
func (p *reportPage) cellRich(cl *report.Cell, tpot bool, anchor string) rich {
	switch {
	case cl == nil:
		return richFigure("—")
	case tpot:
		return p.valueRich(cl.TPOT, anchor)
	}
	return p.valueRich(&cl.Headline, anchor)
}
