package render

import (
	"slices"
	"strings"
	"text/template/parse"

	"github.com/perflab/perflab/internal/check"
	"github.com/perflab/perflab/internal/locale"
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
	en := Languages[0].Code
	for _, t := range r.mdReports[en].Templates() {
		ids = append(ids, templateMessages(t.Tree)...)
	}
	for _, t := range append(r.htmlReports[en].Templates(), r.index.Templates()...) {
		ids = append(ids, templateMessages(t.Tree)...)
	}
	slices.Sort(ids)
	return slices.Compact(ids)
}

// templateMessages are the constant ids of the T calls in a template,
// nested pipelines and branches included.
func templateMessages(tree *parse.Tree) []string {
	if tree == nil {
		return nil
	}
	var out []string
	var walk func(parse.Node)
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
			walk(n.Pipe)
		case *parse.PipeNode:
			if n == nil {
				return
			}
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
			walk(&n.BranchNode)
		case *parse.RangeNode:
			walk(&n.BranchNode)
		case *parse.WithNode:
			walk(&n.BranchNode)
		case *parse.BranchNode:
			walk(n.Pipe)
			walk(n.List)
			walk(n.ElseList)
		case *parse.TemplateNode:
			walk(n.Pipe)
		}
	}
	walk(tree.Root)
	return out
}

// problemFields are the fields a problem line gives its rule.<id>
// message (problems.go).
var problemFields = []string{"Computed", "Model", "Printed", "Run", "Served", "Subject"}

// MissingMessages lists, for each language, the messages that another
// language has or perflab needs (RequiredMessages), and it lacks.
func (r *Renderer) MissingMessages() map[string][]locale.MissingMessage {
	return r.locales.MissingMessages(r.RequiredMessages())
}

// FieldProblems lists, for each language, the messages that insert a
// field the English message does not, and rule.<id> messages that insert
// one a problem line does not give (problemFields).
func (r *Renderer) FieldProblems() map[string][]locale.FieldProblem {
	return r.locales.FieldProblems(problemFields)
}
