package pipeline

import (
	"cmp"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/perflab/perflab/internal/check"
	"github.com/perflab/perflab/internal/safefs"
	"github.com/perflab/perflab/internal/study"
	"github.com/perflab/perflab/internal/workers"
)

// treeEntry is one file or folder of a project folder.
type treeEntry struct {
	folder string // results, content, locales or templates
	fsys   fs.FS
	name   string // in fsys
	shown  string // as diagnostics name it
	dir    bool
	file   bool        // a regular file
	entry  fs.DirEntry // as listed, for its size and time (studySig)
}

// projectTree is the one walk of the project folders a load makes: every
// file and folder of the four (or, with d.Only, of the studies given and
// their prose), for the checks that look at the tree as a reviewer and
// other systems see it rather than as a loader reads it; the listings of
// each study folder, which its loads read rather than list it again
// (listedFS); and the invisible characters of the texts the loaders read,
// checked on the bytes they read (read).
type projectTree struct {
	entries []treeEntry
	mu      sync.Mutex
	listed  map[string]map[string][]fs.DirEntry // study id -> folder in it -> entries
	texts   map[string][]check.Diagnostic       // shown path -> its invisible characters
	sigs    map[string]string                   // study id -> studySig, with d.sign
}

// walkProject walks the project folders of d, the study folders of
// results/ side by side, and keeps their listings.
func walkProject(d Dirs) *projectTree {
	t := &projectTree{listed: map[string]map[string][]fs.DirEntry{}, texts: map[string][]check.Diagnostic{}, sigs: map[string]string{}}
	all := func(string, bool) bool { return true }
	if len(d.Only) == 0 {
		t.walkResults(d, nil)
		t.walk("content", d.Content, ".", all)
	} else {
		t.walkResults(d, d.Only)
		t.walk("content", d.Content, ".", func(name string, isDir bool) bool {
			return isDir && !strings.Contains(name, "/") || slices.Contains(d.Only, strings.TrimSuffix(path.Base(name), ".md"))
		})
	}
	t.walk("locales", d.Locales, ".", all)
	t.walk("templates", d.Templates, ".", all)
	return t
}

// walk appends the entries of folder under, in lexical order (as
// fs.WalkDir gives them), those keep takes.
func (t *projectTree) walk(folder, dir, under string, keep func(name string, isDir bool) bool) {
	if dir != "" {
		entries, _ := walkFolder(folder, projectFS(dir), filepath.ToSlash(dir), under, keep, nil)
		t.entries = append(t.entries, entries...)
	}
}

// walkResults walks results/: its top, then each study folder (only,
// unless nil: those), on every core, keeping each one's listings.
func (t *projectTree) walkResults(d Dirs, only []string) {
	if d.Results == "" {
		return
	}
	fsys, root := projectFS(d.Results), filepath.ToSlash(d.Results)
	list, err := fsys.ReadDir(".")
	if err != nil {
		return // the loaders report what does not read
	}
	var top []treeEntry
	studies := only // walked below their own entry, if listed
	for _, e := range list {
		if only != nil && e.IsDir() {
			continue // the studies given are walked below
		}
		top = append(top, treeEntry{folder: "results", fsys: fsys, name: e.Name(), shown: path.Join(root, e.Name()), dir: e.IsDir(), file: e.Type().IsRegular()})
		if only == nil && e.IsDir() {
			studies = append(studies, e.Name())
		}
	}
	below := make([][]treeEntry, len(studies))
	workers.Each(len(studies), func(i int) {
		id := studies[i]
		listings := map[string][]fs.DirEntry{}
		entries, complete := walkFolder("results", fsys, root, id, func(string, bool) bool { return true }, func(name string, entries []fs.DirEntry) {
			dir := strings.TrimPrefix(strings.TrimPrefix(name, id), "/")
			listings[cmp.Or(dir, ".")] = entries
		})
		sig := ""
		if d.sign && complete {
			sig = studySig(d, id, entries)
		}
		if only == nil && len(entries) > 0 {
			entries = entries[1:] // the folder itself, listed in top
		}
		below[i] = entries
		t.mu.Lock()
		t.listed[id] = listings
		if sig != "" {
			t.sigs[id] = sig
		}
		t.mu.Unlock()
	})
	if only != nil {
		t.entries = append(append(t.entries, top...), slices.Concat(below...)...)
		return
	}
	k := 0
	for _, e := range top {
		t.entries = append(t.entries, e)
		if e.dir {
			t.entries = append(t.entries, below[k]...)
			k++
		}
	}
}

// walkFolder lists the entries of folder under, in lexical order, those
// keep takes, and gives listed, unless nil, each listing read. complete
// is false when a folder did not list.
func walkFolder(folder string, fsys *safefs.FS, root, under string, keep func(name string, isDir bool) bool, listed func(name string, entries []fs.DirEntry)) (entries []treeEntry, complete bool) {
	complete = true
	var walked fs.FS = fsys
	if listed != nil {
		walked = listingFS{fsys, listed}
	}
	_ = fs.WalkDir(walked, under, func(name string, e fs.DirEntry, err error) error {
		if err != nil {
			complete = false
			return nil // the loaders report what does not read
		}
		if name == "." {
			return nil
		}
		if !keep(name, e.IsDir()) {
			if e.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		entries = append(entries, treeEntry{folder: folder, fsys: fsys, name: name, shown: path.Join(root, name), dir: e.IsDir(), file: e.Type().IsRegular(), entry: e})
		return nil
	})
	return entries, complete
}

// listingFS passes on each listing fs.WalkDir reads.
type listingFS struct {
	*safefs.FS
	listed func(name string, entries []fs.DirEntry)
}

func (l listingFS) ReadDir(name string) ([]fs.DirEntry, error) {
	entries, err := l.FS.ReadDir(name)
	if err == nil {
		l.listed(name, entries)
	}
	return entries, err
}

// listing is what the walk listed of folder dir of study id.
func (t *projectTree) listing(id, dir string) ([]fs.DirEntry, bool) {
	if t == nil {
		return nil, false
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	entries, ok := t.listed[id][dir]
	return entries, ok
}

// release forgets the listings of study id, once loaded in full.
func (t *projectTree) release(id string) {
	if t != nil {
		t.mu.Lock()
		delete(t.listed, id)
		t.mu.Unlock()
	}
}

// read checks the invisible characters of a file a loader read, by its
// shown name, in folder, when the tree checks look at that file.
func (t *projectTree) read(folder, shown string, data []byte) {
	if t == nil || !isText(folder, shown) || len(data) > study.MaxFileSize {
		return
	}
	t.mu.Lock()
	_, done := t.texts[shown]
	t.mu.Unlock()
	if done {
		return
	}
	diags := textDiagnostics(shown, data)
	t.mu.Lock()
	t.texts[shown] = diags
	t.mu.Unlock()
}

// checkStructure is what the tree checks find in the names and places of
// the entries: names that another system cannot hold
// (check.PortableNames) and files in results/ that no loader reads
// (unexpectedInResults). It then lets go of every entry but the texts,
// which invisible checks once the loaders have read them.
func (t *projectTree) checkStructure() []check.Diagnostic {
	paths := make([]check.TreePath, len(t.entries))
	for i, e := range t.entries {
		paths[i] = check.TreePath{Shown: e.shown, Rel: e.name}
	}
	out := append(check.PortableNames(paths), unexpectedInResults(t.entries)...)
	t.entries = slices.DeleteFunc(t.entries, func(e treeEntry) bool { return !e.file || !isText(e.folder, e.name) })
	return out
}

// invisible lists the invisible characters of every text of the tree,
// in order: from the bytes a loader read, else read now (a file no
// loader read), or, for a study the cache of own describes as it is now,
// as the cache holds them.
func (t *projectTree) invisible(own *ownReuse) []check.Diagnostic {
	var out []check.Diagnostic
	for _, e := range t.entries {
		id := ownerOf(e)
		if diags, ok := own.invisible(id, e.shown); ok {
			out = append(out, diags...)
			continue
		}
		t.mu.Lock()
		diags, read := t.texts[e.shown]
		t.mu.Unlock()
		if !read {
			diags = invisibleChars(e)
		}
		own.keepInvisible(id, e.shown, diags)
		out = append(out, diags...)
	}
	return out
}

// listedFS reads a study folder through safefs, listing its folders as
// the walk of the tree found them.
type listedFS struct {
	*safefs.FS
	tree *projectTree
	id   string
}

func (l listedFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if entries, ok := l.tree.listing(l.id, name); ok {
		return slices.Clone(entries), nil
	}
	return l.FS.ReadDir(name)
}

// Stat answers "is there no such file" from the listing of its folder
// (a run's history folder, looked for in every run).
func (l listedFS) Stat(name string) (fs.FileInfo, error) {
	if entries, ok := l.tree.listing(l.id, path.Dir(name)); ok {
		base := path.Base(name)
		if _, found := slices.BinarySearchFunc(entries, base, func(e fs.DirEntry, b string) int { return strings.Compare(e.Name(), b) }); !found {
			return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrNotExist}
		}
	}
	return l.FS.Stat(name)
}

// unexpectedInResults reports what the study loader never reads: a file
// at the top of results/ other than prices.yaml, a folder whose name
// starts with '.', and anything in a study folder but study.yaml and
// runs/ (run and history folders report their own). Each is an error:
// a file no check reads is where a pull request could hide anything.
func unexpectedInResults(entries []treeEntry) []check.Diagnostic {
	var out []check.Diagnostic
	add := func(e treeEntry, msg string) {
		out = append(out, check.Diagnostic{Rule: check.RuleSchema, Severity: check.Error, File: e.shown, Message: msg})
	}
	for _, e := range entries {
		if e.folder != "results" || !e.dir && !e.file {
			continue // a link or a pipe is refused on its own path
		}
		parts := strings.Split(e.name, "/")
		switch {
		case len(parts) == 1 && e.dir && strings.HasPrefix(e.name, "."):
			add(e, "a hidden folder in results/: perflab reads no folder whose name starts with '.', so nothing in it is checked or published: remove it")
		case len(parts) == 1 && !e.dir && e.name != study.PricesFile:
			add(e, "unexpected file in results/: perflab reads study folders and "+study.PricesFile+" here, so no check would look at this file: delete it, or move what it says into a study's prose under content/")
		case len(parts) == 2 && !strings.HasPrefix(parts[0], ".") && !(parts[1] == study.StudyFile && !e.dir) && !(parts[1] == "runs" && e.dir):
			add(e, "unexpected file in a study folder: a study holds study.yaml and runs/ only (see docs/results-format.md), so no check would look at this: move a log into its run folder, or delete it")
		}
	}
	return out
}

// textSuffixes are the files, outside results/, that perflab reads as
// text and a page can show: prose, locales, templates.
var textSuffixes = []string{".md", ".yaml", ".yml", ".tmpl", ".css", ".html", ".txt"}

// resultsText are the files of results/ written by hand: their commands,
// names and reasons reach every page. Logs are the tools' own output,
// shown through package plain.
var resultsText = []string{study.StudyFile, study.RunFile, study.HistoryFile, study.PricesFile}

// isText says whether the tree checks read a file of folder for
// invisible characters.
func isText(folder, name string) bool {
	if folder == "results" {
		return slices.Contains(resultsText, path.Base(name))
	}
	return slices.Contains(textSuffixes, path.Ext(name))
}

// invisibleChars reports the bidirectional controls and invisible
// characters of a file a person writes and a page shows.
func invisibleChars(e treeEntry) []check.Diagnostic {
	if !e.file || !isText(e.folder, e.name) {
		return nil
	}
	// Only texts are asked their size: a study's logs are most of the
	// tree, and an lstat each was most of the walk's system calls.
	if info, err := fs.Stat(e.fsys, e.name); err != nil || info.Size() > study.MaxFileSize {
		return nil // an oversized file is refused by its loader
	}
	data, err := fs.ReadFile(e.fsys, e.name)
	if err != nil {
		return nil
	}
	return textDiagnostics(e.shown, data)
}

// textDiagnostics are the invisible characters of a text.
func textDiagnostics(shown string, data []byte) []check.Diagnostic {
	if ext := path.Ext(shown); ext == ".yaml" || ext == ".yml" {
		return check.InvisibleYAML(shown, data)
	}
	return check.Invisible(shown, string(data))
}
