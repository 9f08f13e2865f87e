// Package pipeline runs perflab's stages in order:
// load results/ and content/ -> check -> compute -> render (x language) ->
// site files. It holds no state between calls and writes nothing; the caller
// hands the files to package site.
package pipeline

import (
	"bytes"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/perflab/perflab/internal/check"
	"github.com/perflab/perflab/internal/render"
	"github.com/perflab/perflab/internal/report"
	"github.com/perflab/perflab/internal/safefs"
	"github.com/perflab/perflab/internal/site"
	"github.com/perflab/perflab/internal/study"

	"gopkg.in/yaml.v3"
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

// Project is everything loaded and checked.
type Project struct {
	Results  []check.Result                       // the studies of runs, which become reports
	Articles []check.Result                       // articles without logs: checked, never rendered
	Content  map[string]map[string]*study.Content // lang -> study -> prose
	Problems []check.Diagnostic                   // problems that belong to no study (schema)
	// Freshness compares each study's engine versions with the newest of
	// the same engine in every study (study -> engine id), for the badge
	// of each report's setup.
	Freshness map[string]map[string]report.Freshness
}

// Load reads results/ and content/ and runs every check. The results, the
// prose and the templates are read at the same time: they are independent
// until the translation check, and reading the prose alone keeps a core
// busy for a quarter of the load of 1,000 studies.
func Load(d Dirs) (*Project, error) {
	if _, err := os.Stat(d.Results); err != nil {
		return nil, fmt.Errorf("cannot read the results folder: %w (run perflab from the repository root, or pass --results DIR)", err)
	}
	var (
		content       map[string]map[string]*study.Content
		contentProbs  []study.Problem
		contentErr    error
		templateProbs []check.Diagnostic
		wg            sync.WaitGroup
	)
	if d.Content != "" {
		wg.Go(func() {
			content, contentProbs, contentErr = study.LoadContent(projectFS(d.Content), filepath.ToSlash(d.Content))
		})
	}
	var typeProbs []check.Diagnostic
	wg.Go(func() { typeProbs = typography(d) })
	if d.Locales != "" && d.Templates != "" {
		wg.Go(func() { templateProbs = loadTemplates(d) })
	}
	studies, probs, err := loadStudies(d)
	var results []check.Result
	if err == nil {
		results = check.All(studies)
	}
	wg.Wait()
	if err != nil {
		return nil, err
	}
	p := &Project{Problems: check.Problems(probs), Content: map[string]map[string]*study.Content{}}
	for _, res := range results {
		if res.Study.Article() {
			p.Articles = append(p.Articles, res)
		} else {
			p.Results = append(p.Results, res)
		}
	}
	if d.Content != "" {
		if contentErr != nil && !os.IsNotExist(contentErr) {
			return nil, contentErr
		}
		if content != nil {
			p.Content = content
		}
		p.Problems = append(p.Problems, check.Problems(contentProbs)...)
		prose := p.Content
		if len(d.Only) > 0 {
			// Prose of the other studies is theirs to check.
			prose = map[string]map[string]*study.Content{}
			for lang, byStudy := range p.Content {
				prose[lang] = map[string]*study.Content{}
				for _, id := range d.Only {
					if c := byStudy[id]; c != nil {
						prose[lang][id] = c
					}
				}
			}
		}
		p.Problems = append(p.Problems, check.Translations(studies, prose, filepath.ToSlash(d.Content))...)
	}
	p.Problems = append(p.Problems, templateProbs...)
	p.Problems = append(p.Problems, typeProbs...)
	p.Freshness = report.Freshnesses(engineUses(p.Results))
	return p, nil
}

// typography checks the Chinese and Japanese prose: content files and
// locale files. Files that do not read are reported by their loaders.
func typography(d Dirs) []check.Diagnostic {
	var out []check.Diagnostic
	glossary := &check.Glossary{}
	if d.Locales != "" {
		name := path.Join(filepath.ToSlash(d.Locales), "glossary.yaml")
		if data, err := projectFS(d.Locales).ReadFile("glossary.yaml"); err == nil {
			if err := yaml.Unmarshal(data, glossary); err != nil {
				out = append(out, check.Diagnostic{Rule: check.RuleSchema, Severity: check.Error, File: name, Line: 1,
					Message: fmt.Sprintf("invalid glossary: %v", err)})
			}
		}
	}
	prose := func(file, lang, text string) {
		out = append(out, check.Typography(file, text)...)
		out = append(out, glossary.Check(file, lang, text)...)
		out = append(out, glossary.LatinWords(file, lang, text)...)
		if lang == "ja" {
			out = append(out, check.Register(file, text)...)
		}
	}
	for _, lang := range []string{"zh", "ja"} {
		if d.Locales != "" {
			name := lang + ".yaml"
			if data, err := projectFS(d.Locales).ReadFile(name); err == nil {
				prose(path.Join(filepath.ToSlash(d.Locales), name), lang, string(data))
			}
		}
		if d.Content == "" {
			continue
		}
		cfs := projectFS(d.Content)
		entries, _ := cfs.ReadDir(lang)
		for _, e := range entries {
			if e.Type().IsRegular() && strings.HasSuffix(e.Name(), ".md") {
				if data, err := cfs.ReadFile(path.Join(lang, e.Name())); err == nil {
					prose(path.Join(filepath.ToSlash(d.Content), lang, e.Name()), lang, string(data))
				}
			}
		}
	}
	return out
}

// loadStudies loads every study of d.Results, or only those of d.Only.
func loadStudies(d Dirs) ([]*study.Study, []study.Problem, error) {
	if len(d.Only) == 0 {
		return study.LoadAll(projectFS(d.Results), filepath.ToSlash(d.Results))
	}
	root := filepath.ToSlash(d.Results)
	var studies []*study.Study
	var probs []study.Problem
	for _, id := range d.Only {
		if err := site.CheckPath(id); err != nil || strings.Contains(id, "/") {
			return nil, nil, fmt.Errorf("--study %q is not a study id (a folder name under %s)", id, d.Results)
		}
		s, p, err := study.Load(safefs.New(filepath.Join(d.Results, id), path.Join(root, id)), path.Join(root, id), id)
		if err != nil {
			return nil, nil, err
		}
		probs = append(probs, p...)
		if s != nil {
			studies = append(studies, s)
		}
	}
	p, err := study.UseSharedPrices(projectFS(d.Results), root, studies)
	return studies, append(probs, p...), err
}

// newRenderer loads the templates and locales of d.
func newRenderer(d Dirs) (*render.Renderer, error) {
	r, err := render.New(projectFS(d.Templates), projectFS(d.Locales))
	if err == nil {
		r.RepoURL = strings.TrimRight(d.RepoURL, "/")
	}
	return r, err
}

// loadTemplates reports a template or locale file that does not load, and
// every message one language lacks.
func loadTemplates(d Dirs) []check.Diagnostic {
	r, err := render.New(projectFS(d.Templates), projectFS(d.Locales))
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

// lockedFiles collects files in memory from several goroutines.
type lockedFiles struct {
	mu    sync.Mutex
	files site.Files
}

func (l *lockedFiles) Add(name string, data []byte) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.files.Add(name, data)
}

// Site renders every report in every language, and the landing page, into
// memory.
func Site(p *Project, d Dirs) (site.Files, error) {
	lf := &lockedFiles{files: site.Files{}}
	if err := Generate(p, d, lf); err != nil {
		return nil, err
	}
	return lf.files, nil
}

// Generate renders every report in every language, the landing pages, the
// downloads and the extras, handing each file to out as soon as it is made.
// Reports are rendered on every core; the files do not depend on the order
// in which they are made.
func Generate(p *Project, d Dirs, out Output) error {
	_, err := generate(p, d, out)
	return err
}

// generate is Generate, returning what a build cache keeps of each study.
func generate(p *Project, d Dirs, out Output) ([]studyOutput, error) {
	if err := schemaError(p.Problems); err != nil {
		return nil, err
	}
	r, err := newRenderer(d)
	if err != nil {
		return nil, err
	}
	files := &outputs{out: out, names: map[string]bool{}}
	n := len(p.Results)
	studies := make([]studyOutput, n)
	nl := len(render.Languages)
	// One job per study and language, and one per study for its downloads.
	err = parallel(n*(nl+1), func(job int) error {
		i, li := job/(nl+1), job%(nl+1)
		return renderStudyPart(r, p, d, i, li, &studies[i], files)
	})
	if err != nil {
		return nil, err
	}
	return studies, finish(r, d, studies, files)
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
// the landing pages and its rows of the downloads, as written to
// data/<study>.csv and .json.
type studyOutput struct {
	Entry         render.IndexEntry
	CSV, JSON     []byte
	titles        []string
	recordedFiles []string
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

func (so *studyOutput) record(name string) {
	so.mu.Lock()
	so.recordedFiles = append(so.recordedFiles, name)
	so.mu.Unlock()
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
	sf.so.record(name)
	return nil
}

// renderStudyPart renders study i in language li, or its downloads when li
// is the number of languages.
func renderStudyPart(r *render.Renderer, p *Project, d Dirs, i, li int, so *studyOutput, out Output) error {
	res := p.Results[i]
	files := studyFiles{out, so}
	nl := len(render.Languages)
	if li == nl {
		rows := Records(res.Study, filepath.ToSlash(d.Results), res.Report.Excluded)
		stem := "data/" + res.Study.ID
		csvData, jsonData, err := marshalRecords(stem, rows)
		if err != nil {
			return err
		}
		so.CSV, so.JSON = csvData, jsonData
		if err := files.Add(stem+".csv", csvData); err != nil {
			return err
		}
		return files.Add(stem+".json", jsonData)
	}
	if li == 0 {
		so.mu.Lock()
		so.Entry = indexEntry(res)
		so.mu.Unlock()
	}
	l := render.Languages[li]
	in := render.Input{Result: res, Content: map[string]*study.Content{}, RepoPath: d.RepoPath, Freshness: p.Freshness[res.Study.ID]}
	for _, l := range render.Languages {
		in.Content[l.Code] = p.Content[l.Code][res.Study.ID]
	}
	page, err := r.Report(in, l.Code)
	if err != nil {
		return err
	}
	so.mu.Lock()
	if so.titles == nil {
		so.titles = make([]string, nl)
	}
	so.titles[li] = page.Title
	so.mu.Unlock()
	return addPage(files, page)
}

// finish adds the files made from every study: the landing pages,
// data/all.csv and data/all.json, and the extras.
func finish(r *render.Renderer, d Dirs, studies []studyOutput, files *outputs) error {
	if err := files.Add("style.css", r.CSS); err != nil {
		return err
	}
	entries := make([]render.IndexEntry, len(studies))
	for i := range studies {
		studies[i].addTitles()
		entries[i] = studies[i].Entry
	}
	csvAll, jsonAll := joinCSV(studies), joinJSON(studies)
	if err := files.Add("data/all.csv", csvAll); err != nil {
		return err
	}
	if err := files.Add("data/all.json", jsonAll); err != nil {
		return err
	}
	sort.SliceStable(entries, func(i, j int) bool { return entries[i].Study < entries[j].Study })
	// The landing page of each language, and the site's own (English),
	// rendered side by side: each lists every study.
	nl := len(render.Languages)
	err := parallel(nl+1, func(i int) error {
		lang, name, root := "en", "index.html", ""
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
	return addExtras(files, d) // after every page: it lists them
}

// joinCSV writes the rows of every study as one CSV: the header, then each
// study's rows as in its own file.
func joinCSV(studies []studyOutput) []byte {
	header, err := MarshalCSV(nil)
	if err != nil {
		panic(err) // a header of constant columns
	}
	size := len(header)
	for i := range studies {
		size += len(studies[i].CSV)
	}
	out := make([]byte, 0, size)
	out = append(out, header...)
	for i := range studies {
		if _, rows, ok := bytes.Cut(studies[i].CSV, []byte("\n")); ok {
			out = append(out, rows...)
		}
	}
	return out
}

// joinJSON writes the rows of every study as one JSON array, as
// json.MarshalIndent writes it: the elements of each study's own array,
// separated by commas.
func joinJSON(studies []studyOutput) []byte {
	size := 0
	for i := range studies {
		size += len(studies[i].JSON)
	}
	out := make([]byte, 0, size+8)
	out = append(out, "[\n"...)
	n := 0
	for i := range studies {
		j := studies[i].JSON
		if len(j) < 6 || !bytes.HasPrefix(j, []byte("[\n")) { // "[]\n": no row
			continue
		}
		if n > 0 {
			out = append(out, ",\n"...)
		}
		out = append(out, j[2:len(j)-3]...) // without "[\n" and "\n]\n"
		n++
	}
	if n == 0 {
		return []byte("[]\n")
	}
	return append(out, "\n]\n"...)
}

// addPage adds a report's HTML page, its Markdown and its charts.
func addPage(files Output, page *render.Page) error {
	dir := page.Lang + "/" + page.Study
	if err := files.Add(dir+"/index.html", page.HTML); err != nil {
		return err
	}
	if err := files.Add(dir+".md", page.Markdown); err != nil {
		return err
	}
	for _, ch := range page.Charts {
		if err := files.Add(dir+"/"+ch.Name+".svg", ch.SVG); err != nil {
			return err
		}
	}
	return nil
}

// parallel runs job(0) ... job(n-1) on GOMAXPROCS goroutines and returns the
// error of the lowest-numbered job that failed, so that the error does not
// depend on scheduling. Jobs after a failure may be skipped.
func parallel(n int, job func(i int) error) error {
	errs := make([]error, n)
	var next atomic.Int64
	var failed atomic.Bool
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= n || failed.Load() {
					return
				}
				if errs[i] = job(i); errs[i] != nil {
					failed.Store(true)
				}
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

func indexEntry(res check.Result) render.IndexEntry {
	s, rep := res.Study, res.Report
	e := render.IndexEntry{Study: s.ID, Model: s.Model, GPU: s.Hardware.GPU, GPUs: s.Hardware.GPUs(),
		Objective: string(s.Objective), Titles: map[string]string{}, Example: s.Example()}
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
		}
	}
	return e
}

// engineUses lists the engine versions every study uses, for
// report.Freshnesses.
func engineUses(results []check.Result) []report.EngineUse {
	var out []report.EngineUse
	for _, res := range results {
		out = append(out, report.EngineUses(res.Study)...)
	}
	return out
}

// missingMessages reports every label one language has and another lacks.
func missingMessages(r *render.Renderer, root string) []check.Diagnostic {
	var out []check.Diagnostic
	missing := r.MissingMessages()
	for _, l := range render.Languages {
		for _, id := range missing[l.Code] {
			out = append(out, check.Diagnostic{Rule: check.RuleTranslation, Severity: check.Error,
				File: root + "/" + l.Code + ".yaml", Line: 1,
				Message: fmt.Sprintf("message %q is missing: add its %s translation", id, l.Name)})
		}
	}
	return out
}
