package render

import (
	"strings"

	"github.com/perflab/perflab/internal/benchlog"
	"github.com/perflab/perflab/internal/chart"
	"github.com/perflab/perflab/internal/check"
	"github.com/perflab/perflab/internal/claims"
	"github.com/perflab/perflab/internal/recipe"
	"github.com/perflab/perflab/internal/report"
	"github.com/perflab/perflab/internal/study"
)

// reportPage is one study's report in one language while it renders,
// and what both templates read: each section's view is a method of it,
// one file per section.
type reportPage struct {
	r    *Renderer
	in   Input
	lang string
	loc  *localizer
	res  check.Result
	rep  *report.Report
	s    *study.Study
	c    *study.Content // the prose, empty when the language has none
	// logOf finds a log by its file; flagged is the rule of an
	// unacknowledged problem at a line.
	logOf   map[string]*study.Log
	flagged map[fileLine]string
	// rawResults writes each block already shown again, without line
	// ids (its step and the other cases show some blocks twice).
	rawResults map[*benchlog.Block]func() rich
	repoPaths  map[string]string // file -> its path in the repository
	linePaths  map[string]string // lineIDPrefix -> a log's path, made on first use (mdHref)
	conclusion *conclusionContext
	charts     []chart.Chart
	// The sections' views: both templates read the page itself, and
	// each view is made the first time either asks for it (lazy).
	startV         lazy[*startView]
	rowsV          lazy[[]rowView]
	conclusionEndV lazy[*conclusionEndView]
	costV          lazy[*costView]
	setupV         lazy[*setupView]
	sweepsV        lazy[[]sweepView]
	stepsV         lazy[[]stepView]
	othersV        lazy[[]runView]
	historyV       lazy[*historySection]
	optionsV       lazy[[]optionView]
	summaryEndV    lazy[*summaryEndView]
	allRunsV       lazy[*allRunsView]
	closingV       lazy[*closingView]
	// recipes are made before the template runs: scanning the logs is
	// work on the logs, not the template's, and outside its time budget.
	recipes    []recipe.Recipe
	codeLabel  string // the name of a block of code for a screen reader
	chartShown bool   // a chart is on the page: the next ones load lazily
}

type fileLine struct {
	file string
	line int
}

func (r *Renderer) newReportPage(in Input, lang string) *reportPage {
	res := in.Result
	p := &reportPage{r: r, in: in, lang: lang, loc: r.localizer(lang), res: res, rep: res.Report, s: res.Study,
		c: in.Content[lang], logOf: map[string]*study.Log{}, flagged: map[fileLine]string{}, rawResults: map[*benchlog.Block]func() rich{},
		repoPaths: map[string]string{}}
	p.codeLabel = p.loc.T("code.block")
	if p.c == nil {
		p.c = &study.Content{Lang: lang, Study: p.s.ID, Workloads: map[string]string{}, Steps: map[string]string{}, Sections: map[string]study.Section{}}
	}
	for _, run := range p.s.Runs {
		for i := range run.Logs {
			p.logOf[run.Logs[i].File] = &run.Logs[i]
		}
	}
	for _, d := range res.Diagnostics {
		if !d.Acknowledged() {
			p.flagged[fileLine{d.File, d.Line}] = d.Rule
		}
	}
	p.conclusion = newConclusionContext(p.rep, p.loc, p.workloadName, p.ackRich)
	p.recipes = in.Recipes
	if p.recipes == nil {
		p.recipes = recipe.All(p.s)
	}
	return p
}

// lazy is a view made the first time a template asks for it.
type lazy[T any] struct {
	v    T
	done bool
}

func (l *lazy[T]) get(make func() T) T {
	if !l.done {
		l.v, l.done = make(), true
	}
	return l.v
}

// modelName is a model id without its organization.
func modelName(id string) string { return id[strings.LastIndex(id, "/")+1:] }

// repoPath names a file as the page shows it.
func (p *reportPage) repoPath(file string) string {
	if p.in.RepoPath == nil {
		return file
	}
	rp, ok := p.repoPaths[file] // asked at every figure: made once a file
	if !ok {
		rp = p.in.RepoPath(file)
		p.repoPaths[file] = rp
	}
	return rp
}

func (p *reportPage) metricName(key string) string { return p.loc.T("metric." + key) }

func (p *reportPage) workloadName(id string) string { return named(p.c.Workloads, id) }

func (p *reportPage) stepTitle(id string) string { return named(p.c.Steps, id) }

// named is an id's name in content/, or the id when it has none.
func named(names map[string]string, id string) string {
	if name := names[id]; name != "" {
		return name
	}
	return id
}

func (p *reportPage) claimFor(kind, subject string) *claims.Result {
	return claims.For(p.res.Claims, study.ClaimKind(kind), subject)
}

// ackRich is ackReason in both formats.
func (p *reportPage) ackRich(rule, subject string) rich {
	for _, d := range p.res.Diagnostics {
		if d.Rule == rule && d.Subject == subject && d.Ack != nil {
			return p.loc.R("problems.ack_reason", "Reason", d.Ack.Reason[p.lang])
		}
	}
	return rich{}
}
