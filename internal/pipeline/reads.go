package pipeline

import (
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/perflab/perflab/internal/safefs"
	"github.com/perflab/perflab/internal/study"
)

// readLedger is what a build read of the project: the SHA-256 of every
// file read through the build's folders (Dirs.folder), by repository
// path. A study's evidence lists what the ledger holds for it, so that a
// file the build starts to read is cited without anyone listing it: the
// files of the study's folder and its prose in each language, and every
// file that belongs to no study (results/prices.yaml, locales/,
// templates/), which every page may depend on.
type readLedger struct {
	mu      sync.Mutex
	byScope map[string]map[string]string // study id, or "" when shared -> path -> SHA-256
	changed []string                     // paths read twice with different bytes
}

func newReadLedger() *readLedger {
	return &readLedger{byScope: map[string]map[string]string{}}
}

// scopeOf is the study a file of the project belongs to, by its
// repository path, or "" when it belongs to none.
func scopeOf(repoPath string) string {
	if rest, ok := strings.CutPrefix(repoPath, "results/"); ok {
		if id, _, nested := strings.Cut(rest, "/"); nested {
			return id
		}
		return ""
	}
	if rest, ok := strings.CutPrefix(repoPath, "content/"); ok {
		if _, file, ok := strings.Cut(rest, "/"); ok && !strings.Contains(file, "/") {
			return strings.TrimSuffix(file, ".md")
		}
	}
	return ""
}

func (l *readLedger) put(repoPath, sum string) {
	scope := scopeOf(repoPath)
	l.mu.Lock()
	defer l.mu.Unlock()
	files := l.byScope[scope]
	if files == nil {
		files = map[string]string{}
		l.byScope[scope] = files
	}
	if old, ok := files[repoPath]; ok && old != sum {
		l.changed = append(l.changed, repoPath)
	}
	files[repoPath] = sum
}

// take lists, by path, the files read for study id and those shared, and
// forgets the study's: a study's pages are made once per build. A file
// read twice with different bytes is an error.
func (l *readLedger) take(id string) ([]FileHash, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.changed) > 0 {
		return nil, fmt.Errorf("cannot build: %s changed while the site was built: build again", l.changed[0])
	}
	var out []FileHash
	for _, scope := range []string{"", id} {
		for p, sum := range l.byScope[scope] {
			out = append(out, FileHash{p, sum})
		}
	}
	delete(l.byScope, id)
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}

// folder reads a project folder as given, dir, through package safefs
// (see projectFS); with a ledger (a build), every file read is noted in
// it, and with the walk of the tree, every text read is checked there.
func (d Dirs) folder(dir string) *safefs.FS {
	name := ""
	for _, f := range [...]struct{ dir, name string }{{d.Results, "results"}, {d.Content, "content"}, {d.Locales, "locales"}, {d.Templates, "templates"}} {
		if f.dir == dir {
			name = f.name
			break
		}
	}
	return d.observed(dir, filepath.ToSlash(dir), name)
}

// studyFolder reads the folder of study id, as folder does, listing its
// folders as the walk of the tree found them.
func (d Dirs) studyFolder(id string) fs.FS {
	fsys := d.observed(filepath.Join(d.Results, id), path.Join(filepath.ToSlash(d.Results), id), "results")
	if d.tree == nil {
		return fsys
	}
	return listedFS{fsys, d.tree, id}
}

func (d Dirs) observed(dir, root, folder string) *safefs.FS {
	if d.reads == nil && d.tree == nil {
		return safefs.New(dir, root)
	}
	return safefs.NewObserved(dir, root, func(file string, data []byte) {
		if d.reads != nil {
			d.reads.put(d.RepoPath(file), study.FileSum(data))
		}
		d.tree.read(folder, file, data)
	})
}
