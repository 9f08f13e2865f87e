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
	"path"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/perflab/perflab/internal/assess"
	"github.com/perflab/perflab/internal/check"
	"github.com/perflab/perflab/internal/render"
	"github.com/perflab/perflab/internal/report"
	"github.com/perflab/perflab/internal/safefs"
	"github.com/perflab/perflab/internal/site"
	"github.com/perflab/perflab/internal/study"
	"github.com/perflab/perflab/internal/workers"
)

// The build cache makes a rebuild after a small change cost what the change
// costs. A folder (--cache, e.g. .perflab-cache/, outside the site) keeps,
// for the site it describes, each study's input signature, the blocks the
// copy rule compares, the cross-study diagnostics its pages were rendered
// with, its entry on the landing pages and the files it wrote.
//
// A cached build renders again only the studies whose files changed, those
// whose cross-study diagnostics changed (a copied block elsewhere) and
// those whose engine freshness changed (a newer engine version elsewhere),
// then remakes the site-wide files (landing pages, data/all.*, extras) from
// what the cache keeps; the bytes are those of a full build. It writes the
// new site as a full build does, into a folder next to the old one under
// the same lock (a new folder with hard links to the files it keeps, or
// the spare brought up to date), and swaps it in whole (see stage.go): a
// build that fails, is killed or runs out of disk leaves the old site as
// it was.
//
// Anything else that changed (templates, locales, the perflab binary, the
// folders, the set of studies or of content files, a site written by another
// build) makes a full build, which writes a new cache.
//
// A study's signature is the path, size and modification time of each of
// its files, as make and git see changes; edits that keep all three escape
// it.

// cacheFormat changes whenever the cache's meaning changes.
const cacheFormat = "perflab-build-cache-10"

type cacheState struct {
	Global  string
	Site    siteID
	Studies []cachedStudy
	Files   int // in the site
	// Shared are the files of no study the full build read (prices,
	// locales, templates), which every study's evidence lists: the global
	// signature covers them, so a cached build that renders a study
	// again cites them as the full build read them.
	Shared []FileHash
	// SiteFiles are the site-wide files (landing pages, data/all.*,
	// extras), sorted: the site is SiteFiles and every study's Files.
	SiteFiles []string
	// Token names the build of the site; Spare, the build the spare beside
	// it holds ("" for none). Wrote and Removed are the files this build
	// wrote (rather than kept) and removed, sorted: with the next build's,
	// they are what brings the spare up to date (see stage.go).
	Token, Spare   string
	Wrote, Removed []string

	partial bool // some study was not built: the cache cannot be used
}

type cachedStudy struct {
	ID, Sig, Cross string
	// Uses are the engine versions the study uses, and Fresh identifies the
	// freshness badges its pages were rendered with: another study's new
	// engine version changes them.
	Uses   []report.EngineUse
	Fresh  string
	Blocks []check.BlockRef
	Entry  render.IndexEntry
	Files  []string // site paths the study wrote, sorted
	// Joined identifies the study's data/<id>.csv and .json, which
	// data/all.* join.
	Joined string
}

// BuildResult says what a cached build did.
type BuildResult struct {
	Studies, Rendered, Files int
	Incremental              bool
	SiteWide                 bool     // the landing pages, data/all.* and extras were made (again)
	Project                  *Project // nil after an incremental build
}

// BuildCached builds the site into out, reusing the cache in cacheDir when it
// describes out, and leaves a cache of the new site there. A build that
// fails once it holds the site's lock removes the cache: the next build is
// a full one.
func BuildCached(d Dirs, out, cacheDir string) (*BuildResult, error) {
	b := &Builder{cacheDir: cacheDir}
	res, err := b.Build(d, out)
	if err != nil {
		return nil, err
	}
	return res, writeCache(cacheDir, b.state)
}

// Builder builds a site again and again (perflab serve), keeping the
// build cache in memory rather than in a file between builds.
type Builder struct {
	state    *cacheState // describes the last site built; nil: build in full
	cacheDir string      // where the cache is read from, under the site's lock (BuildCached)
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
	next.Site = siteIdentity(out)
	if next.partial { // a study folder without study.yaml: no cache
		next.Site = siteID{}
	}
	return res, next, nil
}

// buildInto writes the new site into w: the studies that changed
// rendered again and the others linked from out, when the cache still
// describes out, else everything.
func (b *Builder) buildInto(d Dirs, out string, w *site.Writer) (*BuildResult, *cacheState, error) {
	global, err := globalSig(d, out)
	if err != nil {
		return nil, nil, err
	}
	ids, sigs, err := studySigs(d)
	if err != nil {
		return nil, nil, err
	}
	st := b.state
	if st != nil && st.Global == global && st.Site == siteIdentity(out) && st.Site != (siteID{}) && sameIDs(st, ids) {
		res, next, err := incremental(d, out, st, sigs, w)
		if err != nil {
			return nil, nil, err
		}
		next.Global, next.Token = global, newToken()
		if st.Token != "" { // the old site becomes the spare
			w.KeepSpare(st.Token)
			next.Spare = st.Token
		}
		return res, next, nil
	}
	p, made, err := build(d, w, true, nil)
	if err != nil {
		return nil, nil, err
	}
	next := &cacheState{Global: global, Token: newToken(), Shared: made.shared}
	sigOf := map[string]string{}
	for i, id := range ids {
		sigOf[id] = sigs[i]
	}
	for i, res := range p.Results {
		files := slices.Clone(made.outs[i].recordedFiles)
		slices.Sort(files)
		next.Studies = append(next.Studies, cachedStudy{ID: res.Study.ID, Sig: sigOf[res.Study.ID], Cross: crossSig(made.cross[i]),
			Uses: p.uses[i], Fresh: freshSig(p.Freshness[res.Study.ID]),
			Blocks: made.blocks[i], Entry: made.outs[i].Entry, Files: files, Joined: made.outs[i].joinedSig()})
	}
	next.partial = len(next.Studies) != len(ids)
	next.record(w.Names())
	return &BuildResult{Studies: len(p.Results), Rendered: len(p.Results), Files: next.Files, SiteWide: true, Project: p}, next, nil
}

func sameIDs(st *cacheState, ids []string) bool {
	if len(st.Studies) != len(ids) {
		return false
	}
	for i := range ids {
		if st.Studies[i].ID != ids[i] {
			return false
		}
	}
	return true
}

// memFiles collects files in memory from several goroutines.
type memFiles = lockedFiles

// incremental rebuilds the studies that changed, directly or through
// another study, and the site-wide files, into w.
func incremental(d Dirs, out string, st *cacheState, sigs []string, w *site.Writer) (*BuildResult, *cacheState, error) {
	d.reads = readLedgerOf(st.Shared)
	rb := &rebuild{d: d, out: out, st: st, sigs: sigs}
	if err := rb.plan(); err != nil {
		return nil, nil, err
	}
	r, err := newRenderer(d)
	if err != nil {
		return nil, nil, err
	}
	if err := rb.render(r); err != nil {
		return nil, nil, err
	}
	changed, err := rb.siteWide(r)
	if err != nil {
		return nil, nil, err
	}
	next, err := rb.write(w, changed)
	if err != nil {
		return nil, nil, err
	}
	return &BuildResult{Studies: len(st.Studies), Rendered: len(rb.again), Files: next.Files, Incremental: true, SiteWide: changed}, next, nil
}

// rebuild is an incremental build under way.
type rebuild struct {
	d    Dirs
	out  string
	st   *cacheState
	sigs []string

	loaded  []*study.Study                       // the studies loaded again
	content map[string]map[string]*study.Content // their prose
	blocks  [][]check.BlockRef
	cross   map[string][]check.Diagnostic
	uses    [][]report.EngineUse
	fresh   map[string]map[string]report.Freshness
	again   []int         // the studies rendered again
	outs    []studyOutput // of each of again
	studies []studyOutput // of every study
	mem     *memFiles     // the files made
}

// plan loads the studies whose files changed, finds the copies and the
// engine freshness of every study, and lists the studies to render again:
// those changed, and those whose cross-study diagnostics or freshness did.
func (rb *rebuild) plan() error {
	n := len(rb.st.Studies)
	rb.loaded = make([]*study.Study, n)
	rb.content = map[string]map[string]*study.Content{}
	for _, l := range study.Languages {
		rb.content[l] = map[string]*study.Content{}
	}
	prices, _, err := study.LoadSharedPrices(rb.d.folder(rb.d.Results), filepath.ToSlash(rb.d.Results)) // its problems changed the global signature
	if err != nil {
		return err
	}
	rb.blocks = make([][]check.BlockRef, n)
	for i, cs := range rb.st.Studies {
		rb.blocks[i] = cs.Blocks
		if rb.sigs[i] != cs.Sig {
			if err := rb.load(i, prices); err != nil {
				return err
			}
			rb.blocks[i] = check.BlockRefs(rb.loaded[i])
		}
	}
	rb.cross = check.Copies(rb.blocks)
	rb.uses = make([][]report.EngineUse, n)
	var allUses []report.EngineUse
	for i, cs := range rb.st.Studies {
		rb.uses[i] = cs.Uses
		if rb.loaded[i] != nil {
			rb.uses[i] = report.EngineUses(rb.loaded[i])
		}
		allUses = append(allUses, rb.uses[i]...)
	}
	rb.fresh = report.Freshnesses(allUses)
	for i, cs := range rb.st.Studies {
		if rb.loaded[i] != nil || crossSig(rb.cross[cs.ID]) != cs.Cross || freshSig(rb.fresh[cs.ID]) != cs.Fresh {
			if rb.loaded[i] == nil {
				if err := rb.load(i, prices); err != nil {
					return err
				}
			}
			rb.again = append(rb.again, i)
		}
	}
	return nil
}

// load loads study i and its prose.
func (rb *rebuild) load(i int, prices study.SharedPrices) error {
	id := rb.st.Studies[i].ID
	s, probs, err := loadOne(rb.d, id, nil, prices)
	if err != nil {
		return err
	}
	if err := schemaError(check.Problems(probs)); err != nil {
		return err
	}
	if s == nil {
		return fmt.Errorf("cannot build: %s has no %s", path.Join(filepath.ToSlash(rb.d.Results), id), study.StudyFile)
	}
	rb.loaded[i] = s
	prose, err := loadContent(rb.d, id)
	for l, c := range prose {
		rb.content[l][id] = c
	}
	return err
}

// render renders the studies of again, in memory.
func (rb *rebuild) render(r *render.Renderer) error {
	p := &Project{Content: rb.content, Freshness: rb.fresh}
	rb.mem = &memFiles{files: site.Files{}}
	rb.outs = make([]studyOutput, len(rb.again))
	return workers.Run(len(rb.again), func(k int) error {
		res := assess.Study(rb.loaded[rb.again[k]])
		check.AddCross(&res, rb.cross[res.Study.ID])
		prose := map[string]*study.Content{}
		for _, l := range study.Languages {
			prose[l] = rb.content[l][res.Study.ID]
		}
		return renderStudy(r, p, rb.d, res, prose, &rb.outs[k], rb.mem)
	})
}

// siteWide makes the site-wide files again, in memory, when they change,
// and says whether they did.
func (rb *rebuild) siteWide(r *render.Renderer) (bool, error) {
	rb.studies = make([]studyOutput, len(rb.st.Studies))
	files := &outputs{out: rb.mem, names: map[string]bool{}}
	rendered := map[int]int{}
	for k, i := range rb.again {
		rendered[i] = k
	}
	for i, cs := range rb.st.Studies {
		if k, ok := rendered[i]; ok {
			rb.studies[i].Entry = rb.outs[k].Entry
			rb.studies[i].titles = rb.outs[k].titles
			rb.studies[i].addTitles()
			continue
		}
		rb.studies[i].Entry = cs.Entry
		for _, f := range cs.Files {
			files.names[f] = true
		}
	}
	for name := range rb.mem.files {
		files.names[name] = true
	}
	if !siteWideChanged(rb.st, rb.again, rb.studies, rb.outs) {
		return false, nil
	}
	// Downloads of the studies rendered again are in memory, the others'
	// in the old site, which the cache describes.
	read := func(name string) ([]byte, error) {
		if data, err := rb.mem.ReadFile(name); err == nil {
			return data, nil
		}
		return os.ReadFile(filepath.Join(rb.out, filepath.FromSlash(name)))
	}
	return true, finish(r, rb.d, rb.studies, read, files)
}

// siteWideChanged tells, from the cache alone, whether the landing pages,
// data/all.* and the extras need making again: they depend on the
// studies' entries, downloads and lists of files only, so a change that
// leaves those of every study rendered again as they were leaves these
// files as they are.
func siteWideChanged(st *cacheState, again []int, studies, outs []studyOutput) bool {
	for k, i := range again {
		cs := &st.Studies[i]
		recorded := slices.Sorted(slices.Values(outs[k].recordedFiles))
		if !reflect.DeepEqual(studies[i].Entry, cs.Entry) || !slices.Equal(recorded, cs.Files) || outs[k].joinedSig() != cs.Joined {
			return true
		}
	}
	return false
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
// the perflab binary, the folders, templates, locales, and the lists of
// studies and content files.
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
	list := func(dir string) error {
		entries, err := os.ReadDir(dir)
		if errors.Is(err, fs.ErrNotExist) {
			fmt.Fprintf(h, "none %s\n", dir)
			return nil
		}
		for _, e := range entries {
			fmt.Fprintf(h, "entry %s/%s %v\n", dir, e.Name(), e.IsDir())
		}
		return err
	}
	if err := list(d.Results); err != nil {
		return "", err
	}
	// The shared prices price every study that has none of its own.
	if data, err := projectFS(d.Results).ReadFile(study.PricesFile); err == nil {
		fmt.Fprintf(h, "prices %d\n", len(data))
		h.Write(data)
	}
	if d.Content != "" {
		for _, l := range study.Languages {
			if err := list(filepath.Join(d.Content, l)); err != nil {
				return "", err
			}
		}
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

// studySigs lists the study folders of d.Results, as study.LoadAll does, with
// the signature of each: its files' paths, sizes and modification times, and
// those of its content files.
func studySigs(d Dirs) ([]string, []string, error) {
	entries, err := os.ReadDir(d.Results)
	if err != nil {
		return nil, nil, err
	}
	var ids []string
	for _, e := range entries {
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
			ids = append(ids, e.Name())
		}
	}
	sigs := make([]string, len(ids))
	err = workers.Run(len(ids), func(i int) error {
		h := sha256.New()
		buf := make([]byte, 0, 256)
		err := filepath.WalkDir(filepath.Join(d.Results, ids[i]), func(p string, e fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			info, err := e.Info()
			if err != nil {
				return err
			}
			buf = append(buf[:0], p...)
			buf = append(buf, 0)
			buf = strconv.AppendBool(buf, e.IsDir())
			buf = append(buf, 0)
			buf = strconv.AppendInt(buf, info.Size(), 10)
			buf = append(buf, 0)
			buf = strconv.AppendInt(buf, info.ModTime().UnixNano(), 10)
			buf = append(buf, '\n')
			h.Write(buf)
			return nil
		})
		if err != nil {
			return err
		}
		if d.Content != "" {
			for _, l := range study.Languages {
				info, err := os.Stat(filepath.Join(d.Content, l, ids[i]+".md"))
				if err == nil {
					fmt.Fprintf(h, "content %s %d %d\n", l, info.Size(), info.ModTime().UnixNano())
				} else {
					fmt.Fprintf(h, "content %s none\n", l)
				}
			}
		}
		sigs[i] = hex.EncodeToString(h.Sum(nil))
		return nil
	})
	return ids, sigs, err
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
