package pipeline

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/perflab/perflab/internal/site"
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

// stage is the folder a build writes the new site into (a site.Writer)
// and the old site, out, whose files it may keep.
type stage struct {
	w     *site.Writer
	out   string
	spare bool            // the folder is the spare, brought up to date
	newer map[string]bool // files the old site holds anew since the spare's build

	mu   sync.Mutex
	kept map[string]bool // files kept rather than written
}

// useSpare takes the spare st describes as the folder, when it is there
// as that build left it; the old site becomes the spare after the swap.
// Call it before any file is added.
func (sg *stage) useSpare(st *cacheState) error {
	var err error
	if sg.spare, err = sg.w.UseSpare(st.Spare); err != nil {
		return err
	}
	sg.newer = map[string]bool{}
	for _, name := range st.Wrote {
		sg.newer[name] = true
	}
	if st.Token != "" {
		sg.w.KeepSpare(st.Token)
	}
	return nil
}

// keep puts files of the old site into the new one, as they are, and
// notes them in files: claimed where the spare holds them unchanged,
// else linked from the old site.
func (sg *stage) keep(names []string, files *outputs) error {
	for _, name := range names {
		var err error
		if sg.spare && !sg.newer[name] {
			err = sg.w.Keep(name)
		} else {
			err = sg.w.Link(name, filepath.Join(sg.out, filepath.FromSlash(name)))
		}
		if err != nil {
			return err
		}
		files.note(name)
	}
	sg.mu.Lock()
	defer sg.mu.Unlock()
	if sg.kept == nil {
		sg.kept = map[string]bool{}
	}
	for _, name := range names {
		sg.kept[name] = true
	}
	return nil
}

// finish records in next, the cache of the new site, the files written
// and removed since the old site, st (nil: none), and removes from a
// reused spare the files the new site does not have.
func (sg *stage) finish(st, next *cacheState) error {
	names := sg.w.Names()
	next.record(names)
	if st == nil {
		return nil // no spare: the files written are the whole site
	}
	next.Spare = st.Token
	for _, name := range names {
		if !sg.kept[name] {
			next.Wrote = append(next.Wrote, name)
		}
	}
	for _, files := range append([][]string{st.SiteFiles}, filesOfStudies(st)...) {
		for _, name := range files {
			if !sg.w.Has(name) {
				next.Removed = append(next.Removed, name)
			}
		}
	}
	slices.Sort(next.Removed)
	if !sg.spare {
		return nil
	}
	// What the spare holds and the new site does not: files the old
	// site or this build no longer has, or that the old site wrote.
	return sg.w.RemoveOthers(slices.Concat(st.Removed, next.Removed, st.Wrote))
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
