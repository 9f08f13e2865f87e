package render

import (
	"fmt"
	"slices"
	"strings"
	"text/template/parse"

	"github.com/nicksnyder/go-i18n/v2/i18n"

	"github.com/perflab/perflab/internal/check"
	"github.com/perflab/perflab/internal/study"
)

// RequiredMessages lists the message ids every language must have,
// whatever the other languages hold: rule.<id> for every rule a problem
// line names (check.Rules), the severities, the messages named by a
// study's objective, the ids the Go code names (codeMessages), and every
// {{T "id"}} the templates call with a constant id. A page never fails on a missing
// message (it shows the English one, or the id), so this is what lets
// perflab check catch, as an error on the locale file, a message that a
// pull request removed from every locale.
func (r *Renderer) RequiredMessages() []string {
	ids := append([]string{"severity." + string(check.Error), "severity." + string(check.Warning)}, codeMessages...)
	for _, rule := range check.Rules() {
		ids = append(ids, "rule."+rule)
	}
	for _, o := range []study.Objective{study.Throughput, study.Latency} {
		// Named by objective: {{T (print "title." $s.Objective)}}.
		for _, prefix := range []string{"title.", "conclusion.recommended.", "objective.headline.", "index.objective."} {
			ids = append(ids, prefix+string(o))
		}
	}
	var trees []*parse.Tree
	for _, t := range r.report.Templates() {
		trees = append(trees, t.Tree)
	}
	for _, t := range append(r.page.Templates(), r.index.Templates()...) {
		trees = append(trees, t.Tree)
	}
	for _, tree := range trees {
		if tree != nil {
			ids = append(ids, templateMessages(tree.Root)...)
		}
	}
	slices.Sort(ids)
	return slices.Compact(ids)
}

// templateMessages are the constant ids of the T calls in a template's
// nodes, nested pipelines and branches included.
func templateMessages(n parse.Node) []string {
	var out []string
	var walk func(parse.Node)
	walkPipe := func(p *parse.PipeNode) {
		if p != nil {
			walk(p)
		}
	}
	walk = func(n parse.Node) {
		switch n := n.(type) {
		case *parse.ListNode:
			if n == nil {
				return
			}
			for _, c := range n.Nodes {
				walk(c)
			}
		case *parse.ActionNode:
			walkPipe(n.Pipe)
		case *parse.PipeNode:
			for _, c := range n.Cmds {
				walk(c)
			}
		case *parse.CommandNode:
			if len(n.Args) >= 2 {
				fn, ok := n.Args[0].(*parse.IdentifierNode)
				id, ok2 := n.Args[1].(*parse.StringNode)
				if ok && ok2 && fn.Ident == "T" && !strings.ContainsAny(id.Text, " {}") {
					out = append(out, id.Text)
				}
			}
			for _, a := range n.Args {
				walk(a)
			}
		case *parse.IfNode:
			walkPipe(n.Pipe)
			walk(n.List)
			walk(n.ElseList)
		case *parse.RangeNode:
			walkPipe(n.Pipe)
			walk(n.List)
			walk(n.ElseList)
		case *parse.WithNode:
			walkPipe(n.Pipe)
			walk(n.List)
			walk(n.ElseList)
		case *parse.TemplateNode:
			walkPipe(n.Pipe)
		}
	}
	walk(n)
	return out
}

// problemFields are the fields a problem line gives its rule.<id>
// message (problems.go).
var problemFields = []string{"Computed", "Model", "Printed", "Run", "Served", "Subject"}

// messageFields are the {{.Field}} names a message inserts in any of its
// forms, sorted, once each.
func messageFields(m *i18n.Message) []string {
	var out []string
	for _, form := range []string{m.Zero, m.One, m.Two, m.Few, m.Many, m.Other} {
		fields, _ := fieldsOf(form)
		out = append(out, fields...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// FieldProblem is a message that inserts a field it is never given: the
// page would show "<no value>" in its place.
type FieldProblem struct {
	ID, Field string
	Line      int    // the message's line in its locale file
	Allowed   string // the fields it may insert, or why
}

// FieldProblems lists, for each language, the messages that insert a
// field the English message does not (the English message says which
// fields the code gives), and rule.<id> messages that insert a field a
// problem line does not give.
func (r *Renderer) FieldProblems() map[string][]FieldProblem {
	out := map[string][]FieldProblem{}
	for _, l := range Languages {
		var keys *keyLines // read at the first problem: most checks have none
		for id, fields := range r.fields[l.Code] {
			allowed, why := r.fields["en"][id], "the English message's"
			if strings.HasPrefix(id, "rule.") {
				allowed, why = problemFields, "a problem's"
			} else if l.Code == "en" || !r.messages["en"][id] {
				continue
			}
			for _, f := range fields {
				if !slices.Contains(allowed, f) {
					if keys == nil {
						k := indexKeys(r.sources[l.Code])
						keys = &k
					}
					out[l.Code] = append(out[l.Code], FieldProblem{ID: id, Field: f, Line: keys.line(id),
						Allowed: fmt.Sprintf("%s: %s", why, fieldList(allowed))})
				}
			}
		}
		slices.SortFunc(out[l.Code], func(a, b FieldProblem) int { return a.Line - b.Line })
	}
	return out
}

func fieldList(fields []string) string {
	if len(fields) == 0 {
		return "none"
	}
	var out []string
	for _, f := range fields {
		out = append(out, "{{."+f+"}}")
	}
	return strings.Join(out, ", ")
}
