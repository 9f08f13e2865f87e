package pipeline

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/perflab/perflab/internal/site"
	"github.com/perflab/perflab/internal/workers"
)

// A cached build stages its site as a full build does: every file goes
// into the folder of a site.Writer next to the old site, and Commit swaps
// the two; nothing in the old site is written, so a build killed at any
// moment, or out of disk, leaves the old site byte for byte, and the cache
// still describes it. Which files make the new site comes from the cache's
// record, never from the files found in the old site.
//
// The folder is the spare when it can be (site/spare.go): the site before
// the old one, kept by the last cached build, which recorded the files it
// wrote and removed. Those, and the files this build writes and removes,
// are all that differ between the spare and the new site: the build
// replaces them (linking from the old site the ones it keeps) and claims
// the rest as they are. Without a usable spare (after a full build, a
// killed one, or a build by another program), the folder is a new one and
// every file kept is hard-linked from the old site. The spare is trusted
// to hold what its build wrote: a file put into the live site by hand is
// in no record, so it stays in the spare and comes back with it (a full
// build drops it, as it drops the rest of the old site).

// write stages the new site into w: the files of the studies not rendered
// again and, unless changed, the site-wide files, kept from the old site;
// then every file made. It returns the cache of the new site.
func (rb *rebuild) write(w *site.Writer, changed bool) (*cacheState, error) {
	reused, err := w.UseSpare(rb.st.Spare)
	if err != nil {
		return nil, err
	}
	next := &cacheState{Studies: slices.Clone(rb.st.Studies), Shared: rb.st.Shared}
	again := map[int]int{}
	for k, i := range rb.again {
		again[i] = k
	}
	// The files the old site holds anew since the spare's build.
	newer := map[string]bool{}
	for _, name := range rb.st.Wrote {
		newer[name] = true
	}
	keep := func(names []string) error {
		for _, name := range names {
			var err error
			if reused && !newer[name] {
				err = w.Keep(name)
			} else {
				err = w.Link(name, filepath.Join(rb.out, filepath.FromSlash(name)))
			}
			if err != nil {
				return err
			}
		}
		return nil
	}
	err = workers.Run(len(rb.st.Studies), func(i int) error {
		if _, ok := again[i]; ok {
			return nil
		}
		return keep(rb.st.Studies[i].Files)
	})
	if err != nil {
		return nil, err
	}
	if !changed {
		if err := keep(rb.st.SiteFiles); err != nil {
			return nil, err
		}
	}
	next.Wrote = rb.mem.files.Names()
	for _, name := range next.Wrote {
		if err := w.Add(name, rb.mem.files[name]); err != nil {
			return nil, err
		}
	}
	next.Removed = rb.removed(w)
	if reused {
		// What the spare holds and the new site does not: files the old
		// site or this build no longer has, or that the old site wrote.
		if err := w.RemoveOthers(slices.Concat(rb.st.Removed, next.Removed, rb.st.Wrote)); err != nil {
			return nil, err
		}
	}
	for i, k := range again {
		cs := &next.Studies[i]
		files := slices.Clone(rb.outs[k].recordedFiles)
		slices.Sort(files)
		cs.Sig, cs.Cross, cs.Blocks, cs.Entry, cs.Files = rb.sigs[i], crossSig(rb.cross[cs.ID]), rb.blocks[i], rb.studies[i].Entry, files
		cs.Uses, cs.Fresh, cs.Joined = rb.uses[i], freshSig(rb.fresh[cs.ID]), rb.outs[k].joinedSig()
	}
	next.record(w.Names())
	return next, nil
}

// removed lists, sorted, the files of the old site that the new one, in w,
// does not have.
func (rb *rebuild) removed(w *site.Writer) []string {
	var gone []string
	for _, names := range append([][]string{rb.st.SiteFiles}, filesOfStudies(rb.st)...) {
		for _, name := range names {
			if !w.Has(name) {
				gone = append(gone, name)
			}
		}
	}
	slices.Sort(gone)
	return gone
}

func filesOfStudies(st *cacheState) [][]string {
	files := make([][]string, len(st.Studies))
	for i, cs := range st.Studies {
		files[i] = cs.Files
	}
	return files
}

// record notes the files of the new site, names: their number, and those
// that belong to no study (the site-wide files).
func (st *cacheState) record(names []string) {
	st.Files = len(names)
	ofStudy := map[string]bool{}
	for _, cs := range st.Studies {
		for _, f := range cs.Files {
			ofStudy[f] = true
		}
	}
	st.SiteFiles = nil
	for _, name := range names {
		if !ofStudy[name] {
			st.SiteFiles = append(st.SiteFiles, name)
		}
	}
}

// removeStaleCache removes the temporary files a cached build killed while
// writing the cache left in its folder: only files of the name writeCache
// gives them (.build-<digits>.gob), and only under the site's lock.
func removeStaleCache(dir string) {
	stale, _ := filepath.Glob(filepath.Join(dir, ".build-*.gob"))
	for _, p := range stale {
		digits := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(p), ".build-"), ".gob")
		if digits == "" || strings.Trim(digits, "0123456789") != "" {
			continue
		}
		if fi, err := os.Lstat(p); err == nil && fi.Mode().IsRegular() {
			os.Remove(p)
		}
	}
}
