package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// narrowProblems lists what a reader at the page's width cannot see without
// scrolling sideways: the page itself wider than the window, and any
// element of a report's first section or of the landing page's cards that
// reaches past the window's edges.
const narrowProblems = `(() => {
  const w = document.documentElement.clientWidth, out = [];
  if (document.documentElement.scrollWidth > w + 1)
    out.push("the page is " + document.documentElement.scrollWidth + " px wide in a " + w + " px window");
  const roots = [];
  const h = document.getElementById("conclusion");
  if (h) for (let n = h.nextElementSibling; n && n.tagName !== "H2"; n = n.nextElementSibling) roots.push(n);
  document.querySelectorAll("#studies tbody tr").forEach(tr => roots.push(tr));
  const check = el => {
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) return;
    // A header row kept for screen readers only (a table shown as cards).
    const head = el.closest("thead");
    if (head && getComputedStyle(head).clipPath !== "none") return;
    if (r.left < -1 || r.right > w + 1) {
      const text = (el.textContent || el.getAttribute("src") || "").trim().slice(0, 40);
      out.push("<" + el.tagName.toLowerCase() + "> " + JSON.stringify(text) + " spans " + Math.round(r.left) + ".." + Math.round(r.right) + " px of " + w);
    }
    // Inside a box that scrolls, the part out of its view is out of view too.
    if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== "visible")
      out.push("<" + el.tagName.toLowerCase() + "> scrolls sideways: " + el.scrollWidth + " px in " + el.clientWidth);
  };
  roots.forEach(root => { check(root); root.querySelectorAll("*").forEach(check); });
  if (roots.length === 0 && location.pathname.match(/\/[a-z]{2}\/[^/]+\/index\.html$/))
    out.push("no first section (h2#conclusion) to check");
  return out;
})()`

// clippedTables lists the tables whose content is wider than their box: at
// a desktop width every table must fit.
const clippedTables = `(() => {
  const out = [];
  document.querySelectorAll("main table").forEach(t => {
    if (t.offsetParent === null) return;
    if (t.scrollWidth > t.clientWidth + 1) {
      let h = t.previousElementSibling;
      while (h && !/^H[1-6]$/.test(h.tagName)) h = h.previousElementSibling;
      out.push("table after " + JSON.stringify(h ? h.textContent.trim().slice(0, 50) : "") + " is " + t.scrollWidth + " px wide in " + t.clientWidth);
    }
  });
  return out;
})()`

// tappedFigure follows the first figure of the first section to its log
// line, as a tap does, and says where that line ends up.
const tappedFigure = `(() => {
  const h = document.getElementById("conclusion");
  let link = null;
  for (let n = h && h.nextElementSibling; n && n.tagName !== "H2" && !link; n = n.nextElementSibling)
    link = n.querySelector('a[href^="#L"]');
  if (!link) return "";
  link.click();
  return link.getAttribute("href").slice(1);
})()`

const lineInView = `((id) => {
  const el = document.getElementById(id), w = document.documentElement.clientWidth, h = window.innerHeight;
  const r = el.getBoundingClientRect(), pre = el.closest("pre");
  const out = [];
  if (r.left < -1 || r.right > w + 1 || r.top < 0 || r.bottom > h) out.push("line " + id + " at " + Math.round(r.left) + ".." + Math.round(r.right) + " x " + Math.round(r.top) + ".." + Math.round(r.bottom) + " in " + w + " x " + h);
  if (pre && pre.scrollWidth > pre.clientWidth + 1) out.push("its log scrolls sideways: " + pre.scrollWidth + " px in " + pre.clientWidth);
  return out;
})`

// unreadableCharts lists the charts of a page whose smallest text is
// drawn under 9 CSS px, and, on a narrow window, those not shown in their
// narrow drawing (narrow/<name>.svg). The text sizes are read from the SVG
// that is displayed; the scale is its displayed width over its own.
const unreadableCharts = `((narrow) => {
  const out = [];
  document.querySelectorAll("main picture img, main img[src$='.svg']").forEach(img => {
    const src = img.currentSrc || img.src, name = decodeURIComponent(src.split("/").slice(-2).join("/"));
    const r = img.getBoundingClientRect();
    if (!img.naturalWidth || r.width === 0) { out.push("chart " + name + " is not shown"); return; }
    if (narrow && !/\/narrow\/[^/]+$/.test(src)) out.push("chart " + name + " is shown in its wide drawing, " + img.naturalWidth + " px");
    const x = new XMLHttpRequest();
    x.open("GET", src, false);
    x.send();
    const sizes = [...x.responseText.matchAll(/font-size:([0-9.]+)px/g)].map(m => +m[1]);
    if (sizes.length === 0) return;
    const smallest = Math.min(...sizes) * r.width / img.naturalWidth;
    if (smallest < 9) out.push("chart " + name + ": its smallest text is " + smallest.toFixed(1) + " px tall");
  });
  return out;
})`

var pageOfReport = regexp.MustCompile(`^[a-z]{2}/[^/]+/index\.html$`)

// TestLayoutWidths looks at every report and landing page at a phone's
// width (390 px) and a desktop's (1280 px): at 390 the conclusion and the
// landing page's cards show their figures without sideways scrolling and a
// tapped figure's log line is in view; at 1280 no table is clipped; at
// both every chart's text is at least 9 px tall, from its narrow drawing
// at 390.
func TestLayoutWidths(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	browser := findBrowser()
	if browser == "" {
		t.Skip("no chromium, chromium-browser or google-chrome on PATH (TestBrowser says so loudly)")
	}
	rs := buildRepoSite(t)
	ctx := startBrowser(t, browser, 120*time.Second)
	shots := os.Getenv("PERFLAB_SCREENSHOTS")
	for _, width := range []int64{390, 1280} {
		if _, err := chromedp.Run(ctx, chromedp.EmulateViewport(width, 844)); err != nil {
			t.Fatal(err)
		}
		for _, name := range rs.files.Names() {
			report := pageOfReport.MatchString(name)
			landing := strings.HasSuffix(name, "index.html") && !report
			if !report && !landing {
				continue
			}
			script := clippedTables
			if width < 640 {
				script = narrowProblems
			}
			if _, err := chromedp.Run(ctx, chromedp.Navigate(rs.base+name)); err != nil {
				t.Fatalf("%s at %d px: %v", name, width, err)
			}
			if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](eagerImages, chromedp.EvalAwaitPromise)); err != nil {
				t.Fatalf("%s at %d px: %v", name, width, err)
			}
			problems, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](script))
			if err != nil {
				t.Fatalf("%s at %d px: %v", name, width, err)
			}
			charts, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](unreadableCharts+"("+strconv.FormatBool(width < 640)+")"))
			if err != nil {
				t.Fatalf("%s at %d px: %v", name, width, err)
			}
			for _, p := range append(problems, charts...) {
				t.Errorf("%s at %d px: %s", name, width, p)
			}
			if shots != "" {
				if png, err := chromedp.Run(ctx, chromedp.FullScreenshot(90)); err == nil {
					_ = os.WriteFile(filepath.Join(shots, fmt.Sprintf("%d_%s.png", width, strings.ReplaceAll(name, "/", "_"))), png, 0o644)
				}
			}
			if report && width < 640 {
				checkTappedFigure(t, ctx, name)
			}
		}
	}
}

// checkTappedFigure taps the conclusion's first figure and wants its log
// line, with the value at its end, inside the window.
func checkTappedFigure(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	id, err := chromedp.Run(ctx, chromedp.Evaluate[string](tappedFigure))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if id == "" {
		t.Errorf("%s: the first section has no figure linked to its log", name)
		return
	}
	var problems []string
	for try := 0; try < 20; try++ { // the scroll may land a frame later on a busy machine
		if problems, err = chromedp.Run(ctx, chromedp.Evaluate[[]string](lineInView+"("+strconv.Quote(id)+")")); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(problems) == 0 {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	for _, p := range problems {
		t.Errorf("%s at 390 px, a tapped figure: %s", name, p)
	}
}
