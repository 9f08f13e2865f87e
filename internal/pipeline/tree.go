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

// treeFile is one regular file of a project folder.
type treeFile struct {
	folder string // results, content, locales or templates
	fsys   fs.FS
	name   string // in fsys
	shown  string // as diagnostics name it
	size   int64
}

// treeChecks runs, over every file of the four project folders (or, with
// d.Only, of the studies given and their prose), the checks that look at
// files as a reviewer does rather than as a loader reads them: the
// invisible characters of every text perflab reads (invisibleChars).
// Folders that do not read are reported by their loaders.
func treeChecks(d Dirs) []check.Diagnostic {
	var out []check.Diagnostic
	for _, f := range projectFiles(d) {
		out = append(out, invisibleChars(f)...)
	}
	return out
}

// projectFiles lists the regular files of the project folders, in order.
func projectFiles(d Dirs) []treeFile {
	var files []treeFile
	walk := func(folder, dir, under string, keep func(name string, isDir bool) bool) {
		if dir == "" {
			return
		}
		fsys := projectFS(dir)
		root := filepath.ToSlash(dir)
		_ = fs.WalkDir(fsys, under, func(name string, e fs.DirEntry, err error) error {
			if err != nil {
				return nil // the loaders report what does not read
			}
			if name != under && !keep(name, e.IsDir()) {
				if e.IsDir() {
					return fs.SkipDir
				}
				return nil
			}
			if e.Type().IsRegular() {
				info, err := e.Info()
				if err == nil {
					files = append(files, treeFile{folder, fsys, name, path.Join(root, name), info.Size()})
				}
			}
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
	return files
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
func invisibleChars(f treeFile) []check.Diagnostic {
	text := slices.Contains(textSuffixes, path.Ext(f.name))
	if f.folder == "results" {
		text = slices.Contains(resultsText, path.Base(f.name))
	}
	if !text || f.size > study.MaxFileSize {
		return nil // an oversized file is refused by its loader
	}
	data, err := fs.ReadFile(f.fsys, f.name)
	if err != nil {
		return nil
	}
	return check.Invisible(f.shown, string(data))
}
