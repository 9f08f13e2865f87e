package render

import (
	"cmp"
	"slices"
	"strings"

	"github.com/perflab/perflab/internal/plain"
	"github.com/perflab/perflab/internal/report"
)

// matchedGroup is a set of studies the landing page compares: the same GPU
// model and the same workload as measured, each by its recommended
// configuration's figure (per GPU for a throughput), never by its gain.
type matchedGroup struct {
	GPU, Workload, Metric string
	Rows                  []matchedRow
}

type matchedRow struct {
	Model, Run, Figure, Href string
	GPU, EngineKeys          string // for the filters, as the studies' rows give them
}

// matchedGroups lists the groups of two studies or more whose main figures
// match (report.MainFigure.Matches), by GPU and workload; dir is where the
// reports are from the page.
func matchedGroups(loc *localizer, entries []IndexEntry, dir string) []matchedGroup {
	var keys []string
	byKey := map[string][]IndexEntry{}
	for _, e := range entries {
		if e.Main == nil {
			continue
		}
		k := e.Main.Matches(e.GPU)
		if byKey[k] == nil {
			keys = append(keys, k)
		}
		byKey[k] = append(byKey[k], e)
	}
	var out []matchedGroup
	for _, k := range keys {
		es := byKey[k]
		if len(es) < 2 {
			continue
		}
		m := es[0].Main
		g := matchedGroup{GPU: plain.Line(es[0].GPU), Workload: matchedWorkload(loc, m), Metric: loc.T("metric." + m.Metric.Key)}
		if m.PerGPU {
			g.Metric = loc.T("index.matched.per_gpu", "Metric", g.Metric)
		}
		for _, e := range es {
			g.Rows = append(g.Rows, matchedRow{Model: plain.Line(e.Model), Run: plain.Line(e.Main.Run),
				Figure: report.FormatNumber(e.Main.Figure, e.Main.Decimals), Href: dir + e.Study + "/index.html#conclusion",
				GPU: plain.Line(e.GPU), EngineKeys: plain.Line(strings.Join(e.EngineNames, "|"))})
		}
		slices.SortStableFunc(g.Rows, func(a, b matchedRow) int { return strings.Compare(a.Model, b.Model) })
		out = append(out, g)
	}
	slices.SortStableFunc(out, func(a, b matchedGroup) int {
		return cmp.Or(strings.Compare(a.GPU, b.GPU), strings.Compare(a.Workload, b.Workload))
	})
	return out
}

// matchedWorkload names a workload as measured: its dataset, its lengths
// when set, its load when printed.
func matchedWorkload(loc *localizer, m *report.MainFigure) string {
	parts := []string{plain.Line(m.Dataset)}
	if m.InputLen > 0 || m.OutputLen > 0 {
		parts = append(parts, loc.T("index.matched.lengths", "In", m.InputLen, "Out", m.OutputLen))
	}
	if m.LoadKey != "" {
		parts = append(parts, loc.T("sweep.at."+m.LoadKey, "Load", m.Load))
	} else {
		parts = append(parts, loc.T("index.matched.no_load"))
	}
	return strings.Join(parts, " · ")
}
