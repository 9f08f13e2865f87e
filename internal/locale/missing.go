package locale

import (
	"fmt"
	"slices"
	"strings"
	"text/template/parse"
)

// MissingMessage is a message one language lacks: another language has
// it, or the pages need it.
type MissingMessage struct {
	ID       string
	Required bool // no language has it, and the pages need it
	// Line is where it belongs in the language's file: the last key
	// that shares its prefix ("rule." for rule.price-missing), or 1.
	Line int
}

// MissingMessages lists, for each language, the messages that another
// language has or required names, and it lacks.
func (c *Catalogue) MissingMessages(required []string) map[string][]MissingMessage {
	all := map[string]bool{}
	for _, ids := range c.messages {
		for id := range ids {
			all[id] = false
		}
	}
	for _, id := range required {
		all[id] = true
	}
	out := map[string][]MissingMessage{}
	for _, l := range c.langs {
		var keys *keyLines
		for id, required := range all {
			if !c.messages[l.Code][id] {
				if keys == nil {
					k := indexKeys(c.sources[l.Code])
					keys = &k
				}
				out[l.Code] = append(out[l.Code], MissingMessage{ID: id, Required: required, Line: keys.groupLine(id)})
			}
		}
		slices.SortFunc(out[l.Code], func(a, b MissingMessage) int { return strings.Compare(a.ID, b.ID) })
	}
	return out
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
// fields the code gives), and rule.<id> messages that insert a field
// other than ruleFields, the fields a problem line gives.
func (c *Catalogue) FieldProblems(ruleFields []string) map[string][]FieldProblem {
	out := map[string][]FieldProblem{}
	for _, l := range c.langs {
		var keys *keyLines // read at the first problem: most checks have none
		for id, fields := range c.fields[l.Code] {
			allowed, why := c.fields["en"][id], "the English message's"
			if strings.HasPrefix(id, "rule.") {
				allowed, why = ruleFields, "a problem's"
			} else if l.Code == "en" || !c.messages["en"][id] {
				continue
			}
			for _, f := range fields {
				if !slices.Contains(allowed, f) {
					if keys == nil {
						k := indexKeys(c.sources[l.Code])
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

// TemplateIDs are the constant message ids of the T calls in a
// template, nested pipelines and branches included: messages every
// language needs.
func TemplateIDs(tree *parse.Tree) []string {
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
