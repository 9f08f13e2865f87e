package pipeline

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/gob"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/perflab/perflab/internal/check"
	"github.com/perflab/perflab/internal/render"
	"github.com/perflab/perflab/internal/report"
	"github.com/perflab/perflab/internal/safefs"
	"github.com/perflab/perflab/internal/site"
	"github.com/perflab/perflab/internal/study"
)

// The build cache makes a rebuild after a small change cost what the change
// costs. A folder (--cache, e.g. .perflab-cache/, outside the site) keeps,
// for the site it describes, each report's input signature, the blocks the
// copy rule compares, its diagnostics, its entry on the landing pages and
// the files it wrote.
//
// A cached build is a full build (build, stream.go) that skips two steps
// for a report the cache describes as it is now (its files, its engine
// freshness and its copies unchanged): the load of its logs and its
// rendering. Its diagnostics come from the cache and its files from the
// site before. The checks of a report's own files alone (drift,
// typography, invisible characters) come from the cache while its
// signature is unchanged (owncache.go). Every other stage runs as without
// a cache: every study is read without its logs and checked with the tree
// and the prose, and the site-wide files (landing pages, data/all.*,
// extras) are made again unless no report's entry, downloads or files
// changed. So the bytes are those of a full build. It writes the new
// site as a full build does, into a folder next to the old one under the
// same lock (a new folder with hard links to the files it keeps, or the
// spare brought up to date), and swaps it in whole (see stage.go): a
// build that fails, is killed or runs out of disk leaves the old site as
// it was.
//
// Anything else that changed (templates, locales, shared prices, the
// perflab binary, the folders, a site written by another build) makes the
// cache unusable: the build renders every report, as with an empty cache.
//
// A study's signature is the path, size, modification time and mode of
// each of its files, as make and git see changes; edits that keep all
// four escape it.

// cacheFormat changes whenever the cache's meaning changes.
const cacheFormat = "perflab-build-cache-15"

type cacheState struct {
	Global  string
	Site    siteID
	Studies []cachedStudy
	Files   int // in the site
	// SiteFiles are the site-wide files (landing pages, data/all.*,
	// extras), sorted: the site is SiteFiles and every study's Files.
	SiteFiles []string
	// Token names the build of the site; Spare, the build the spare beside
	// it holds ("" for none). Wrote and Removed are the files this build
	// wrote (rather than kept) and removed, sorted: with the next build's,
	// they are what brings the spare up to date (see stage.go).
	Token, Spare   string
	Wrote, Removed []string
}

type cachedStudy struct {
	ID, Sig, Cross string
	// Fresh identifies the freshness badges the study's pages were
	// rendered with: another study's new engine version changes them.
	Fresh  string
	Blocks []check.BlockRef
	Entry  render.IndexEntry
	Files  []string // site paths the study wrote, sorted
	// Joined identifies the study's data/<id>.csv and .json, which
	// data/all.* join.
	Joined string
	// What the study's checks found: its diagnostics (the copy rule's
	// included), the problems of its logs and those of its prose's
	// figures.
	Diagnostics []check.Diagnostic
	Probs       []study.Problem
	Figures     []check.Diagnostic
	// Own is what the checks of its own files and prose found
	// (owncache.go).
	Own ownChecks
}

// BuildResult says what a build did.
type BuildResult struct {
	Studies, Rendered, Files int
	Incremental              bool     // a cache described the site before
	SiteWide                 bool     // the landing pages, data/all.* and extras were made (again)
	Project                  *Project // the studies' diagnostics
}

// BuildCached builds the site into out, reusing the cache in cacheDir when it
// describes out, and leaves a cache of the new site there. A build that
// fails once it holds the site's lock removes the cache: the next build is
// a full one. Without a cacheDir the build renders every report and keeps
// no cache: the same path with an empty cache, without the signatures.
func BuildCached(d Dirs, out, cacheDir string) (*BuildResult, error) {
	b := &Builder{cacheDir: cacheDir, once: cacheDir == ""}
	res, err := b.Build(d, out)
	if err != nil || b.once {
		return res, err
	}
	return res, writeCache(cacheDir, b.state)
}

// Builder builds a site again and again (perflab serve), keeping the
// build cache in memory rather than in a file between builds.
type Builder struct {
	state    *cacheState // describes the last site built; nil: build in full
	cacheDir string      // where the cache is read from, under the site's lock (BuildCached)
	once     bool        // no build follows: keep no cache
}

// Build builds the site into out, rendering again only what changed since
// the last build, when the cache still describes out.
func (b *Builder) Build(d Dirs, out string) (*BuildResult, error) {
	res, next, err := b.build(d, out)
	b.state = next // nil after a failure: the next build is a full one
	return res, err
}

// build takes the site's lock first, as a full build does, and only then
// reads the cache and the site's identity: a build that finished in the
// meantime changed both.
func (b *Builder) build(d Dirs, out string) (*BuildResult, *cacheState, error) {
	w, err := site.Create(out)
	if err != nil {
		return nil, nil, err
	}
	if b.cacheDir != "" {
		removeStaleCache(b.cacheDir)
		b.state = readCache(b.cacheDir)
	}
	res, next, err := b.buildInto(d, out, w)
	if err == nil {
		err = w.Commit()
	} else {
		w.Abort()
	}
	if err != nil {
		if b.cacheDir != "" {
			if rerr := os.Remove(filepath.Join(b.cacheDir, cacheFile)); rerr != nil && !errors.Is(rerr, fs.ErrNotExist) {
				err = errors.Join(err, rerr)
			}
		}
		return nil, nil, err
	}
	if next != nil {
		next.Site = siteIdentity(out)
	}
	return res, next, nil
}

// buildInto writes the new site into w, reusing what the cache says the
// old site, out, holds, and returns the cache of the new site.
func (b *Builder) buildInto(d Dirs, out string, w *site.Writer) (*BuildResult, *cacheState, error) {
	var pr *prior
	if !b.once {
		var err error
		if pr, err = newPrior(d, out, b.state, w); err != nil {
			return nil, nil, err
		}
	}
	p, made, err := build(d, w, pr, nil)
	if err != nil {
		return nil, nil, err
	}
	res := &BuildResult{Studies: len(p.Results), Files: len(w.Names()), SiteWide: made.siteWide, Project: p}
	for _, cs := range made.reused {
		if cs == nil {
			res.Rendered++
		}
	}
	if pr == nil {
		return res, nil, nil
	}
	next, err := pr.next(p, made)
	if err != nil {
		return nil, nil, err
	}
	res.Files, res.Incremental = next.Files, pr.st != nil
	return res, next, nil
}

// prior is what a build may reuse of the site before it, out: the cache
// that describes it (none when it no longer does), and the stage that
// keeps its files (stage.go).
type prior struct {
	global string
	sigs   map[string]string // study id -> the signature of its files now (studySig)
	st     *cacheState       // nil: nothing to reuse
	old    map[string]*cachedStudy
	stage  *stage
}

// newPrior signs what is not a study's file and takes the cache st when
// it still describes out and that; the studies are signed by the walk of
// the tree (studySig).
func newPrior(d Dirs, out string, st *cacheState, w *site.Writer) (*prior, error) {
	global, err := globalSig(d, out)
	if err != nil {
		return nil, err
	}
	pr := &prior{global: global, old: map[string]*cachedStudy{}, stage: &stage{w: w, out: out}}
	if st == nil || st.Global != global || st.Site != siteIdentity(out) || st.Site == (siteID{}) {
		return pr, nil
	}
	pr.st = st
	for i := range st.Studies {
		pr.old[st.Studies[i].ID] = &st.Studies[i]
	}
	return pr, pr.stage.useSpare(st)
}

// siteWideChanged tells whether the landing pages, data/all.* and the
// extras need making again: they depend on the list of reports and on
// each one's entry, downloads and files only, so a change that leaves
// those as the cache describes them leaves these files as they are.
func (pr *prior) siteWideChanged(outs []studyOutput, reused []*cachedStudy) bool {
	if pr == nil || pr.st == nil || len(outs) != len(pr.st.Studies) {
		return true
	}
	for k := range outs {
		cs := &pr.st.Studies[k]
		if reused[k] != nil {
			if reused[k] != cs {
				return true
			}
			continue
		}
		outs[k].addTitles()
		recorded := slices.Sorted(slices.Values(outs[k].recordedFiles))
		if !reflect.DeepEqual(outs[k].Entry, cs.Entry) || !slices.Equal(recorded, cs.Files) || outs[k].joinedSig() != cs.Joined {
			return true
		}
	}
	return false
}

// next is the cache of the site just built.
func (pr *prior) next(p *Project, made *built) (*cacheState, error) {
	next := &cacheState{Global: pr.global, Token: newToken()}
	for k, res := range p.Results {
		if cs := made.reused[k]; cs != nil {
			next.Studies = append(next.Studies, *cs)
			continue
		}
		id, so := res.Study.ID, &made.outs[k]
		next.Studies = append(next.Studies, cachedStudy{ID: id, Sig: pr.sigs[id], Cross: crossSig(made.cross[k]),
			Fresh: freshSig(p.Freshness[id]), Blocks: made.blocks[k], Entry: so.Entry,
			Files: slices.Sorted(slices.Values(so.recordedFiles)), Joined: so.joinedSig(),
			Diagnostics: made.diags[k], Probs: made.probs[k], Figures: made.figs[k], Own: made.own.of(id)})
	}
	return next, pr.stage.finish(pr.st, next)
}

// crossSig identifies the cross-study diagnostics of a study.
func crossSig(diags []check.Diagnostic) string {
	if len(diags) == 0 {
		return ""
	}
	h := sha256.New()
	for _, d := range diags {
		fmt.Fprintf(h, "%s\x00%s\x00%s\x00%d\x00%s\x00%s\x00%s\x00%s\n", d.Rule, d.Severity, d.File, d.Line, d.Subject, d.Message, d.Printed, d.Computed)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// freshSig identifies the freshness badges of a study.
func freshSig(f map[string]report.Freshness) string {
	ids := slices.Sorted(maps.Keys(f))
	h := sha256.New()
	for _, id := range ids {
		x := f[id]
		fmt.Fprintf(h, "%s\x00%t\x00%d\x00%s\x00%s\n", id, x.Known, x.Behind, x.Newest, x.Study)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// globalSig identifies everything but the studies' own files: the format,
// the perflab binary, the folders, templates, locales and shared prices.
// Which studies there are is no part of it: a study added or removed is
// rendered or dropped alone, the others compared as always.
func globalSig(d Dirs, out string) (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "%s\n%q\n", cacheFormat, []string{d.Results, d.Content, d.Locales, d.Templates, d.BaseURL, d.RepoURL, out})
	for _, p := range []string{d.Results, d.Content, d.Locales, d.Templates, out} {
		abs, _ := filepath.Abs(p)
		fmt.Fprintf(h, "%s\n", abs)
	}
	exe, err := os.Executable()
	if err == nil {
		err = hashFile(h, exe)
	}
	if err != nil {
		return "", fmt.Errorf("build cache: the perflab binary: %w", err)
	}
	for _, dir := range []string{d.Templates, d.Locales} {
		fsys := projectFS(dir)
		err := fs.WalkDir(fsys, ".", func(p string, e fs.DirEntry, err error) error {
			if err != nil || e.IsDir() {
				return err
			}
			fmt.Fprintf(h, "file %s\n", filepath.Join(dir, filepath.FromSlash(p)))
			if safefs.Check(p, e.Type()) != nil {
				return nil // a link or a pipe: the full build reports it
			}
			f, err := fsys.Open(p)
			if err != nil {
				return err
			}
			defer f.Close()
			_, err = io.Copy(h, f)
			return err
		})
		if err != nil {
			return "", err
		}
	}
	// The shared prices price every study that has none of its own.
	if data, err := projectFS(d.Results).ReadFile(study.PricesFile); err == nil {
		fmt.Fprintf(h, "prices %d\n", len(data))
		h.Write(data)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func hashFile(h hash.Hash, name string) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = io.Copy(h, f)
	return err
}

// studySig is the signature of study id from the walk of its folder,
// entries: each file's path, size, modification time and mode (a file
// made unreadable is a change), and those of its prose. "" when a file cannot be asked: the study is not reused.
func studySig(d Dirs, id string, entries []treeEntry) string {
	h := sha256.New()
	buf := make([]byte, 0, 256)
	for _, e := range entries {
		info, err := e.entry.Info()
		if err != nil {
			return ""
		}
		buf = append(buf[:0], e.shown...)
		buf = append(buf, 0)
		buf = strconv.AppendBool(buf, e.dir)
		buf = append(buf, 0)
		buf = strconv.AppendInt(buf, info.Size(), 10)
		buf = append(buf, 0)
		buf = strconv.AppendInt(buf, info.ModTime().UnixNano(), 10)
		buf = append(buf, 0)
		buf = strconv.AppendUint(buf, uint64(info.Mode()), 10)
		buf = append(buf, '\n')
		h.Write(buf)
	}
	if d.Content != "" {
		for _, l := range study.Languages {
			// Lstat: a file replaced by a link is a change (the link is
			// refused, and no longer checked as the file was).
			info, err := os.Lstat(filepath.Join(d.Content, l, id+".md"))
			if err == nil {
				fmt.Fprintf(h, "content %s %d %d %d\n", l, info.Size(), info.ModTime().UnixNano(), info.Mode())
			} else {
				fmt.Fprintf(h, "content %s none\n", l)
			}
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

const cacheFile = "build.gob"

// readCache returns the cache in dir, or nil when there is none or it cannot
// be trusted: its checksum does not match (a torn or damaged file), or it
// names a study or a site file that is not a plain path inside the site (it
// lists the files a cached build links into the new site).
func readCache(dir string) *cacheState {
	data, err := os.ReadFile(filepath.Join(dir, cacheFile))
	if err != nil || len(data) < sha256.Size {
		return nil
	}
	sum, payload := data[:sha256.Size], data[sha256.Size:]
	if got := sha256.Sum256(payload); !bytes.Equal(got[:], sum) {
		return nil
	}
	var st cacheState
	if gob.NewDecoder(bytes.NewReader(payload)).Decode(&st) != nil {
		return nil
	}
	for _, cs := range st.Studies {
		if cs.ID == "" || cs.ID == "." || cs.ID == ".." || strings.ContainsAny(cs.ID, `/\`) {
			return nil
		}
		for _, f := range cs.Files {
			if site.CheckPath(f) != nil {
				return nil
			}
		}
	}
	for _, f := range slices.Concat(st.SiteFiles, st.Wrote, st.Removed) {
		if site.CheckPath(f) != nil {
			return nil
		}
	}
	return &st
}

// newToken names a build: the spare it leaves is stamped with it.
func newToken() string {
	return rand.Text()
}

// writeCache replaces the cache file atomically: the SHA-256 of the
// payload, then the payload (gob), written to a temporary file and
// renamed. The sum finds a torn or damaged cache; it is no signature (an
// edit could recompute it), so what a cache may name is checked on its
// own in readCache. For a 1,000-study cache (6.9 MB) SHA-256 costs a few
// milliseconds of the 0.2 s the file takes to write and read
// (BenchmarkCacheFile, docs/performance.md).
func writeCache(dir string, st *cacheState) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, ".build-*.gob")
	if err != nil {
		return err
	}
	h := sha256.New()
	_, err = f.Write(make([]byte, sha256.Size)) // the checksum, written last
	if err == nil {
		err = gob.NewEncoder(io.MultiWriter(f, h)).Encode(st)
	}
	if err == nil {
		_, err = f.WriteAt(h.Sum(nil), 0)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), filepath.Join(dir, cacheFile))
	}
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("build cache %s: %w", dir, err)
	}
	return nil
}
