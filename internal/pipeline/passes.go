package pipeline

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/perflab/perflab/internal/check"
	"github.com/perflab/perflab/internal/par"
	"github.com/perflab/perflab/internal/report"
	"github.com/perflab/perflab/internal/safefs"
	"github.com/perflab/perflab/internal/site"
	"github.com/perflab/perflab/internal/study"
)

// checked is what loading and checking the study folders gives, in id order.
type checked struct {
	results  []check.Result
	released bool                          // studies (not articles) let go once checked: Study is a stub, Report nil
	blocks   [][]check.BlockRef            // each study's result blocks, for the copy rule and the cache
	uses     [][]report.EngineUse          // each study's engine versions, for the staleness badge and the cache
	cross    map[string][]check.Diagnostic // the copy rule's diagnostics, by study
	prices   study.SharedPrices
	problems []study.Problem
}

// loadChecked loads and checks every study of d.Results (or d.Only) on
// every core. Unless hold, each study is let go once checked, keeping only
// a stub (its study without runs), its diagnostics, its blocks and its
// engine versions.
func loadChecked(d Dirs, hold bool) (*checked, error) {
	ids, refused, prices, priceProbs, err := studyFolders(d)
	if err != nil {
		return nil, err
	}
	type loaded struct {
		res    check.Result
		blocks []check.BlockRef
		uses   []report.EngineUse
		probs  []study.Problem
		err    error
	}
	out := make([]loaded, len(ids))
	par.Each(len(ids), func(i int) {
		l := &out[i]
		var s *study.Study
		s, l.probs, l.err = loadOne(d, ids[i], prices)
		if s == nil {
			return
		}
		l.res = check.Study(s)
		l.blocks, l.uses = check.BlockRefs(s), report.EngineUses(s)
		if !hold && !s.Article() {
			l.res.Study, l.res.Report = stub(s), nil
		}
	})
	c := &checked{prices: prices, problems: refused, released: !hold}
	for _, l := range out {
		if l.err != nil {
			return nil, l.err
		}
		c.problems = append(c.problems, l.probs...)
		if l.res.Study != nil {
			c.results = append(c.results, l.res)
			c.blocks = append(c.blocks, l.blocks)
			c.uses = append(c.uses, l.uses)
		}
	}
	c.problems = append(c.problems, priceProbs...)
	c.cross = check.Copies(c.blocks)
	for i := range c.results {
		check.AddCross(&c.results[i], c.cross[c.results[i].Study.ID])
	}
	return c, nil
}

// studyFolders lists the study folders a load reads (studyIDs), with the
// problems of the listing, and loads the prices they share.
func studyFolders(d Dirs) (ids []string, refused []study.Problem, prices study.SharedPrices, priceProbs []study.Problem, err error) {
	ids, refused, err = studyIDs(d)
	if err == nil {
		prices, priceProbs, err = study.LoadSharedPrices(projectFS(d.Results), filepath.ToSlash(d.Results))
	}
	return ids, refused, prices, priceProbs, err
}

// studyIDs lists the study folders a load reads, in id order: every one of
// d.Results, or those of d.Only.
func studyIDs(d Dirs) ([]string, []study.Problem, error) {
	if len(d.Only) == 0 {
		return study.List(projectFS(d.Results), filepath.ToSlash(d.Results))
	}
	for _, id := range d.Only {
		if err := site.CheckPath(id); err != nil || strings.Contains(id, "/") {
			return nil, nil, fmt.Errorf("--study %q is not a study id (a folder name under %s)", id, d.Results)
		}
	}
	ids := slices.Clone(d.Only)
	slices.Sort(ids)
	return slices.Compact(ids), nil, nil
}

// loadOne loads one study folder with the site's shared prices.
func loadOne(d Dirs, id string, prices study.SharedPrices) (*study.Study, []study.Problem, error) {
	dir := path.Join(filepath.ToSlash(d.Results), id)
	s, probs, err := study.Load(safefs.New(filepath.Join(d.Results, id), dir), dir, id)
	if s != nil {
		prices.Apply(s)
	}
	return s, probs, err
}

// stub is a study without its runs: what the translation check, the
// acknowledgements of cross-study problems and the command line need of a
// study let go.
func stub(s *study.Study) *study.Study {
	c := *s
	c.Runs = nil
	return &c
}

// reload loads study i of p again, as a load for a build let it go, and
// checks it as the first time; it returns the result and the study's
// prose by language.
func reload(p *Project, d Dirs, i int) (check.Result, map[string]*study.Content, error) {
	id := p.Results[i].Study.ID
	s, _, err := loadOne(d, id, p.prices)
	if err == nil && s == nil {
		err = changedError(d, id)
	}
	if err != nil {
		return check.Result{}, nil, err
	}
	res := check.Study(s)
	check.AddCross(&res, p.cross[id])
	if !sameDiagnostics(res.Diagnostics, p.Results[i].Diagnostics) {
		// Its pages would not show what check reported.
		return check.Result{}, nil, changedError(d, id)
	}
	content, err := loadContent(d, id)
	return res, content, err
}

// changedError is the error of a build that read a study folder twice and
// found it changed in between.
func changedError(d Dirs, id string) error {
	return fmt.Errorf("cannot build: %s changed while the site was built: build again", path.Join(filepath.ToSlash(d.Results), id))
}

// Each calls fn with every study's result, on every core: after a load for
// a build, each study is loaded again for the call and let go after it.
func (p *Project) Each(d Dirs, fn func(check.Result) error) error {
	return par.Run(len(p.Results), func(i int) error {
		if !p.released {
			return fn(p.Results[i])
		}
		res, _, err := reload(p, d, i)
		if err != nil {
			return err
		}
		return fn(res)
	})
}

// sameDiagnostics reports whether two checks of a study found the same.
func sameDiagnostics(a, b []check.Diagnostic) bool {
	return slices.EqualFunc(a, b, func(x, y check.Diagnostic) bool {
		acked := x.Acknowledged() == y.Acknowledged()
		x.Ack, y.Ack = nil, nil // loaded twice: equal, not the same
		return acked && x == y
	})
}

// loadContent reads a study's prose in every language it is written in.
func loadContent(d Dirs, id string) (map[string]*study.Content, error) {
	out := map[string]*study.Content{}
	if d.Content == "" {
		return out, nil
	}
	croot, cfs := filepath.ToSlash(d.Content), projectFS(d.Content)
	for _, l := range study.Languages {
		data, err := cfs.ReadFile(path.Join(l, id+".md"))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		c, probs := study.ParseContent(path.Join(croot, l, id+".md"), l, id, data)
		if err := schemaError(check.Problems(probs)); err != nil {
			return nil, err
		}
		out[l] = c
	}
	return out, nil
}
