// Package build runs perflab's stages in order:
// load results/ and content/ -> check -> compute -> render (x language) ->
// site files. It holds no state between calls and writes nothing; the caller
// hands the files to package site.
package build

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/perflab/perflab/internal/check"
	"github.com/perflab/perflab/internal/render"
	"github.com/perflab/perflab/internal/report"
	"github.com/perflab/perflab/internal/site"
	"github.com/perflab/perflab/internal/study"
)

// Dirs are the project folders a build reads.
type Dirs struct {
	Results, Content, Locales, Templates string
	// BaseURL is the address the site is served at (--base-url), for the
	// sitemaps and 404.html; empty: unknown (see addExtras).
	BaseURL string
}

// DefaultDirs are the folders at the top of the repository.
var DefaultDirs = Dirs{Results: "results", Content: "content", Locales: "locales", Templates: "templates"}

// Project is everything loaded and checked.
type Project struct {
	Results  []check.Result
	Content  map[string]map[string]*study.Content // lang -> study -> prose
	Problems []check.Diagnostic                   // problems that belong to no study (schema)
}

// Load reads results/ and content/ and runs every check.
func Load(d Dirs) (*Project, error) {
	if _, err := os.Stat(d.Results); err != nil {
		return nil, fmt.Errorf("cannot read the results folder: %w (run perflab from the repository root, or pass --results DIR)", err)
	}
	studies, probs, err := study.LoadAll(os.DirFS(d.Results), filepath.ToSlash(d.Results))
	if err != nil {
		return nil, err
	}
	p := &Project{Problems: check.Problems(probs), Results: check.All(studies)}
	p.Content = map[string]map[string]*study.Content{}
	if d.Content != "" {
		content, cprobs, err := study.LoadContent(os.DirFS(d.Content), filepath.ToSlash(d.Content))
		if err != nil && !os.IsNotExist(err) {
			return nil, err
		}
		if content != nil {
			p.Content = content
		}
		p.Problems = append(p.Problems, check.Problems(cprobs)...)
		p.Problems = append(p.Problems, check.Translations(studies, p.Content, filepath.ToSlash(d.Content))...)
	}
	if d.Locales != "" && d.Templates != "" {
		r, err := render.New(os.DirFS(d.Templates), os.DirFS(d.Locales))
		if err != nil {
			// render's errors start with the file they are about.
			file, msg, _ := strings.Cut(err.Error(), ": ")
			line := 0
			if i := strings.LastIndexByte(file, ':'); i > 0 {
				line, _ = strconv.Atoi(file[i+1:])
				file = file[:i]
			}
			p.Problems = append(p.Problems, check.Diagnostic{Rule: check.RuleSchema, Severity: check.Error,
				File: file, Line: line, Message: msg + ": fix the template or locale file"})
		} else {
			p.Problems = append(p.Problems, missingMessages(r, filepath.ToSlash(d.Locales))...)
		}
	}
	return p, nil
}

// Diagnostics returns every diagnostic, grouped by study in order of id.
func (p *Project) Diagnostics() []check.Diagnostic {
	out := append([]check.Diagnostic(nil), p.Problems...)
	for _, r := range p.Results {
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

// Site renders every report in every language, and the landing page.
func Site(p *Project, d Dirs) (site.Files, error) {
	for _, d := range p.Problems {
		if d.Rule == check.RuleSchema && d.Severity == check.Error {
			return nil, fmt.Errorf("cannot build: %s", d)
		}
	}
	r, err := render.New(os.DirFS(d.Templates), os.DirFS(d.Locales))
	if err != nil {
		return nil, err
	}
	files := site.Files{}
	if err := files.Add("style.css", r.CSS); err != nil {
		return nil, err
	}
	var entries []render.IndexEntry
	for _, res := range p.Results {
		in := render.Input{Result: res, Content: map[string]*study.Content{}}
		for _, l := range render.Languages {
			in.Content[l.Code] = p.Content[l.Code][res.Study.ID]
		}
		entry := indexEntry(res)
		for _, l := range render.Languages {
			page, err := r.Report(in, l.Code)
			if err != nil {
				return nil, err
			}
			entry.Titles[l.Code] = page.Title
			if err := files.Add(l.Code+"/"+res.Study.ID+"/index.html", page.HTML); err != nil {
				return nil, err
			}
			if err := files.Add(l.Code+"/"+res.Study.ID+".md", page.Markdown); err != nil {
				return nil, err
			}
			for _, ch := range page.Charts {
				if err := files.Add(l.Code+"/"+res.Study.ID+"/"+ch.Name+".svg", ch.SVG); err != nil {
					return nil, err
				}
			}
		}
		entries = append(entries, entry)
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Study < entries[j].Study })
	for _, l := range render.Languages {
		index, err := r.Index(entries, l.Code, "../")
		if err != nil {
			return nil, err
		}
		if err := files.Add(l.Code+"/index.html", index); err != nil {
			return nil, err
		}
	}
	index, err := r.Index(entries, "en", "")
	if err != nil {
		return nil, err
	}
	if err := files.Add("index.html", index); err != nil {
		return nil, err
	}
	if err := addDownloads(files, p.Results, d.Results); err != nil {
		return nil, err
	}
	if err := addExtras(files, d); err != nil { // after every page: it lists them
		return nil, err
	}
	return files, nil
}

func indexEntry(res check.Result) render.IndexEntry {
	s, rep := res.Study, res.Report
	e := render.IndexEntry{Study: s.ID, Model: s.Model, GPU: s.Hardware.GPU, GPUs: s.Hardware.GPUs(),
		Objective: string(s.Objective), Titles: map[string]string{}}
	for _, eng := range s.Engines {
		e.Engines = append(e.Engines, eng.Name+" "+eng.Version)
	}
	if len(rep.Recommended) > 0 && rep.Main != nil {
		if row := rep.RowByWorkload(rep.Main.ID); row != nil && row.Change != nil {
			e.Best = fmt.Sprintf("%s (%s)", rep.Recommended[0].Name, report.FormatPercent(row.Change.Percent))
		}
	}
	return e
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
