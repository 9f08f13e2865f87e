package render

import (
	htmltemplate "html/template"
	"slices"
	"strconv"
	"strings"

	"github.com/perflab/perflab/internal/check"
	"github.com/perflab/perflab/internal/study"
)

// problemsView is the problems section: a line per problem, its severity
// (or that it is acknowledged), its rule, what it is, where and why it is
// acknowledged.
type problemsView struct {
	Intro rich
	Lines []rich
}

func (p *reportPage) problemList() *problemsView {
	groups := groupProblems(p.res.Diagnostics, p.repoPath)
	if len(groups) == 0 {
		return nil
	}
	v := &problemsView{Intro: p.loc.R("problems.intro")}
	for _, g := range groups {
		label := "severity." + string(g.First.Severity)
		if g.First.Acknowledged() {
			label = "problems.acknowledged"
		}
		sources := make([]rich, len(g.Sources))
		for i, src := range g.Sources {
			sources[i] = richCode(src)
		}
		line := p.loc.R("sentences", "First", p.problem(g), "Next", p.loc.R("paren", "Text", richList(rich{", ", ", "}, sources...)))
		if a := g.First.Ack; a != nil {
			line = p.loc.R("sentences", "First", line, "Next", p.loc.R("problems.ack_reason", "Reason", a.Reason[p.lang]))
		}
		label = p.loc.T(label) // a message's text, in bold
		v.Lines = append(v.Lines, richJoin(rich{"**" + label + "**", htmltemplate.HTML("<strong>" + htmlText.Replace(label) + "</strong>")},
			rich{" ", " "}, richCode(g.First.Rule), rich{" — ", " — "}, line))
	}
	return v
}

// problem says a group's problem in the page's language, naming its
// subjects.
func (p *reportPage) problem(g problemGroup) rich {
	var names []string
	for _, subj := range g.Subjects {
		names = append(names, subjectName(subj, p.s, p.c))
	}
	d, sep := g.First, p.loc.T("chart.list_separator")
	if !p.loc.Has("rule."+d.Rule) && !p.r.locales.Localizer("en").Has("rule."+d.Rule) {
		// A rule without its message anywhere (check reports that on
		// the locale): the problem as check words it.
		return richText(d.Message)
	}
	subjects := strings.Join(names, sep)
	return p.loc.R("rule."+d.Rule, "Run", subjects, "Served", d.Printed, "Model", p.s.Model,
		"Printed", d.Printed, "Computed", d.Computed, "Subject", subjects)
}

// feedback invites the reader to open an issue; nil without the
// repository's address.
func (p *reportPage) feedback() *rich {
	if p.r.RepoURL == "" {
		return nil
	}
	u := p.r.RepoURL + "/issues/new"
	f := p.loc.R("feedback", "URL", rich{u, htmltemplate.HTML(htmlText.Replace(u))})
	return &f
}

// problemGroup is one line of the problems section: diagnostics of one rule
// that share an acknowledgement (or lack one), with their subjects.
type problemGroup struct {
	First    check.Diagnostic
	Subjects []string
	Sources  []string
}

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
	case "conclusion", "workload":
		return named(c.Workloads, id)
	case "step", "ranking":
		return named(c.Steps, id)
	}
	if r := s.Run(kind); r != nil {
		id, version, _ := strings.Cut(id, "@") // a regression: <run>/<workload>@<version>
		name := named(c.Workloads, id)
		if version != "" {
			name += " · " + version
		}
		return r.Name + " · " + name
	}
	return subject
}
