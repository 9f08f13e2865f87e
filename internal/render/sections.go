package render

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/template"
	"text/template/parse"
)

// reportSections are a report's sections in page order: each is a
// template of report.md.tmpl, which writes its Markdown, and of
// report.html.tmpl, which writes its HTML from the same view.
var reportSections = []string{"report-start", "conclusion-table", "conclusion-end", "cost", "report-middle", "objective", "setup", "steps", "others", "history", "summary", "summary-end", allRunsID, "other-cases", "reproductions", "reproduce", "problems", "report-end"}

// executeSections runs every section of t (either template package's) in
// page order.
func executeSections[T interface {
	ExecuteTemplate(io.Writer, string, any) error
}](t T, w io.Writer, data any) error {
	for _, name := range reportSections {
		if err := t.ExecuteTemplate(w, name, data); err != nil {
			return err
		}
	}
	return nil
}

// conclusionTable is the conclusion table: its rows and the unit of
// their headline figures.
type conclusionTable struct {
	Unit string
	Rows []rowView
}

func (p *reportPage) Conclusion() conclusionTable {
	return conclusionTable{p.rep.Headline.Unit, p.rows()}
}

// onlySections refuses a report template that writes anything outside
// its sections, which no page would show, or lacks one of them.
func onlySections(t *template.Template) error {
	if t.Tree != nil {
		for _, n := range t.Tree.Root.Nodes {
			if text, ok := n.(*parse.TextNode); !ok || strings.TrimSpace(string(text.Text)) != "" {
				return fmt.Errorf("templates/%s:%d: this is outside every section ({{define \"name\"}}), and no page would show it: move it into a section (reportSections in internal/render/sections.go)",
					t.Name(), lineOf(t.Tree, n))
			}
		}
	}
	return missingSection(t.Name(), reportSections, func(name string) bool { return t.Lookup(name) != nil })
}

// missingSection refuses a template (file) that lacks one of the
// sections every report needs.
func missingSection(file string, sections []string, has func(string) bool) error {
	for _, name := range sections {
		if !has(name) {
			return fmt.Errorf("templates/%s: no section %q ({{define %q}}): every report needs it", file, name, name)
		}
	}
	return nil
}

// lineOf is the line of a node in its template's source: of a text, its
// first character that is not a space.
func lineOf(tree *parse.Tree, n parse.Node) int {
	skipped := 0
	if text, ok := n.(*parse.TextNode); ok {
		s := string(text.Text)
		skipped = strings.Count(s[:len(s)-len(strings.TrimLeft(s, " \t\r\n"))], "\n")
	}
	loc, _ := tree.ErrorContext(n) // "name:line:column"
	var line int
	if parts := strings.Split(loc, ":"); len(parts) >= 3 {
		line, _ = strconv.Atoi(parts[len(parts)-2])
	}
	return line + skipped
}
