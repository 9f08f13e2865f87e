// Package pipeline runs perflab's stages in order:
// load results/ and content/ -> report -> check -> claims (package assess,
// for each study) -> render (x language) -> site files. It holds no state between calls and writes nothing; the caller
// hands the files to package site.
package pipeline

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/perflab/perflab/internal/check"
	"github.com/perflab/perflab/internal/downloads"
	"github.com/perflab/perflab/internal/recipe"
	"github.com/perflab/perflab/internal/render"
	"github.com/perflab/perflab/internal/report"
	"github.com/perflab/perflab/internal/safefs"
	"github.com/perflab/perflab/internal/study"
	"github.com/perflab/perflab/internal/workers"
)

// Dirs are the project folders a build reads.
type Dirs struct {
	Results, Content, Locales, Templates string
	// BaseURL is the address the site is served at (--base-url), for the
	// sitemaps and 404.html; empty: unknown (see addExtras).
	BaseURL string
	// RepoURL is the repository's web address (--repo-url), such as
	// https://github.com/org/repo: reports then link each log to its file
	// there and invite feedback. Empty: no such links.
	RepoURL string
	// Only, when set, restricts Load to these study ids (perflab check
	// --study): a pull request's check reads the studies it touches, not
	// a thousand others. Copies are then looked for among them only.
	Only []string

	reads *readLedger  // what a build read, for each study's evidence; nil: not noted
	tree  *projectTree // the walk of the project folders; nil: none yet
	sign  bool         // the walk signs each study folder, for a build cache
	own   *ownReuse    // the checks of each study's own files a build cache holds; nil: none
}

// RepoPath names a file read from one of the folders as the repository
// does ("results/<study>/runs/<run>/<workload>.log"), whatever path the
// folder was given as, so that pages and downloads do not depend on where
// perflab ran from. A file outside the folders keeps its path.
func (d Dirs) RepoPath(file string) string {
	for _, f := range [...]struct{ dir, name string }{{d.Results, "results"}, {d.Content, "content"}, {d.Locales, "locales"}, {d.Templates, "templates"}} {
		if f.dir == "" {
			continue
		}
		if rest, ok := strings.CutPrefix(file, strings.TrimSuffix(filepath.ToSlash(f.dir), "/")+"/"); ok {
			return f.name + "/" + rest
		}
	}
	return file
}

// projectFS reads a project folder as given, dir, through package safefs:
// it may come from an untrusted pull request, so no link is followed and
// no named pipe, device or socket opened, and every error names the file
// in the folder as given.
func projectFS(dir string) *safefs.FS {
	return safefs.New(dir, filepath.ToSlash(dir))
}

// DefaultDirs are the folders at the top of the repository.
var DefaultDirs = Dirs{Results: "results", Content: "content", Locales: "locales", Templates: "templates"}

// Project is what a build or a check found. Each study was let go once
// checked: Results keep its id and diagnostics, Report is nil.
type Project struct {
	Results  []check.Result                       // the studies of runs, which become reports
	Articles []check.Result                       // articles without logs: checked, never rendered
	Content  map[string]map[string]*study.Content // lang -> study -> prose
	Problems []check.Diagnostic                   // problems that belong to no study (schema)
	// Freshness compares each study's engine versions with the newest of
	// the same engine in every study (study -> engine id), for the badge
	// of each report's setup.
	Freshness map[string]map[string]report.Freshness

	uses   [][]report.EngineUse // of each of Results, for the freshness badges
	prices study.SharedPrices
}

// checkResults fails when the results folder cannot be read.
func checkResults(d Dirs) error {
	if _, err := os.Stat(d.Results); err != nil {
		return fmt.Errorf("cannot read the results folder: %w (run perflab from the repository root, or pass --results DIR)", err)
	}
	return nil
}

// sideLoads are what a load reads beside the studies, at the same time:
// the prose, and the checks of typography and templates.
type sideLoads struct {
	wg            sync.WaitGroup
	content       map[string]map[string]*study.Content
	contentProbs  []study.Problem
	contentErr    error
	templateProbs []check.Diagnostic
	typeProbs     []check.Diagnostic
	linkProbs     []check.Diagnostic // link-spoof, linktext.go
	treeProbs     []check.Diagnostic // projectTree.checkStructure
}

// startSideLoads starts them; wg.Wait waits for them.
func startSideLoads(d Dirs) *sideLoads {
	side := &sideLoads{}
	if d.Content != "" {
		side.wg.Go(func() {
			side.content, side.contentProbs, side.contentErr = study.LoadContent(d.folder(d.Content), filepath.ToSlash(d.Content))
		})
	}
	side.wg.Go(func() { side.typeProbs = typography(d) })
	if d.Content != "" {
		side.wg.Go(func() { side.linkProbs = spoofedLinks(d) })
	}
	side.wg.Go(func() { side.treeProbs = d.tree.checkStructure() })
	if d.Locales != "" && d.Templates != "" {
		side.wg.Go(func() { side.templateProbs = loadTemplates(d) })
	}
	return side
}

// assemble makes the project of checked studies and what was read beside
// them: the prose and its translation check, the problems of every kind,
// and the staleness of engine versions. The checks of prose figures need
// each study's figures, which a stream has only later: assemble returns
// the other problems of the prose and the prose itself for them.
func assemble(d Dirs, c *checked, side *sideLoads) (*Project, *proseChecks, error) {
	p := &Project{Content: map[string]map[string]*study.Content{},
		prices: c.prices}
	studies := make([]*study.Study, len(c.results))
	for i, res := range c.results {
		studies[i] = res.Study
		if res.Study.Article() {
			p.Articles = append(p.Articles, res)
			continue
		}
		p.Results = append(p.Results, res)
		p.uses = append(p.uses, c.uses[i])
	}
	pc := &proseChecks{prose: map[string]map[string]*study.Content{}}
	if d.Content != "" {
		if side.contentErr != nil && !os.IsNotExist(side.contentErr) {
			return nil, nil, side.contentErr
		}
		if side.content != nil {
			p.Content = side.content
		}
		pc.before = check.Problems(side.contentProbs)
		for lang, byStudy := range p.Content {
			// A copy: a released study's prose leaves p.Content below.
			pc.prose[lang] = map[string]*study.Content{}
			for id, c := range byStudy {
				if len(d.Only) == 0 || slices.Contains(d.Only, id) {
					pc.prose[lang][id] = c // the other studies' prose is theirs to check
				}
			}
		}
		pc.before = append(pc.before, check.Translations(studies, pc.prose, filepath.ToSlash(d.Content))...)
		pc.before = append(pc.before, d.own.drift(pc.prose, filepath.ToSlash(d.Content))...)
	}
	// Loaded again with their studies, one at a time; until then the id
	// is all that is needed of either.
	for i, res := range p.Results {
		for _, byStudy := range p.Content {
			delete(byStudy, res.Study.ID)
		}
		p.Results[i].Study = &study.Study{ID: res.Study.ID, Kind: res.Study.Kind, Dir: res.Study.Dir, Pos: res.Study.Pos}
	}
	pc.after = slices.Concat(side.templateProbs, side.typeProbs, side.linkProbs, side.treeProbs)
	p.Problems = pc.list(c)
	var uses []report.EngineUse
	for _, u := range p.uses { // reports only: articles are never rendered
		uses = append(uses, u...)
	}
	p.Freshness = report.Freshnesses(uses)
	return p, pc, nil
}

// proseChecks are the problems of the prose, in the order they are
// listed: before and after those of the prose figures.
type proseChecks struct {
	mu            sync.Mutex                           // the stream reads and releases prose on every core
	prose         map[string]map[string]*study.Content // lang -> study -> prose, as checked
	before, after []check.Diagnostic
	figures       []check.Diagnostic
	invisible     []check.Diagnostic // of the tree's texts, once every study was read
}

// of is a study's prose in every language it is written in, as read
// before any study was: the prose its checks read is the prose its pages
// show, and the build reads each file once.
func (pc *proseChecks) of(id string) map[string]*study.Content {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	out := map[string]*study.Content{}
	for _, l := range study.Languages {
		if c := pc.prose[l][id]; c != nil {
			out[l] = c
		}
	}
	return out
}

// release drops a study's prose once its pages are written: a tree of
// 10,000 studies would otherwise hold every study's prose to the end.
func (pc *proseChecks) release(id string) {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	for _, byStudy := range pc.prose {
		delete(byStudy, id)
	}
}

// check checks the figures of the prose of results.
func (pc *proseChecks) check(d Dirs, results []check.Result) []check.Diagnostic {
	if d.Content == "" {
		return nil
	}
	prose := map[string]map[string]*study.Content{}
	for _, res := range results {
		for lang, c := range pc.of(res.Study.ID) {
			if prose[lang] == nil {
				prose[lang] = map[string]*study.Content{}
			}
			prose[lang][res.Study.ID] = c
		}
	}
	return check.ProseFigures(results, prose, filepath.ToSlash(d.Content))
}

// list lists every problem that belongs to no study.
func (pc *proseChecks) list(c *checked) []check.Diagnostic {
	out := check.Problems(c.problems())
	out = append(out, pc.before...)
	out = append(out, pc.figures...)
	out = append(out, pc.after...)
	return append(out, pc.invisible...)
}

// typography reads what people wrote in each language, the locale files
// and the prose, for check's typography rule (Glossary.Text), with the
// glossary of locales/. Files that do not read are reported by their
// loaders.
func typography(d Dirs) []check.Diagnostic {
	var out []check.Diagnostic
	glossary := &check.Glossary{}
	if d.Locales != "" {
		if data, err := d.folder(d.Locales).ReadFile("glossary.yaml"); err == nil {
			var probs []check.Diagnostic
			glossary, probs = check.ParseGlossary(path.Join(filepath.ToSlash(d.Locales), "glossary.yaml"), data)
			out = append(out, probs...)
		}
	}
	names := map[string][]string{} // study -> its names, read once
	for li, lang := range study.Languages {
		if !glossary.Reads(lang) {
			continue
		}
		if d.Locales != "" {
			name := lang + ".yaml"
			if data, err := d.folder(d.Locales).ReadFile(name); err == nil {
				out = append(out, glossary.Text(path.Join(filepath.ToSlash(d.Locales), name), lang, string(data), nil)...)
			}
		}
		if d.Content == "" {
			continue
		}
		cfs := d.folder(d.Content)
		entries, _ := cfs.ReadDir(lang)
		for _, e := range entries {
			id, ok := strings.CutSuffix(e.Name(), ".md")
			if !ok || !e.Type().IsRegular() || len(d.Only) > 0 && !slices.Contains(d.Only, id) {
				continue // the other studies' prose is theirs to check, as in Load
			}
			if diags, ok := d.own.reused(typographyOf, id, li); ok {
				out = append(out, diags...)
				continue
			}
			if data, err := cfs.ReadFile(path.Join(lang, e.Name())); err == nil {
				diags := glossary.Text(path.Join(filepath.ToSlash(d.Content), lang, e.Name()), lang, string(data), func() []string {
					if _, ok := names[id]; !ok {
						names[id] = studyNames(d, id)
					}
					return names[id]
				})
				d.own.keep(typographyOf, id, li, diags)
				out = append(out, diags...)
			}
		}
	}
	return out
}

// newRenderer loads the templates and locales of d.
func newRenderer(d Dirs) (*render.Renderer, error) {
	r, err := render.New(d.folder(d.Templates), d.folder(d.Locales))
	if err != nil {
		return nil, err
	}
	r.RepoURL = strings.TrimRight(d.RepoURL, "/")
	r.BaseURL, err = normalizeBaseURL(d.BaseURL)
	return r, err
}

// loadTemplates reports a template or locale file that does not load, and
// every message one language lacks.
func loadTemplates(d Dirs) []check.Diagnostic {
	r, err := render.New(d.folder(d.Templates), d.folder(d.Locales))
	if err == nil {
		// The 404 page holds nothing of a study: written here as the build
		// writes it, its template cannot pass check and fail the build.
		_, err = r.NotFound("index.html")
	}
	if err == nil {
		return missingMessages(r, filepath.ToSlash(d.Locales))
	}
	if refused, file := safefs.Refused(err); refused != nil {
		// A link or a named pipe, named by safefs in the folders given
		// (templates/ or locales/ itself, when that is the link); the
		// message says what to do.
		return []check.Diagnostic{{Rule: check.RuleSchema, Severity: check.Error, File: file, Message: refused.Error()}}
	}
	// render's errors start with the file they are about, named inside
	// templates/ or locales/: name it in the folders perflab was given.
	file, msg, _ := strings.Cut(err.Error(), ": ")
	line := 0
	if i := strings.LastIndexByte(file, ':'); i > 0 {
		line, _ = strconv.Atoi(file[i+1:])
		file = file[:i]
	}
	if rest, ok := strings.CutPrefix(file, "locales/"); ok {
		file = path.Join(filepath.ToSlash(d.Locales), rest)
	} else if rest, ok := strings.CutPrefix(file, "templates/"); ok {
		file = path.Join(filepath.ToSlash(d.Templates), rest)
	}
	return []check.Diagnostic{{Rule: check.RuleSchema, Severity: check.Error,
		File: file, Line: line, Message: msg + ": fix the template or locale file"}}
}

// Diagnostics returns every diagnostic, grouped by study in order of id.
func (p *Project) Diagnostics() []check.Diagnostic {
	out := append([]check.Diagnostic(nil), p.Problems...)
	for _, r := range p.Results {
		out = append(out, r.Diagnostics...)
	}
	for _, r := range p.Articles {
		out = append(out, r.Diagnostics...)
	}
	return out
}

// Failed reports whether an unacknowledged error remains.
func (p *Project) Failed() bool {
	for _, d := range p.Diagnostics() {
		if d.Severity == check.Error && !d.Acknowledged() {
			return true
		}
	}
	return false
}

// Output receives the files of a site. Add is called from several
// goroutines at once; site.Writer is one.
type Output interface {
	Add(name string, data []byte) error
}

// A fileCreator takes a file in pieces (site.Writer): the site-wide
// downloads of 10,000 studies are too large to be made in memory first.
type fileCreator interface {
	Create(name string) (io.WriteCloser, error)
}

// A fileReader gives back a file it was given (site.Writer, in memory):
// the site-wide downloads are joined from each study's own.
type fileReader interface {
	ReadFile(name string) ([]byte, error)
}

// create opens a file of out to be written in pieces: in place when out
// can take it so, else in memory, added to out on Close.
func create(out Output, name string) (io.WriteCloser, error) {
	if c, ok := out.(fileCreator); ok {
		return c.Create(name)
	}
	return &memFile{out: out, name: name}, nil
}

// memFile is a file made in memory and added to its Output on Close.
type memFile struct {
	bytes.Buffer
	out  Output
	name string
}

func (m *memFile) Close() error { return m.out.Add(m.name, m.Bytes()) }

// readFile reads back a file given to out.
func readFile(out Output, name string) ([]byte, error) {
	if r, ok := out.(fileReader); ok {
		return r.ReadFile(name)
	}
	return nil, fmt.Errorf("the site's output cannot give back %s", name)
}

// outputs passes files on to an Output and remembers their names, for the
// sitemaps.
type outputs struct {
	out   Output
	mu    sync.Mutex
	names map[string]bool
}

func (o *outputs) Add(name string, data []byte) error {
	if err := o.out.Add(name, data); err != nil {
		return err
	}
	o.mu.Lock()
	o.names[name] = true
	o.mu.Unlock()
	return nil
}

// note notes a file put into the Output by other means (kept from the
// site before).
func (o *outputs) note(name string) {
	o.mu.Lock()
	o.names[name] = true
	o.mu.Unlock()
}

func (o *outputs) Create(name string) (io.WriteCloser, error) {
	w, err := create(o.out, name)
	if err == nil {
		o.mu.Lock()
		o.names[name] = true
		o.mu.Unlock()
	}
	return w, err
}

func (o *outputs) ReadFile(name string) ([]byte, error) { return readFile(o.out, name) }

// Has reports whether a file was added.
func (o *outputs) Has(name string) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.names[name]
}

// Names lists the files added, sorted.
func (o *outputs) Names() []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	names := make([]string, 0, len(o.names))
	for n := range o.names {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// schemaError refuses to build over a broken input.
func schemaError(problems []check.Diagnostic) error {
	for _, d := range problems {
		if d.Rule == check.RuleSchema && d.Severity == check.Error {
			return fmt.Errorf("cannot build: %s", d)
		}
	}
	return nil
}

// studyOutput is what the site-wide files need of one study: its entry on
// the landing pages and the names of its files (its downloads are read
// back from the site, see downloads.Join).
type studyOutput struct {
	Entry         render.IndexEntry
	titles        []string
	recordedFiles []string
	joined        [2][sha256.Size]byte // of data/<id>.csv and .json, for a build cache
	mu            sync.Mutex
}

// addTitles puts the titles of the pages rendered into the study's entry.
func (so *studyOutput) addTitles() {
	if so.titles == nil {
		return
	}
	so.Entry.Titles = map[string]string{}
	for li, l := range render.Languages {
		so.Entry.Titles[l.Code] = so.titles[li]
	}
}

// record notes a file of the study; the rows that data/all.* join are
// hashed too. The pages come before the downloads, so the id is known.
func (so *studyOutput) record(name string, data []byte) {
	so.mu.Lock()
	defer so.mu.Unlock()
	so.recordedFiles = append(so.recordedFiles, name)
	switch stem := "data/" + so.Entry.Study; name {
	case stem + ".csv":
		so.joined[0] = sha256.Sum256(data)
	case stem + ".json":
		so.joined[1] = sha256.Sum256(data)
	}
}

// joinedSig identifies the study's rows in data/all.*.
func (so *studyOutput) joinedSig() string {
	so.mu.Lock()
	defer so.mu.Unlock()
	return hex.EncodeToString(so.joined[0][:]) + hex.EncodeToString(so.joined[1][:])
}

// studyFiles passes a study's files on, noting their names.
type studyFiles struct {
	out Output
	so  *studyOutput
}

func (sf studyFiles) Add(name string, data []byte) error {
	if err := sf.out.Add(name, data); err != nil {
		return err
	}
	sf.so.record(name, data)
	return nil
}

// renderStudy renders a study's pages in every language, then its
// downloads, one after the other.
func renderStudy(r *render.Renderer, p *Project, d Dirs, res check.Result, content map[string]*study.Content, so *studyOutput, out Output) error {
	if err := check.NonFiniteError(res); err != nil {
		return err
	}
	// The recipes scan the logs: once for the study, before its pages.
	recipes := recipe.All(res.Study)
	for li := range render.Languages {
		if err := renderPage(r, p, d, res, content, recipes, li, so, out); err != nil {
			return err
		}
	}
	return renderDownloads(d, res, recipes, so, out)
}

// renderDownloads adds a study's downloads: its records, analysis, bench
// reports and evidence.
func renderDownloads(d Dirs, res check.Result, recipes []recipe.Recipe, so *studyOutput, out Output) error {
	files := studyFiles{out, so}
	rows := downloads.Records(res.Study, filepath.ToSlash(d.Results), res.Report.Excluded)
	derived := &hashedFiles{out: files}
	if err := downloads.AddAnalysis(derived, res.Report); err != nil {
		return err
	}
	if err := downloads.AddBenchReports(derived, res, filepath.ToSlash(d.Results)); err != nil {
		return err
	}
	return addStudyDownloads(files, d, res.Study, recipes, rows, derived.hashes)
}

// renderPage renders a study, with its prose by language, in language li.
func renderPage(r *render.Renderer, p *Project, d Dirs, res check.Result, content map[string]*study.Content, recipes []recipe.Recipe, li int, so *studyOutput, out Output) error {
	if li == 0 {
		so.mu.Lock()
		so.Entry = indexEntry(res)
		so.mu.Unlock()
	}
	l := render.Languages[li]
	in := render.Input{Result: res, Content: map[string]*study.Content{}, RepoPath: d.RepoPath, Freshness: p.Freshness[res.Study.ID], Recipes: recipes}
	for _, l := range render.Languages {
		in.Content[l.Code] = content[l.Code]
	}
	page, err := r.Report(in, l.Code)
	if err != nil {
		return err
	}
	so.mu.Lock()
	if so.titles == nil {
		so.titles = make([]string, len(render.Languages))
	}
	so.titles[li] = page.Title
	so.mu.Unlock()
	return addPage(studyFiles{out, so}, page)
}

// finish adds the files made from every study: the landing pages,
// data/all.csv and data/all.json, and the extras.
func finish(r *render.Renderer, d Dirs, studies []studyOutput, read func(name string) ([]byte, error), files *outputs) error {
	if err := files.Add("style.css", r.CSS); err != nil {
		return err
	}
	entries := make([]render.IndexEntry, len(studies))
	for i := range studies {
		studies[i].addTitles()
		entries[i] = studies[i].Entry
	}
	ids := make([]string, len(entries))
	for i, e := range entries {
		ids[i] = e.Study
	}
	if err := downloads.Join(ids, read, func(name string) (io.WriteCloser, error) { return create(files, name) }); err != nil {
		return err
	}
	// Real measurements first, then the studies of simulated logs.
	sort.SliceStable(entries, func(i, j int) bool {
		if entries[i].Example != entries[j].Example {
			return entries[j].Example
		}
		return entries[i].Study < entries[j].Study
	})
	// The landing page of each language, and the site's own (English),
	// rendered side by side: each lists every study.
	nl := len(render.Languages)
	err := workers.Run(nl+1, func(i int) error {
		lang, name, root := render.Languages[0].Code, "index.html", ""
		if i < nl {
			lang = render.Languages[i].Code
			name, root = lang+"/index.html", "../"
		}
		index, err := r.Index(entries, lang, root)
		if err != nil {
			return err
		}
		return files.Add(name, index)
	})
	if err != nil {
		return err
	}
	return addExtras(r, files, d) // after every page: it lists them
}

// utf8BOM opens each report's Markdown download. Served as text/markdown
// without a charset (python -m http.server, many static hosts), a .md file
// is shown by browsers as windows-1252 ("8 Ã— NVIDIA"); a byte order mark
// is the one sign of UTF-8 that every browser honours before the server's
// headers and its own guess (WHATWG Encoding, "decode"), and editors,
// GitHub and cmark-gfm read it and skip it. The HTML pages declare their
// charset and take none.
var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// addPage adds a report's HTML page, its Markdown download and its charts.
func addPage(files Output, page *render.Page) error {
	dir := page.Lang + "/" + page.Study
	if err := files.Add(dir+"/index.html", page.HTML); err != nil {
		return err
	}
	if err := files.Add(dir+".md", append(slices.Clip(utf8BOM), page.Markdown...)); err != nil {
		return err
	}
	for _, ch := range page.Charts {
		if err := files.Add(dir+"/"+ch.Name+".svg", ch.SVG); err != nil {
			return err
		}
		if err := files.Add(dir+"/narrow/"+ch.Name+".svg", ch.Narrow); err != nil {
			return err
		}
	}
	return nil
}

func indexEntry(res check.Result) render.IndexEntry {
	s, rep := res.Study, res.Report
	e := render.IndexEntry{Study: s.ID, Model: s.Model, GPU: s.Hardware.GPU, GPUs: s.Hardware.GPUs(),
		Objective: string(s.Objective), Titles: map[string]string{}, Example: s.Example(), Main: rep.MainFigure()}
	if a := rep.Answer(); a != nil {
		e.Costs = a.Costs
	}
	for _, eng := range s.Engines {
		e.Engines = append(e.Engines, eng.Name+" "+eng.Version)
		if !slices.Contains(e.EngineNames, eng.Name) {
			e.EngineNames = append(e.EngineNames, eng.Name)
		}
	}
	if len(rep.Recommended) > 0 && rep.Main != nil {
		if row := rep.RowByWorkload(rep.Main.ID); row != nil && row.Change != nil {
			e.BestRun, e.BestChange, e.BestNoise = rep.Recommended[0].Name, report.FormatPercent(row.Change.Percent), row.Change.Noise
			e.BestReplicas, e.BestFormula = row.Change.To.Replicas, row.Change.Formula
			e.Baseline, e.BaselineReplicas = row.Baseline.Run.Name, row.Change.From.Replicas
		}
	}
	if rep.Main != nil {
		e.Workload = rep.Main.ID
		if rep.Main.Dataset != "" && rep.Main.Dataset != rep.Main.ID {
			e.Workload += " · " + rep.Main.Dataset
		}
	}
	return e
}

// missingMessages reports every label one language has and another lacks.
func missingMessages(r *render.Renderer, root string) []check.Diagnostic {
	var out []check.Diagnostic
	missing, fields := r.MissingMessages(), r.FieldProblems()
	for _, l := range render.Languages {
		for _, m := range missing[l.Code] {
			msg := fmt.Sprintf("message %q is missing: add its %s translation", m.ID, l.Name)
			if m.Required {
				msg = fmt.Sprintf("message %q is missing, and the pages need it: add it here, in %s (and in every other locale, each in its language)", m.ID, l.Name)
			}
			out = append(out, check.Diagnostic{Rule: check.RuleTranslation, Severity: check.Error,
				File: root + "/" + l.Code + ".yaml", Line: m.Line, Message: msg})
		}
		for _, f := range fields[l.Code] {
			out = append(out, check.Diagnostic{Rule: check.RuleTranslation, Severity: check.Error,
				File: root + "/" + l.Code + ".yaml", Line: f.Line,
				Message: fmt.Sprintf("message %q inserts {{.%s}}, which it is never given, so the page would show \"<no value>\": use only %s", f.ID, f.Field, f.Allowed)})
		}
	}
	return out
}
