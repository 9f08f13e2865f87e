package pipeline

import (
	"cmp"
	"path"
	"path/filepath"
	"runtime"
	"slices"

	"github.com/perflab/perflab/internal/check"
	"github.com/perflab/perflab/internal/par"
	"github.com/perflab/perflab/internal/report"
	"github.com/perflab/perflab/internal/safefs"
	"github.com/perflab/perflab/internal/study"
)

// Build loads, checks and renders every study of d into out, reading each
// log once: LoadForBuild and Generate read every log twice, once to check
// and once to render, because a report shows what depends on every other
// study (the staleness of its engine versions, the blocks it copies from
// an earlier study). Build first reads every study without its logs, for
// the engine versions, then takes the studies in order of id on every
// core, each loaded, checked, given the copy rule's warnings once every
// study before it is checked, rendered and let go: a study is read once
// and a half instead of twice (docs/performance.md). It returns the project as
// LoadForBuild would, each study's diagnostics kept; out has every file
// Generate would give it.
func Build(d Dirs, out Output) (*Project, error) {
	if err := checkResults(d); err != nil {
		return nil, err
	}
	side := startSideLoads(d)
	c, err := loadMetas(d)
	side.wg.Wait()
	if err != nil {
		return nil, err
	}
	// Of each study, until it is loaded in full: its id, whether it is an
	// article and its engine versions (which the full load must match).
	n := len(c.results)
	ids, articles, uses := make([]string, n), make([]bool, n), c.uses
	for i, res := range c.results {
		ids[i], articles[i] = res.Study.ID, res.Study.Article()
	}
	p, err := assemble(d, c, side)
	if err != nil {
		return nil, err
	}
	if err := schemaError(p.Problems); err != nil {
		// A problem of a study's logs comes first, as a build after
		// LoadForBuild tells it: look for one, once, in that order.
		if q, lerr := LoadForBuild(d); lerr == nil {
			err = cmp.Or(schemaError(q.Problems), err)
		}
		return nil, err
	}
	r, err := newRenderer(d)
	if err != nil {
		return nil, err
	}
	files := &outputs{out: out, names: map[string]bool{}}
	outs := make([]studyOutput, len(p.Results))
	// Where each study's diagnostics go: p.Results[k] or p.Articles[a].
	at := make([]*check.Result, n)
	page := make([]int, n) // k, for a report
	for i, k, a := 0, 0, 0; i < n; i++ {
		if articles[i] {
			at[i], page[i] = &p.Articles[a], -1
			a++
			continue
		}
		at[i], page[i] = &p.Results[k], k
		k++
	}
	type held struct {
		res    check.Result
		blocks []check.BlockRef
	}
	loaded := make([]*held, n)
	var copies check.CopyRule
	err = par.InOrder(n, 4*runtime.GOMAXPROCS(0),
		func(i int) error {
			s, probs, err := loadOne(d, ids[i], p.prices)
			if err != nil {
				return err
			}
			if err := schemaError(check.Problems(probs)); err != nil {
				return err
			}
			if s == nil || s.Article() != articles[i] || !slices.Equal(report.EngineUses(s), uses[i]) {
				return changedError(d, ids[i])
			}
			loaded[i] = &held{res: check.Study(s), blocks: check.BlockRefs(s)}
			return nil
		},
		func(i int) bool {
			h := loaded[i]
			check.AddCross(&h.res, copies.Study(h.blocks))
			at[i].Diagnostics = h.res.Diagnostics
			if page[i] < 0 {
				loaded[i] = nil // an article is checked, never rendered
				return false
			}
			return true
		},
		func(i int) error {
			h := loaded[i]
			loaded[i] = nil
			content, err := loadContent(d, h.res.Study.ID)
			if err != nil {
				return err
			}
			return renderStudy(r, p, d, h.res, content, &outs[page[i]], files)
		})
	if err != nil {
		return nil, err
	}
	if err := finish(r, d, outs, func(name string) ([]byte, error) { return readFile(files, name) }, files); err != nil {
		return nil, err
	}
	return p, nil
}

// loadMetas reads every study of d without its logs (study.LoadMeta), on
// every core: what a project needs of each before any is checked (its
// description, for the translation check; its engine versions, for their
// staleness). A study that does not load gives its problems, which are
// those of a full load.
func loadMetas(d Dirs) (*checked, error) {
	ids, refused, prices, priceProbs, err := studyFolders(d)
	if err != nil {
		return nil, err
	}
	root := filepath.ToSlash(d.Results)
	type loaded struct {
		s     *study.Study
		probs []study.Problem
		err   error
	}
	out := make([]loaded, len(ids))
	par.Each(len(ids), func(i int) {
		dir := path.Join(root, ids[i])
		out[i].s, out[i].probs, out[i].err = study.LoadMeta(safefs.New(filepath.Join(d.Results, ids[i]), dir), dir, ids[i])
	})
	c := &checked{prices: prices, problems: refused, released: true, cross: map[string][]check.Diagnostic{}}
	for _, l := range out {
		if l.err != nil {
			return nil, l.err
		}
		if l.s == nil {
			c.problems = append(c.problems, l.probs...)
			continue
		}
		c.results = append(c.results, check.Result{Study: l.s})
		c.blocks = append(c.blocks, nil)
		c.uses = append(c.uses, report.EngineUses(l.s))
	}
	c.problems = append(c.problems, priceProbs...)
	return c, nil
}
