package pipeline

import (
	"cmp"
	"path"
	"path/filepath"
	"runtime"
	"slices"

	"github.com/perflab/perflab/internal/assess"
	"github.com/perflab/perflab/internal/check"
	"github.com/perflab/perflab/internal/report"
	"github.com/perflab/perflab/internal/study"
	"github.com/perflab/perflab/internal/workers"
)

// Build loads, checks and renders every study of d into out, reading each
// log and each study.yaml once. A report shows what depends on every other study (the
// staleness of its engine versions, the blocks it copies from an earlier
// study), so Build first reads every study without its logs, for the
// engine versions, then streams: the studies are taken in order of id on
// every core, each loaded (going on from its study.yaml as first read), checked, given the copy rule's warnings once
// every study before it is checked, rendered and let go
// (docs/performance.md). It returns the project, each study's diagnostics
// kept, its study reduced to its id.
func Build(d Dirs, out Output) (*Project, error) {
	p, _, err := build(d, out, false, nil)
	return p, err
}

// Check loads and checks every study of d (or d.Only) in the same one
// pass, rendering nothing, and calls each, unless nil, with every
// report's full result on any core before letting it go. A study's
// problems are listed, not fatal.
func Check(d Dirs, each func(check.Result) error) (*Project, error) {
	s, err := startStream(d)
	if err != nil {
		return nil, err
	}
	var use func(int, check.Result) error
	if each != nil {
		use = func(_ int, res check.Result) error { return each(res) }
	}
	if err := s.run(false, false, use); err != nil {
		return nil, err
	}
	return s.end(), nil
}

// built is what a build made of each report, for a build cache.
type built struct {
	outs   []studyOutput
	blocks [][]check.BlockRef
	cross  [][]check.Diagnostic
	shared []FileHash // the files of no study read (readLedger)
}

// build is Build; keep keeps each report's blocks and cross-study
// diagnostics, which a build cache needs; each, unless nil, is given
// each report's full result, as by Check.
func build(d Dirs, out Output, keep bool, each func(check.Result)) (*Project, *built, error) {
	d.reads = newReadLedger()
	s, err := startStream(d)
	if err != nil {
		return nil, nil, err
	}
	if err := schemaError(s.p.Problems); err != nil {
		// A problem of a study's logs comes first, as check lists it:
		// check every study, then look for the first.
		if s.run(false, false, nil) == nil {
			err = cmp.Or(schemaError(s.end().Problems), err)
		}
		return nil, nil, err
	}
	r, err := newRenderer(d)
	if err != nil {
		return nil, nil, err
	}
	files := &outputs{out: out, names: map[string]bool{}}
	b := &built{outs: make([]studyOutput, len(s.p.Results))}
	err = s.run(true, keep, func(i int, res check.Result) error {
		if each != nil {
			each(res)
		}
		return renderStudy(r, s.p, d, res, s.pc.of(res.Study.ID), &b.outs[s.page[i]], files)
	})
	if err != nil {
		return nil, nil, err
	}
	if err := finish(r, d, b.outs, func(name string) ([]byte, error) { return readFile(files, name) }, files); err != nil {
		return nil, nil, err
	}
	if keep {
		b.shared = d.reads.shared()
		for i, k := range s.page {
			if k >= 0 {
				b.blocks = append(b.blocks, s.blocks[i])
				b.cross = append(b.cross, s.cross[i])
			}
		}
	}
	return s.end(), b, nil
}

// stream is a project whose studies were read without their logs, to be
// loaded in full one at a time, in order of id.
type stream struct {
	d     Dirs
	c     *checked
	p     *Project
	pc    *proseChecks
	ids   []string
	at    []*check.Result // where each study's diagnostics go: p.Results[k] or p.Articles[a]
	page  []int           // k, for a report; -1 for an article
	probs [][]study.Problem
	figs  [][]check.Diagnostic
	gone  []bool // loaded without its logs, not in full (a check lists its problems)

	blocks [][]check.BlockRef   // kept for a build cache
	cross  [][]check.Diagnostic // kept for a build cache
}

// startStream reads every study of d without its logs (and the prose,
// templates and locales beside them).
func startStream(d Dirs) (*stream, error) {
	if err := checkResults(d); err != nil {
		return nil, err
	}
	side := startSideLoads(d)
	c, err := loadMetas(d)
	side.wg.Wait()
	if err != nil {
		return nil, err
	}
	n := len(c.results)
	s := &stream{d: d, c: c, ids: make([]string, n), at: make([]*check.Result, n), page: make([]int, n),
		probs: make([][]study.Problem, n), figs: make([][]check.Diagnostic, n), gone: make([]bool, n),
		blocks: make([][]check.BlockRef, n), cross: make([][]check.Diagnostic, n)}
	articles := make([]bool, n)
	for i, res := range c.results {
		s.ids[i], articles[i] = res.Study.ID, res.Study.Article()
	}
	if s.p, s.pc, err = assemble(d, c, side); err != nil {
		return nil, err
	}
	c.results = nil // each study is loaded again in full
	for i, k, a := 0, 0, 0; i < n; i++ {
		if articles[i] {
			s.at[i], s.page[i] = &s.p.Articles[a], -1
			a++
			continue
		}
		s.at[i], s.page[i] = &s.p.Results[k], k
		k++
	}
	return s, nil
}

// run loads every study in full, checks it and gives it the copy rule's
// warnings, in order, then calls use, unless nil, with each report's
// result on any core (an article is checked, never used). With build, a study's
// problem stops the run; with keep, each study's blocks and cross-study
// diagnostics are kept.
func (s *stream) run(build, keep bool, use func(i int, res check.Result) error) error {
	type held struct {
		res    check.Result
		blocks []check.BlockRef
	}
	n := len(s.ids)
	loaded := make([]*held, n)
	var copies check.CopyRule
	return workers.InOrder(n, 4*runtime.GOMAXPROCS(0),
		func(i int) error {
			st, probs, err := loadOne(s.d, s.ids[i], s.c.heads[i], s.p.prices)
			s.c.heads[i] = nil
			if err != nil {
				return err
			}
			s.probs[i] = probs
			if build {
				if err := schemaError(check.Problems(probs)); err != nil {
					return err
				}
			}
			if st == nil && !build {
				s.gone[i] = true
				return nil
			}
			if st == nil || st.Article() != (s.page[i] < 0) || !slices.Equal(report.EngineUses(st), s.c.uses[i]) {
				return changedError(s.d, s.ids[i])
			}
			h := &held{res: assess.Study(st), blocks: check.BlockRefs(st)}
			s.figs[i] = s.pc.check(s.d, []check.Result{h.res})
			loaded[i] = h
			return nil
		},
		func(i int) bool {
			h := loaded[i]
			if h == nil {
				return false
			}
			cross := copies.Study(h.blocks)
			check.AddCross(&h.res, cross)
			s.at[i].Diagnostics = h.res.Diagnostics
			if keep {
				s.blocks[i], s.cross[i] = h.blocks, cross
			}
			if use == nil || s.page[i] < 0 {
				loaded[i] = nil // an article is checked, never rendered
				return false
			}
			return true
		},
		func(i int) error {
			h := loaded[i]
			loaded[i] = nil
			return use(i, h.res)
		})
}

// end lists the project's problems, those of each study's logs in place,
// and drops a study that did not load in full.
func (s *stream) end() *Project {
	for i, f := range s.c.folderOf {
		s.c.folderProbs[f] = s.probs[i]
	}
	s.pc.figures = slices.Concat(s.figs...)
	s.p.Problems = s.pc.list(s.c)
	if !slices.Contains(s.gone, true) {
		return s.p
	}
	var results, articles []check.Result
	for i, gone := range s.gone {
		switch {
		case gone:
		case s.page[i] < 0:
			articles = append(articles, *s.at[i])
		default:
			results = append(results, *s.at[i])
		}
	}
	s.p.Results, s.p.Articles = results, articles
	return s.p
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
		head  *study.Head
		probs []study.Problem
		err   error
	}
	out := make([]loaded, len(ids))
	workers.Each(len(ids), func(i int) {
		dir := path.Join(root, ids[i])
		out[i].s, out[i].head, out[i].probs, out[i].err = study.LoadMeta(d.studyFolder(ids[i]), dir, ids[i])
	})
	c := &checked{prices: prices, refused: refused, priceProbs: priceProbs,
		folderProbs: make([][]study.Problem, len(ids))}
	for f, l := range out {
		if l.err != nil {
			return nil, l.err
		}
		if l.s == nil {
			c.folderProbs[f] = l.probs
			continue
		}
		c.results = append(c.results, check.Result{Study: l.s})
		c.uses = append(c.uses, report.EngineUses(l.s))
		c.heads = append(c.heads, l.head)
		c.folderOf = append(c.folderOf, f)
	}
	return c, nil
}
