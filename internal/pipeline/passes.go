package pipeline

import (
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/perflab/perflab/internal/check"
	"github.com/perflab/perflab/internal/report"
	"github.com/perflab/perflab/internal/site"
	"github.com/perflab/perflab/internal/study"
)

// checked is what reading the study folders without their logs gives,
// in id order.
type checked struct {
	results []check.Result
	uses    [][]report.EngineUse // each study's engine versions, for the staleness badge and the cache
	heads   []*study.Head        // each study's study.yaml as read, for its full load (let go once used)
	prices  study.SharedPrices
	// The problems of the folders' listing, of each study folder (in
	// order; a study that loads has its own in folderProbs[folderOf[i]])
	// and of the shared prices.
	refused, priceProbs []study.Problem
	folderProbs         [][]study.Problem
	folderOf            []int
}

// problems lists the problems of the study folders and the prices, in
// the order a load finds them.
func (c *checked) problems() []study.Problem {
	out := slices.Clone(c.refused)
	for _, probs := range c.folderProbs {
		out = append(out, probs...)
	}
	return append(out, c.priceProbs...)
}

// studyFolders lists the study folders a load reads (studyIDs), with the
// problems of the listing, and loads the prices they share.
func studyFolders(d Dirs) (ids []string, refused []study.Problem, prices study.SharedPrices, priceProbs []study.Problem, err error) {
	ids, refused, err = studyIDs(d)
	if err == nil {
		prices, priceProbs, err = study.LoadSharedPrices(d.folder(d.Results), filepath.ToSlash(d.Results))
	}
	return ids, refused, prices, priceProbs, err
}

// studyIDs lists the study folders a load reads, in id order: every one of
// d.Results, or those of d.Only.
func studyIDs(d Dirs) ([]string, []study.Problem, error) {
	if len(d.Only) == 0 {
		return study.List(d.folder(d.Results), filepath.ToSlash(d.Results))
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
// A head, unless nil, is its study.yaml as read before (study.LoadMeta).
func loadOne(d Dirs, id string, head *study.Head, prices study.SharedPrices) (*study.Study, []study.Problem, error) {
	dir := path.Join(filepath.ToSlash(d.Results), id)
	fsys := d.studyFolder(id)
	var s *study.Study
	var probs []study.Problem
	var err error
	if head != nil {
		s, probs, err = head.Load(fsys)
	} else {
		s, probs, err = study.Load(fsys, dir, id)
	}
	if s != nil {
		prices.Apply(s)
	}
	return s, probs, err
}

// changedError is the error of a build that read a study folder twice and
// found it changed in between.
func changedError(d Dirs, id string) error {
	return fmt.Errorf("cannot build: %s changed while the site was built: build again", path.Join(filepath.ToSlash(d.Results), id))
}
