package render

import (
	"slices"
	"strconv"
	"strings"

	"github.com/perflab/perflab/internal/check"
	"github.com/perflab/perflab/internal/study"
)

// problemLine is one line of the problems section, ready Markdown.
type problemLine struct {
	Acknowledged bool
	Severity     string // error, warning...
	Rule         string
	Text         string // the problem, in the page's language
	Sources      string // file:line of each occurrence, as code spans
	Reason       string // why it is acknowledged, or empty
}

func (p *reportPage) problemLines() []problemLine {
	groups := p.problems()
	lines := make([]problemLine, len(groups))
	for i, g := range groups {
		lines[i] = problemLine{Acknowledged: g.Acknowledged(), Severity: string(g.First.Severity), Rule: g.First.Rule,
			Text: p.problem(g), Sources: problemSources(g)}
		if g.First.Ack != nil {
			lines[i].Reason = p.reason(g.First.Ack)
		}
	}
	return lines
}

func (p *reportPage) problems() []problemGroup { return groupProblems(p.res.Diagnostics, p.repoPath) }

// problem says a group's problem in the page's language, naming its
// subjects.
func (p *reportPage) problem(g problemGroup) string {
	var names []string
	for _, subj := range g.Subjects {
		names = append(names, subjectName(subj, p.s, p.c))
	}
	d, sep := g.First, p.loc.T("chart.list_separator")
	if !p.loc.has("rule."+d.Rule) && !p.r.messages["en"]["rule."+d.Rule] {
		// A rule without its message anywhere (check reports that on
		// the locale): the problem as check words it.
		return esc(d.Message)
	}
	return p.loc.T("rule."+d.Rule, "Run", esc(strings.Join(names, sep)), "Served", esc(d.Printed), "Model", esc(p.s.Model),
		"Printed", esc(d.Printed), "Computed", esc(d.Computed), "Subject", esc(strings.Join(names, sep)))
}

// problemSources are a group's file:line places as code spans.
func problemSources(g problemGroup) string {
	var out []string
	for _, src := range g.Sources {
		out = append(out, code(src))
	}
	return strings.Join(out, ", ")
}

func (p *reportPage) reason(a *study.Ack) string {
	return p.loc.T("problems.ack_reason", "Reason", esc(a.Reason[p.lang]))
}

// problemGroup is one line of the problems section: diagnostics of one rule
// that share an acknowledgement (or lack one), with their subjects.
type problemGroup struct {
	First    check.Diagnostic
	Subjects []string
	Sources  []string
}

func (g problemGroup) Acknowledged() bool { return g.First.Acknowledged() }

func groupProblems(diags []check.Diagnostic, repoPath func(string) string) []problemGroup {
	type groupKey struct {
		rule             string
		severity         check.Severity
		acked            bool
		subject, message string
	}
	var out []problemGroup
	index := map[groupKey]int{}
	for _, d := range diags {
		key := groupKey{rule: d.Rule, severity: d.Severity, acked: d.Ack != nil, subject: d.Subject, message: d.Message}
		if d.Ack != nil {
			key.subject, key.message = d.Ack.Subject, ""
		}
		i, ok := index[key]
		if !ok {
			i = len(out)
			index[key] = i
			out = append(out, problemGroup{First: d})
		}
		g := &out[i]
		if d.Subject != "" && !slices.Contains(g.Subjects, d.Subject) {
			g.Subjects = append(g.Subjects, d.Subject)
		}
		src := repoPath(d.File) + ":" + strconv.Itoa(d.Line)
		if !slices.Contains(g.Sources, src) {
			g.Sources = append(g.Sources, src)
		}
	}
	return out
}

// subjectName shows a diagnostic's subject the way the report names it:
// workloads and steps by their display names, runs by their names.
func subjectName(subject string, s *study.Study, c *study.Content) string {
	kind, id, found := strings.Cut(subject, "/")
	if !found {
		run, version, _ := strings.Cut(subject, "@") // one version of a run's history
		if r := s.Run(run); r != nil {
			if version != "" {
				return r.Name + " · " + version
			}
			return r.Name
		}
		return subject
	}
	switch kind {
	case "conclusion":
		if name := c.Workloads[id]; name != "" {
			return name
		}
		return id
	case "workload":
		if name := c.Workloads[id]; name != "" {
			return name
		}
		return id
	case "step", "ranking":
		if name := c.Steps[id]; name != "" {
			return name
		}
		return id
	}
	if r := s.Run(kind); r != nil {
		id, version, _ := strings.Cut(id, "@") // a regression: <run>/<workload>@<version>
		name := c.Workloads[id]
		if name == "" {
			name = id
		}
		if version != "" {
			name += " · " + version
		}
		return r.Name + " · " + name
	}
	return subject
}
