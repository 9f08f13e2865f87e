package render

import (
	"slices"

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
		ids = append(ids, locale.TemplateIDs(t.Tree)...)
	}
	for _, t := range append(r.htmlReports[en].Templates(), r.index.Templates()...) {
		ids = append(ids, locale.TemplateIDs(t.Tree)...)
	}
	slices.Sort(ids)
	return slices.Compact(ids)
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
