package importer

import (
	"regexp"
	"strings"
)

// An article (the family's "references" pages) publishes tables of
// figures and the changes between them, but no logs. It is imported as a
// study of kind article: one table claim per printed change, with the two
// printed figures it compares, so check can redo the table's arithmetic.
// It is never rendered, since no figure of it comes from a log.

// annotatedFigure is a table cell with a figure and its change:
// "5653.4 (+46.1%)".
var annotatedFigure = regexp.MustCompile(`^(\d[\d,]*(?:\.\d+)?)\s*\(\s*([+\-−]\s*\d+(?:\.\d+)?\s*%)\s*\)$`)

// plainFigure is a cell with a figure alone.
var plainFigure = regexp.MustCompile(`^\d[\d,]*(?:\.\d+)?$`)

// bareChange is a cell with a change alone: "+354.4%", "-3.2%".
var bareChange = regexp.MustCompile(`^[+\-−]\s*\d+(?:\.\d+)?\s*%$`)

// baselineRow names the row the other rows of a table are compared with.
var baselineRow = regexp.MustCompile(`(?i)baseline|without|\bbf16\b|\bfp16\b|default|\bnone\b`)

// isArticle reports whether a page is an article: it holds tables but no
// result block, and no setup section a report would have.
func isArticle(items []line) bool {
	hasTable, setupModel := false, false
	for _, it := range items {
		if it.fence != nil && strings.Contains(it.fence.Text(), "Benchmark Result") {
			return false
		}
		t := strings.TrimSpace(it.text)
		if strings.HasPrefix(t, "|") {
			hasTable = true
		}
		if lvl, title := heading(t); lvl == 3 && norm(title) == "model" {
			setupModel = true
		}
	}
	return hasTable && !setupModel
}

var articleModel = regexp.MustCompile(`(?i)^\s*[-*]\s*\*{0,2}model\*{0,2}\s*:\s*\*{0,2}\s*(.+?)\s*$`)

// importArticle reads an article's model and the changes its tables print.
func (p *parser) importArticle() {
	s := p.s
	s.Kind = "article"
	for _, it := range p.items {
		if m := articleModel.FindStringSubmatch(it.text); it.fence == nil && m != nil {
			s.Model = modelText(m[1])
			break
		}
	}
	for _, t := range tables(p.items) {
		p.tableClaims(t)
	}
	if len(s.Claims) == 0 {
		s.note(1, "an article without logs, and no table in it prints a change perflab can check")
	}
}

// tableClaims adds the changes of one table: figures annotated with a
// change against the table's baseline row, and a change column comparing
// the two figures before it.
func (p *parser) tableClaims(t table) {
	if changeCol := colIndex(t.header, "change"); changeCol >= 2 {
		for i, row := range t.rows {
			if changeCol < len(row) && bareChange.MatchString(strings.TrimSpace(row[changeCol])) {
				from, to := strings.TrimSpace(row[changeCol-2]), strings.TrimSpace(row[changeCol-1])
				if plainFigure.MatchString(from) && plainFigure.MatchString(to) {
					p.s.addClaim(Claim{Kind: "table", From: from, To: to, Printed: strings.TrimSpace(row[changeCol]), Line: t.lines[i]})
				}
			}
		}
		return
	}
	base := baseRow(t)
	for i, row := range t.rows {
		for col := 1; col < len(row); col++ {
			m := annotatedFigure.FindStringSubmatch(strings.TrimSpace(row[col]))
			if m == nil {
				continue
			}
			if base < 0 || base == i || col >= len(t.rows[base]) || !plainFigure.MatchString(strings.TrimSpace(t.rows[base][col])) {
				p.s.note(t.lines[i], "the change %s compares with a figure this table does not print; it is not imported", m[2])
				continue
			}
			p.s.addClaim(Claim{Kind: "table", From: strings.TrimSpace(t.rows[base][col]), To: m[1], Printed: m[2], Line: t.lines[i]})
		}
	}
}

// baseRow is the row a table's changes are relative to: the one its first
// cell names as the baseline, else the only row with figures and no
// change; -1 when there is none.
func baseRow(t table) int {
	for i, row := range t.rows {
		if len(row) > 0 && baselineRow.MatchString(row[0]) {
			return i
		}
	}
	plain := -1
	for i, row := range t.rows {
		annotated, figures := false, false
		for _, c := range row[1:] {
			c = strings.TrimSpace(c)
			annotated = annotated || annotatedFigure.MatchString(c)
			figures = figures || plainFigure.MatchString(c)
		}
		if figures && !annotated {
			if plain >= 0 {
				return -1 // several candidates: the table does not say
			}
			plain = i
		}
	}
	return plain
}
