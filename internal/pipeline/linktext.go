package pipeline

import (
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/perflab/perflab/internal/check"
	"github.com/perflab/perflab/internal/markup"
	"github.com/perflab/perflab/internal/study"
)

// spoofedLinks checks the links of the prose of every language (rule
// link-spoof), read as the pages read them. Files that do not read are
// reported by the prose's loader.
func spoofedLinks(d Dirs) []check.Diagnostic {
	var out []check.Diagnostic
	lr := markup.NewLinkReader()
	cfs := d.folder(d.Content)
	for li, lang := range study.Languages {
		entries, _ := cfs.ReadDir(lang)
		for _, e := range entries {
			id, ok := strings.CutSuffix(e.Name(), ".md")
			if !ok || !e.Type().IsRegular() || len(d.Only) > 0 && !slices.Contains(d.Only, id) {
				continue
			}
			if diags, ok := d.own.reused(linksOf, id, li); ok {
				out = append(out, diags...)
				continue
			}
			data, err := cfs.ReadFile(path.Join(lang, e.Name()))
			if err != nil || len(data) > study.MaxFileSize {
				continue
			}
			diags := check.SpoofedLinks(path.Join(filepath.ToSlash(d.Content), lang, e.Name()), lr.Links(data))
			d.own.keep(linksOf, id, li, diags)
			out = append(out, diags...)
		}
	}
	return out
}
