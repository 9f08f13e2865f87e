package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// chartTextOutside puts one SVG chart into the page, as its own document
// would lay it out, and lists each text Chromium draws past the chart's
// left or right edge, with the fonts the chart names.
const chartTextOutside = `(svg => {
  const doc = new DOMParser().parseFromString(svg, "image/svg+xml").documentElement;
  const s = document.body.appendChild(document.importNode(doc, true));
  const w = +s.getAttribute("width"), out = [];
  s.querySelectorAll("text").forEach(e => {
    const b = e.getBBox();
    if (b.x < -0.5 || b.x + b.width > w + 0.5) out.push(e.textContent + ": " + b.x.toFixed(0) + " to " + (b.x + b.width).toFixed(0) + " px of " + w);
  });
  s.remove();
  return out;
})`

// TestChartTextInside reads every golden chart (the repository's site
// and the chart tests' studies, wide and narrow, en/zh/ja) in Chromium
// and fails on any text that runs past the chart's edge, such as a
// legend too long for a phone's 360 px.
func TestChartTextInside(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	browser := findBrowser()
	if browser == "" {
		t.Skip("no chromium, chromium-browser or google-chrome on PATH")
	}
	var files []string
	for _, dir := range []string{"../pipeline/testdata/golden", "../render/testdata/charts", "../render/testdata/sweep-charts"} {
		found, err := filepath.Glob(dir + "/*/*/*.svg")
		if err != nil {
			t.Fatal(err)
		}
		narrow, _ := filepath.Glob(dir + "/*/*/narrow/*.svg")
		flat, _ := filepath.Glob(dir + "/*/*.svg") // sweep-charts/<lang>
		files = append(append(append(files, found...), narrow...), flat...)
	}
	if len(files) < 100 {
		t.Fatalf("found %d golden charts, want the repository's 102 and more", len(files))
	}
	ctx := startBrowser(t, browser, 5*time.Minute)
	if _, err := chromedp.Run(ctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		svg, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		arg, _ := json.Marshal(string(svg))
		out, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](chartTextOutside+"("+string(arg)+")"))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, o := range out {
			t.Errorf("%s: %s", f, o)
		}
	}
	t.Logf("%d charts read", len(files))
}
