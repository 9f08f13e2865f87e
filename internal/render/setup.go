package render

import (
	"strings"

	"github.com/perflab/perflab/internal/study"
)

// workloadView is one benchmark case of the setup section.
type workloadView struct {
	Name    string // escaped
	Dataset string
	Main    bool
}

func (p *reportPage) workloads() []workloadView {
	views := make([]workloadView, len(p.s.Workloads))
	for i, w := range p.s.Workloads {
		views[i] = workloadView{Name: esc(p.workloadName(w.ID)), Dataset: p.dataset(w), Main: w.Main}
	}
	return views
}

// dataset describes a workload's requests: the dataset, the number of
// prompts, the seed and the concurrency.
func (p *reportPage) dataset(w study.Workload) string {
	loc := p.loc
	var parts []string
	if w.Dataset == "random" {
		parts = append(parts, loc.T("dataset.random", "In", w.InputLen, "Out", w.OutputLen))
	} else {
		parts = append(parts, loc.T("dataset."+w.Dataset))
	}
	if w.NumPrompts > 0 {
		parts = append(parts, loc.T("dataset.prompts", "N", w.NumPrompts))
	}
	if w.Seed != nil {
		parts = append(parts, loc.T("dataset.seed", "Seed", *w.Seed))
	}
	if w.MaxConcurrency != nil {
		parts = append(parts, loc.T("dataset.concurrency", "N", *w.MaxConcurrency))
	}
	return strings.Join(parts, loc.T("list.separator"))
}

// freshness says, after an engine's version, how it compares with the
// newest of the same engine in the site.
func (p *reportPage) freshness(engine string) string {
	loc := p.loc
	f, ok := p.in.Freshness[engine]
	var text string
	switch {
	case !ok:
		return ""
	case !f.Known:
		text = loc.T("freshness.unknown")
	case f.Behind == 0:
		text = loc.T("freshness.newest")
	default:
		text = loc.T("freshness.behind", "N", f.Behind, "Newest", esc(f.Newest), "Study", "["+esc(f.Study)+"]("+linkPath(f.Study+".md")+")")
	}
	return loc.T("aside", "Text", text)
}
