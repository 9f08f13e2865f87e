package pipeline

import (
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/perflab/perflab/internal/check"
	"github.com/perflab/perflab/internal/render"
	"github.com/perflab/perflab/internal/study"
)

// spoofedLinks checks the links of the prose of every language (rule
// link-spoof), read as the pages read them. Files that do not read are
// reported by the prose's loader.
func spoofedLinks(d Dirs) []check.Diagnostic {
	var out []check.Diagnostic
	lr := render.NewLinkReader()
	cfs := d.folder(d.Content)
	for _, lang := range study.Languages {
		entries, _ := cfs.ReadDir(lang)
		for _, e := range entries {
			id, ok := strings.CutSuffix(e.Name(), ".md")
			if !ok || !e.Type().IsRegular() || len(d.Only) > 0 && !slices.Contains(d.Only, id) {
				continue
			}
			data, err := cfs.ReadFile(path.Join(lang, e.Name()))
			if err != nil || len(data) > study.MaxFileSize {
				continue
			}
			out = append(out, check.SpoofedLinks(path.Join(filepath.ToSlash(d.Content), lang, e.Name()), lr.Links(data))...)
		}
	}
	return out
}
