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
// the two. The files it keeps are hard links to the old site's (copies
// where links are not possible); nothing in the old site is written, so
// a build killed at any moment, or out of disk, leaves the old site byte
// for byte, and the cache still describes it. Which files make the new
// site comes from the cache's record, never from the files found in the
// old site: a stray file there (such as the .perflab-* temporary file an
// older perflab left when killed) is not carried over.

// write stages the new site into w: the files of the studies not rendered
// again and, unless changed, the site-wide files, linked from the old
// site; then every file made. It returns the cache of the new site.
func (rb *rebuild) write(w *site.Writer, changed bool) (*cacheState, error) {
	next := &cacheState{Studies: slices.Clone(rb.st.Studies)}
	again := map[int]int{}
	for k, i := range rb.again {
		again[i] = k
	}
	link := func(names []string) error {
		for _, name := range names {
			if err := w.Link(name, filepath.Join(rb.out, filepath.FromSlash(name))); err != nil {
				return err
			}
		}
		return nil
	}
	err := workers.Run(len(rb.st.Studies), func(i int) error {
		if _, ok := again[i]; ok {
			return nil
		}
		return link(rb.st.Studies[i].Files)
	})
	if err != nil {
		return nil, err
	}
	if !changed {
		if err := link(rb.st.SiteFiles); err != nil {
			return nil, err
		}
	}
	for _, name := range rb.mem.files.Names() {
		if err := w.Add(name, rb.mem.files[name]); err != nil {
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
