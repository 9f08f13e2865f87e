package render

import (
	"bytes"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
)

// TestChartPictures wants a chart's image wrapped in a <picture> whose
// narrow source is narrow/<name>.svg beside it, and other images left as
// goldmark draws them.
func TestChartPictures(t *testing.T) {
	md := goldmark.New(goldmark.WithExtensions(chartPictures{}))
	cases := []struct{ in, want string }{
		{`![A chart](../s/conclusion.svg)`, `<p><picture><source media="(max-width: 640px)" srcset="../s/narrow/conclusion.svg"><img src="../s/conclusion.svg" alt="A chart"></picture></p>`},
		{`![A chart](s%20x/step-a%2Fb.svg)`, `<p><picture><source media="(max-width: 640px)" srcset="s%20x/narrow/step-a%2Fb.svg"><img src="s%20x/step-a%2Fb.svg" alt="A chart"></picture></p>`},
		{`![x](c.svg)`, `<p><picture><source media="(max-width: 640px)" srcset="narrow/c.svg"><img src="c.svg" alt="x"></picture></p>`},
		{`![x](a.png)`, `<p><img src="a.png" alt="x"></p>`},
		{`![x](https://example.com/a.svg)`, `<p><img src="https://example.com/a.svg" alt="x"></p>`},
	}
	for _, c := range cases {
		var out bytes.Buffer
		if err := md.Convert([]byte(c.in), &out); err != nil {
			t.Fatal(err)
		}
		if got := strings.TrimSpace(out.String()); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.in, got, c.want)
		}
	}
}
