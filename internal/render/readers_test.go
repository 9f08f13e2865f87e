package render

import (
	"bytes"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/util"

	"github.com/perflab/perflab/internal/chart"
)

// TestReaderAttributes wants every code block reachable by keyboard with a
// name (a log's is its summary), and each chart sized, in both its
// drawings, and loaded lazily after the first.
func TestReaderAttributes(t *testing.T) {
	md := goldmark.New(goldmark.WithExtensions(chartPictures{}, logBlocks{}),
		goldmark.WithParserOptions(parser.WithASTTransformers(util.Prioritized(readerAttributes{}, 300))))
	svg := func(w, h string) []byte {
		return []byte(`<svg viewBox="0 0 1 1" width="` + w + `" height="` + h + `">`)
	}
	charts := []chart.Chart{{Name: "a", SVG: svg("800", "200"), Narrow: svg("360", "300")}, {Name: "b", SVG: svg("800", "100"), Narrow: svg("360", "150")}}
	pc := parser.NewContext()
	pc.Set(readerKey, newReaderAttrs("s", charts, "Code"))
	src := "![A](../s/a.svg)\n\n![B](../s/b.svg)\n\n![C](../s/c.svg)\n\n```bash\nls\n```\n\n```log Raw <result>\nx\n```\n"
	var out bytes.Buffer
	if err := md.Convert([]byte(src), &out, parser.WithContext(pc)); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`<source media="(max-width: 640px)" srcset="../s/narrow/a.svg" width="360" height="300"><img src="../s/a.svg" alt="A" width="800" height="200">`,
		`<source media="(max-width: 640px)" srcset="../s/narrow/b.svg" width="360" height="150"><img src="../s/b.svg" alt="B" width="800" height="100" loading="lazy">`,
		`srcset="../s/narrow/c.svg"><img src="../s/c.svg" alt="C">`, // not a chart of the page: no size known
		`<pre tabindex="0" aria-label="Code"><code class="language-bash">`,
		`<pre tabindex="0" aria-label="Raw &lt;result&gt;"><code class="language-log">`,
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("no %s in\n%s", want, out.String())
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
