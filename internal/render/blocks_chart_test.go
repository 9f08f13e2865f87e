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
	p := &reportPage{s: &study.Study{ID: "s x"}, charts: []chart.Chart{
		{Name: "a", Description: "A <chart> *1*", Width: 800, Height: 200, NarrowWidth: 360, NarrowHeight: 300},
		{Name: "b", Description: "B", Width: 800, Height: 100, NarrowWidth: 360, NarrowHeight: 150},
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
