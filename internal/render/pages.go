package render

import (
	"bytes"
	"fmt"
	htmltemplate "html/template"
	"io"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/perflab/perflab/internal/chart"
	"github.com/perflab/perflab/internal/check"
	"github.com/perflab/perflab/internal/markup"
	"github.com/perflab/perflab/internal/plain"
	"github.com/perflab/perflab/internal/recipe"
	"github.com/perflab/perflab/internal/report"
	"github.com/perflab/perflab/internal/study"
)

// Input is what one study's report needs.
type Input struct {
	Result  check.Result
	Content map[string]*study.Content // by language; a missing one renders without prose
	// Freshness says, for each engine id of the study, how its version
	// compares with the newest of the same engine in the whole site
	// (report.Freshnesses). Nil: no badge.
	Freshness map[string]report.Freshness
	// RepoPath names a file as the page shows it: its path in the
	// repository, whatever folder it was read from. Nil shows paths as read.
	RepoPath func(string) string
	// Recipes are recipe.All of the study, made once for its pages in
	// every language and its reproduce.sh; nil: made for each page.
	Recipes []recipe.Recipe
}

// Page is one rendered report.
type Page struct {
	Lang     string
	Study    string
	Title    string
	Markdown []byte
	HTML     []byte
	Charts   []chart.Chart // written next to the HTML page as <name>.svg
}

// LangLink points to the same report in another language.
type LangLink struct {
	Code, Name   string
	MarkdownHref string
	HTMLHref     string
	// Address is the page's absolute address, when the site's base URL is
	// known (search engines want hreflang and canonical links absolute);
	// empty otherwise.
	Address string
	Current bool
}

func (r *Renderer) langLinks(studyID, current string) []LangLink {
	var out []LangLink
	for _, l := range Languages {
		link := LangLink{
			Code: l.Code, Name: l.Name, Current: l.Code == current,
			MarkdownHref: "../" + l.Code + "/" + markup.LinkPath(studyID) + ".md",
			HTMLHref:     "../../" + l.Code + "/" + studyID + "/index.html",
		}
		if r.BaseURL != "" {
			link.Address = r.BaseURL + l.Code + "/" + studyID + "/index.html"
		}
		out = append(out, link)
	}
	return out
}

// shell is what page.html.tmpl puts around a report's body.
type shell struct {
	Lang, Title string
	Description string // the page's summary for search results, plain text
	Root        string // the path from the page to the site's root
	Others      []LangLink
	Canonical   string // the page's absolute address; empty without a base URL
	// Compare says that the page has an all-runs table to compare two
	// runs of: the page then carries the script that does.
	Compare bool
}

// Report renders one study in one language: report.md.tmpl writes its
// Markdown, then page.html.tmpl and report.html.tmpl its HTML, each
// section from the same view.
func (r *Renderer) Report(in Input, lang string) (*Page, error) {
	s := in.Result.Study
	if len(in.Result.Report.Recommended) == 0 {
		return nil, fmt.Errorf("%s: the study recommends no run", s.Pos.File)
	}
	mdReport, htmlReport := r.mdReports[lang], r.htmlReports[lang]
	if mdReport == nil || htmlReport == nil {
		return nil, fmt.Errorf("no report template for language %q", lang)
	}
	p := r.newReportPage(in, lang)
	charts, err := chart.Draw(p.rep, p.loc.T, p.workloadName, p.stepTitle)
	if err != nil {
		return nil, fmt.Errorf("charts of %s (%s): %w", s.ID, lang, err)
	}
	p.charts = charts
	md := sized(&r.mdSize)
	if err := executeBounded(md, func(w io.Writer) error { return executeSections(mdReport, w, p) }); err != nil {
		return nil, fmt.Errorf("templates/report.md.tmpl (%s, %s): %w%s", s.ID, lang, err, largestLog(err, s, p.repoPath))
	}
	r.mdSize.Store(int64(md.Len()))
	title := plain.Line(p.loc.T("title."+string(s.Objective), "Model", modelName(s.Model), "GPUs", s.Hardware.GPUs(), "GPU", s.Hardware.GPU))
	sh := shell{Lang: lang, Title: title, Description: p.description(title), Root: "../../", Others: r.langLinks(s.ID, lang)}
	for _, o := range sh.Others {
		if o.Current {
			sh.Canonical = o.Address
		}
	}
	allRuns := p.AllRuns()
	sh.Compare = allRuns != nil && allRuns.Compare != nil
	html := sized(&r.htmlSize)
	err = executeBounded(html, func(w io.Writer) error {
		if err := htmlReport.ExecuteTemplate(w, "page-start", sh); err != nil {
			return err
		}
		if err := executeSections(htmlReport, w, p); err != nil {
			return err
		}
		return htmlReport.ExecuteTemplate(w, "page-end", sh)
	})
	if err != nil {
		return nil, fmt.Errorf("templates/report.html.tmpl (%s, %s): %w", s.ID, lang, err)
	}
	r.htmlSize.Store(int64(html.Len()))
	return &Page{Lang: lang, Study: s.ID, Title: title, Markdown: md.Bytes(), HTML: html.Bytes(), Charts: charts}, nil
}

// sized is a buffer with room for a page a little larger than the last
// one (last).
func sized(last *atomic.Int64) *bytes.Buffer {
	var b bytes.Buffer
	b.Grow(int(last.Load()) * 9 / 8)
	return &b
}

// IndexEntry is one report on the landing pages.
type IndexEntry struct {
	Study   string
	Model   string
	GPU     string
	GPUs    int
	Engines []string // names with versions, in the study's order
	// EngineNames are the engines' names without versions, which the
	// landing page filters on: a reader looks for vLLM, not one release.
	EngineNames []string
	Objective   string
	Titles      map[string]string // by language
	// The recommended configuration on the main workload: its name, its
	// change against the baseline, the replicas its figure is projected
	// by (1: measured as is) and whether the change is within noise.
	BestRun      string
	BestChange   string // e.g. "+59.2 %"
	BestReplicas int
	BestNoise    bool
	BestFormula  string // how the change is computed from the logged values
	Example      bool   // simulated logs (kind: example): the page says so
	// What the change is against: the baseline's name and replicas, and
	// the main workload (its id and dataset), for gains on different
	// baselines and workloads are not alike.
	Baseline         string
	BaselineReplicas int
	Workload         string
	// Main is the recommended configuration's figure, which studies on
	// the same GPU and workload are compared by; nil without one.
	Main *report.MainFigure
	// Costs is what the gain costs (report.Answer): plain figures, which
	// a cached build compares with the last build's.
	Costs []report.CostRange
}

// bestChange is the landing page's gain of a study's recommended
// configuration, and what follows it: projected figures and changes within
// noise said as the report says them.
func bestChange(loc *localizer, e IndexEntry) (change, note string) {
	change = e.BestChange
	if e.BestNoise {
		change = "≈ " + change
		note = loc.T("change.noise")
	}
	change = loc.Figure(change)
	if e.BestReplicas > 1 {
		note += loc.T("index.best_projected", "Replicas", e.BestReplicas)
	}
	return change, note
}

// Index renders the landing page of one language, which lists every report;
// root is the path from the page to the site's root ("" or "../").
func (r *Renderer) Index(entries []IndexEntry, lang, root string) ([]byte, error) {
	loc := r.localizer(lang)
	t, err := r.index.Clone()
	if err != nil {
		return nil, err
	}
	distinct := func(get func(IndexEntry) []string) []string {
		var out []string
		for _, e := range entries {
			for _, v := range get(e) {
				if v = plain.Line(v); !slices.Contains(out, v) {
					out = append(out, v)
				}
			}
		}
		slices.Sort(out)
		return out
	}
	// Reports are linked relative to the page: site/<lang>/index.html is
	// in their folder, the site's own index.html one above it.
	dir := ""
	if root == "" {
		dir = lang + "/"
	}
	rows := make([]indexRow, len(entries))
	for i, e := range entries {
		page := dir + e.Study
		// html/template escapes markup; plain.Line the characters it keeps.
		rows[i] = indexRow{Model: plain.Line(e.Model), GPU: plain.Line(e.GPU), GPUs: plain.Line(loc.T("index.gpus", "Count", e.GPUs, "GPU", e.GPU)),
			Engines: plain.Line(strings.Join(e.Engines, loc.T("chart.list_separator"))), EngineKeys: plain.Line(strings.Join(e.EngineNames, "|")),
			Title: plain.Line(e.Titles[lang]), Href: page + "/index.html", MarkdownHref: page + ".md",
			Objective: loc.T("index.objective." + e.Objective), BestRun: plain.Line(e.BestRun), BestFormula: plain.Line(e.BestFormula),
			CSVHref: root + "data/" + e.Study + ".csv", JSONHref: root + "data/" + e.Study + ".json", Workload: e.Workload}
		if e.Example {
			rows[i].Example = loc.T("index.example")
		}
		if e.BestRun != "" {
			rows[i].BestChange, rows[i].BestNote = bestChange(loc, e)
			if costs := costText(loc, e.Costs); costs != "" {
				rows[i].Cost = loc.T("index.cost", "Costs", costs)
			}
			rows[i].Against = loc.T("index.against", "Baseline", e.Baseline)
			if e.BaselineReplicas > 1 {
				rows[i].Against += loc.T("index.best_projected", "Replicas", e.BaselineReplicas)
			}
		}
	}
	models := distinct(func(e IndexEntry) []string { return []string{e.Model} })
	description := loc.T("index.intro")
	if len(models) > 0 {
		description = loc.T("index.description", "Models", strings.Join(models, loc.T("chart.list_separator")))
	}
	canonical := "" // the page's own address: the site's landing page, or its language's
	if r.BaseURL != "" && root == "" {
		canonical = r.BaseURL + "index.html"
	} else if r.BaseURL != "" {
		canonical = r.BaseURL + lang + "/index.html"
	}
	var buf bytes.Buffer
	buf.Grow(len(entries) * 600)
	t = t.Funcs(htmltemplate.FuncMap{"T": loc.T, "join": strings.Join})
	err = executeBounded(&buf, func(w io.Writer) error {
		return t.Execute(w, map[string]any{
			"Entries": entries, "Rows": rows, "Languages": Languages, "Lang": lang, "Root": root,
			"Description": description, "Canonical": canonical, "Base": r.BaseURL,
			"Models":  models,
			"GPUs":    distinct(func(e IndexEntry) []string { return []string{e.GPU} }),
			"Engines": distinct(func(e IndexEntry) []string { return e.EngineNames }),
			"Matched": matchedGroups(loc, entries, dir),
		})
	})
	if err != nil {
		return nil, fmt.Errorf("templates/index.html.tmpl: %w", err)
	}
	return buf.Bytes(), nil
}

// indexRow is one report's row on a landing page, in the page's language,
// its links relative to the page: one template action per value keeps the
// landing pages cheap at a thousand reports.
type indexRow struct {
	Model, GPU         string // as the filters match them
	GPUs               string // "8 × GPU"
	Engines            string // names with versions, comma-separated
	EngineKeys         string // names alone, "|"-separated, for the filter
	Title, Objective   string
	BestRun            string // the recommended configuration, or empty
	BestChange         string // its gain over the baseline on the main workload
	BestNote           string // within noise, projected
	Cost               string // what the gain costs, where it trades latency for it
	BestFormula        string
	Against            string // the baseline the gain is against
	Workload           string // the main workload the gain is measured on
	Href, MarkdownHref string
	CSVHref, JSONHref  string
	Example            string // the mark of a study of simulated logs, or empty
}
