package render

import (
	"testing"

	"github.com/perflab/perflab/internal/chart"
	"github.com/perflab/perflab/internal/study"
)

// TestChartPicture: a chart is a <picture> whose narrow source is
// narrow/<name>.svg beside it, both drawings sized, lazy after the first
// chart of the page, its text alternative plain text; no chart, nothing.
func TestChartPicture(t *testing.T) {
	svg := func(w, h string) []byte {
		return []byte(`<svg viewBox="0 0 1 1" width="` + w + `" height="` + h + `">`)
	}
	p := &reportPage{s: &study.Study{ID: "s x"}, charts: []chart.Chart{
		{Name: "a", Description: "A <chart> *1*", SVG: svg("800", "200"), Narrow: svg("360", "300")},
		{Name: "b", Description: "B", SVG: svg("800", "100"), Narrow: svg("360", "150")},
	}}
	for _, c := range []struct{ name, MD, HTML string }{
		{"a", `![A \<chart\> \*1\*](s%20x/a.svg)`, `<p><picture><source media="(max-width: 640px)" srcset="../s%20x/narrow/a.svg" width="360" height="300"><img src="../s%20x/a.svg" alt="A &lt;chart&gt; *1*" width="800" height="200"></picture></p>` + "\n"},
		{"b", `![B](s%20x/b.svg)`, `<p><picture><source media="(max-width: 640px)" srcset="../s%20x/narrow/b.svg" width="360" height="150"><img src="../s%20x/b.svg" alt="B" width="800" height="100" loading="lazy"></picture></p>` + "\n"},
		{"c", "", ""},
	} {
		got := p.richChart(c.name)
		if got.MD != c.MD || string(got.HTML) != c.HTML {
			t.Errorf("%s:\n got %q\n     %q\nwant %q\n     %q", c.name, got.MD, got.HTML, c.MD, c.HTML)
		}
	}
}

func TestSVGSize(t *testing.T) {
	for _, c := range []struct {
		svg  string
		w, h int
		ok   bool
	}{
		{`<svg xmlns="x" viewBox="0 0 800 255" width="800" height="255" role="img">`, 800, 255, true},
		{`<svg width="800">`, 800, 0, false},
		{`<svg width="x" height="2">`, 0, 2, false},
		{`no svg`, 0, 0, false},
	} {
		w, h, ok := svgSize([]byte(c.svg))
		if w != c.w || h != c.h || ok != c.ok {
			t.Errorf("%s: %d %d %v, want %d %d %v", c.svg, w, h, ok, c.w, c.h, c.ok)
		}
	}
}
