package pipeline

import (
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/perflab/perflab/internal/check"
	"github.com/perflab/perflab/internal/study"
)

// treeEntry is one file or folder of a project folder.
type treeEntry struct {
	folder string // results, content, locales or templates
	fsys   fs.FS
	name   string // in fsys
	shown  string // as diagnostics name it
	dir    bool
	file   bool // a regular file
}

// treeChecks runs, over every file and folder of the four project folders
// (or, with d.Only, of the studies given and their prose), the checks that
// look at the tree as a reviewer and other systems see it rather than as
// a loader reads it: names that another system cannot hold
// (check.PortableNames), files in results/ that no loader reads
// (unexpectedInResults), and the invisible characters of every text
// perflab reads (invisibleChars). Folders that do not read are reported
// by their loaders.
func treeChecks(d Dirs) []check.Diagnostic {
	entries := projectEntries(d)
	paths := make([]check.TreePath, len(entries))
	for i, e := range entries {
		paths[i] = check.TreePath{Shown: e.shown, Rel: e.name}
	}
	out := check.PortableNames(paths)
	out = append(out, unexpectedInResults(entries)...)
	for _, e := range entries {
		out = append(out, invisibleChars(e)...)
	}
	return out
}

// projectEntries lists the entries of the project folders, in order.
func projectEntries(d Dirs) []treeEntry {
	var entries []treeEntry
	walk := func(folder, dir, under string, keep func(name string, isDir bool) bool) {
		if dir == "" {
			return
		}
		fsys := projectFS(dir)
		root := filepath.ToSlash(dir)
		_ = fs.WalkDir(fsys, under, func(name string, e fs.DirEntry, err error) error {
			if err != nil || name == "." {
				return nil // the loaders report what does not read
			}
			if !keep(name, e.IsDir()) {
				if e.IsDir() {
					return fs.SkipDir
				}
				return nil
			}
			entries = append(entries, treeEntry{folder: folder, fsys: fsys, name: name, shown: path.Join(root, name), dir: e.IsDir(), file: e.Type().IsRegular()})
			return nil
		})
	}
	all := func(string, bool) bool { return true }
	if len(d.Only) == 0 {
		walk("results", d.Results, ".", all)
		walk("content", d.Content, ".", all)
	} else {
		// The top of results/, then the studies given; their prose only.
		walk("results", d.Results, ".", func(name string, isDir bool) bool { return !isDir })
		for _, id := range d.Only {
			walk("results", d.Results, id, all)
		}
		walk("content", d.Content, ".", func(name string, isDir bool) bool {
			return isDir && !strings.Contains(name, "/") || slices.Contains(d.Only, strings.TrimSuffix(path.Base(name), ".md"))
		})
	}
	walk("locales", d.Locales, ".", all)
	walk("templates", d.Templates, ".", all)
	return entries
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

// invisibleChars reports the bidirectional controls and invisible
// characters of a file a person writes and a page shows.
func invisibleChars(e treeEntry) []check.Diagnostic {
	text := slices.Contains(textSuffixes, path.Ext(e.name))
	if e.folder == "results" {
		text = slices.Contains(resultsText, path.Base(e.name))
	}
	if !e.file || !text {
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
	if ext := path.Ext(e.name); ext == ".yaml" || ext == ".yml" {
		return check.InvisibleYAML(e.shown, data)
	}
	return check.Invisible(e.shown, string(data))
}
