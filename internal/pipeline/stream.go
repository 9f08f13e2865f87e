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
	p, _, err := build(d, out, nil, nil)
	return p, err
}

// Check loads and checks every study of d (or d.Only) in the same one
// pass, rendering nothing, and calls each, unless nil, with every
// report's full result on any core before letting it go. A study's
// problems are listed, not fatal.
func Check(d Dirs, each func(check.Result) error) (*Project, error) {
	s, err := startStream(d, nil)
	if err != nil {
		return nil, err
	}
	var use func(int, check.Result, *cachedStudy) error
	if each != nil {
		use = func(_ int, res check.Result, _ *cachedStudy) error { return each(res) }
	}
	if err := s.run(false, use); err != nil {
		return nil, err
	}
	return s.end(), nil
}

// built is what a build made of each report, for a build cache.
type built struct {
	outs   []studyOutput
	reused []*cachedStudy // of each report kept from the site before; nil: rendered
	blocks [][]check.BlockRef
	cross  [][]check.Diagnostic
	diags  [][]check.Diagnostic // each report's, the copy rule's included
	probs  [][]study.Problem
	figs   [][]check.Diagnostic
	own    *ownReuse // the checks of each study's own files
	// siteWide: the landing pages, data/all.* and extras were made, not
	// kept from the site before.
	siteWide bool
}

// build is Build, the one path of every build: with a cache (prior not
// nil), a report whose folder, engine freshness and copies are as the
// cache describes them is not loaded in full nor rendered: its
// diagnostics come from the cache and its files from the site before.
// Every other stage (the load of every study without its logs, the
// checks of the tree and the prose, the site-wide files) runs as in a
// build without a cache. each, unless nil, is given each report's full
// result, as by Check.
func build(d Dirs, out Output, prior *prior, each func(check.Result)) (*Project, *built, error) {
	d.reads, d.sign = newReadLedger(), prior != nil
	s, err := startStream(d, prior)
	if err != nil {
		return nil, nil, err
	}
	if err := schemaError(s.p.Problems); err != nil {
		// A problem of a study's logs comes first, as check lists it:
		// check every study, then look for the first.
		if s.run(false, nil) == nil {
			err = cmp.Or(schemaError(s.end().Problems), err)
		}
		return nil, nil, err
	}
	if s.prior = prior; prior != nil {
		prior.sigs = s.d.tree.sigs
	}
	r, err := newRenderer(d)
	if err != nil {
		return nil, nil, err
	}
	files := &outputs{out: out, names: map[string]bool{}}
	b := &built{outs: make([]studyOutput, len(s.p.Results)), reused: make([]*cachedStudy, len(s.p.Results))}
	err = s.run(true, func(i int, res check.Result, cached *cachedStudy) error {
		so := &b.outs[s.page[i]]
		if cached != nil {
			b.reused[s.page[i]] = cached
			so.Entry, so.recordedFiles = cached.Entry, cached.Files
			return prior.stage.keep(cached.Files, files)
		}
		if each != nil {
			each(res)
		}
		return renderStudy(r, s.p, d, res, s.pc.of(res.Study.ID), so, files)
	})
	if err != nil {
		return nil, nil, err
	}
	if b.siteWide = prior.siteWideChanged(b.outs, b.reused); b.siteWide {
		err = finish(r, d, b.outs, func(name string) ([]byte, error) { return readFile(files, name) }, files)
	} else {
		err = prior.stage.keep(prior.st.SiteFiles, files)
	}
	if err != nil {
		return nil, nil, err
	}
	if prior != nil {
		b.own = s.d.own
		for i, k := range s.page {
			if k >= 0 {
				b.blocks = append(b.blocks, s.blocks[i])
				b.cross = append(b.cross, s.cross[i])
				b.diags = append(b.diags, s.at[i].Diagnostics)
				b.probs = append(b.probs, s.probs[i])
				b.figs = append(b.figs, s.figs[i])
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
	prior  *prior               // what may be reused of the site before; nil: nothing
}

// startStream reads every study of d without its logs (and the prose,
// templates and locales beside them), taking from the cache of prior
// (nil: none) the prose checks of each study it describes as it is now.
func startStream(d Dirs, prior *prior) (*stream, error) {
	if err := checkResults(d); err != nil {
		return nil, err
	}
	d.tree = walkProject(d)
	if prior != nil {
		d.own = newOwnReuse(prior, d.tree.sigs)
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
// result on any core (an article is checked, never used). With build, a
// study's problem stops the run. A report the prior build's cache
// describes as it is now is not loaded: use is given its cache entry and
// a result without report.
func (s *stream) run(build bool, use func(i int, res check.Result, cached *cachedStudy) error) error {
	type held struct {
		res    check.Result
		blocks []check.BlockRef
		cached *cachedStudy // reused, unless the copies changed
		cross  []check.Diagnostic
	}
	n := len(s.ids)
	loaded := make([]*held, n)
	var copies check.CopyRule
	return workers.InOrder(n, 4*runtime.GOMAXPROCS(0),
		func(i int) error {
			if cs := s.reusable(i); cs != nil {
				s.c.heads[i] = nil
				s.d.tree.release(s.ids[i])
				s.probs[i], s.figs[i] = cs.Probs, cs.Figures
				loaded[i] = &held{blocks: cs.Blocks, cached: cs}
				return nil
			}
			res, blocks, err := s.load(i, build)
			if err == nil && res.Study != nil {
				loaded[i] = &held{res: res, blocks: blocks}
			}
			return err
		},
		func(i int) bool {
			h := loaded[i]
			if h == nil {
				return false
			}
			h.cross = copies.Study(h.blocks)
			switch {
			case h.cached != nil && crossSig(h.cross) == h.cached.Cross:
				s.at[i].Diagnostics = h.cached.Diagnostics
			case h.cached != nil:
				h.cached = nil // its copies changed: loaded in full by use, on any core
			default:
				check.AddCross(&h.res, h.cross)
				s.at[i].Diagnostics = h.res.Diagnostics
			}
			if s.prior != nil {
				s.blocks[i], s.cross[i] = h.blocks, h.cross
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
			if h.cached == nil && h.res.Study == nil {
				var err error
				if h.res, _, err = s.load(i, build); err != nil {
					return err
				}
				check.AddCross(&h.res, h.cross)
				s.at[i].Diagnostics = h.res.Diagnostics
			}
			defer s.pc.release(s.ids[i]) // read for the last time
			return use(i, h.res, h.cached)
		})
}

// reusable is the cache entry of study i when the study can be reused:
// a report whose folder and engine freshness are as the cache describes
// them (its copies are compared in order, in run).
func (s *stream) reusable(i int) *cachedStudy {
	if s.prior == nil || s.page[i] < 0 {
		return nil
	}
	cs, sig := s.prior.old[s.ids[i]], s.prior.sigs[s.ids[i]]
	if cs == nil || sig == "" || cs.Sig != sig || cs.Fresh != freshSig(s.p.Freshness[s.ids[i]]) {
		return nil
	}
	return cs
}

// load loads study i in full and checks it, without the copy rule.
// With build, a study's problem is an error. It returns a result without
// study when the study did not load and that is no error.
func (s *stream) load(i int, build bool) (check.Result, []check.BlockRef, error) {
	st, probs, err := loadOne(s.d, s.ids[i], s.c.heads[i], s.p.prices)
	s.c.heads[i] = nil
	s.d.tree.release(s.ids[i])
	if err != nil {
		return check.Result{}, nil, err
	}
	s.probs[i] = probs
	if build {
		if err := schemaError(check.Problems(probs)); err != nil {
			return check.Result{}, nil, err
		}
	}
	if st == nil && !build {
		s.gone[i] = true
		return check.Result{}, nil, nil
	}
	if st == nil || st.Article() != (s.page[i] < 0) || !slices.Equal(report.EngineUses(st), s.c.uses[i]) {
		return check.Result{}, nil, changedError(s.d, s.ids[i])
	}
	res := assess.Study(st)
	s.figs[i] = s.pc.check(s.d, []check.Result{res})
	return res, check.BlockRefs(st), nil
}

// end lists the project's problems, those of each study's logs in place,
// and drops a study that did not load in full.
func (s *stream) end() *Project {
	for i, f := range s.c.folderOf {
		s.c.folderProbs[f] = s.probs[i]
	}
	s.pc.figures = slices.Concat(s.figs...)
	s.pc.invisible = s.d.tree.invisible(s.d.own)
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
	uses := make([][]report.EngineUse, len(ids))
	workers.Each(len(ids), func(i int) {
		if m, ok := d.own.meta(ids[i]); ok {
			out[i].s, uses[i] = m.study(ids[i]), m.Uses // unchanged: not read again
			return
		}
		dir := path.Join(root, ids[i])
		out[i].s, out[i].head, out[i].probs, out[i].err = study.LoadMeta(d.studyFolder(ids[i]), dir, ids[i])
		if out[i].s != nil {
			uses[i] = report.EngineUses(out[i].s)
			d.own.keepMeta(out[i].s, uses[i])
		}
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
		c.uses = append(c.uses, uses[f])
		c.heads = append(c.heads, l.head)
		c.folderOf = append(c.folderOf, f)
	}
	return c, nil
}
