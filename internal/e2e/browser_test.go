package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/gocarina/gocsv"

	"github.com/perflab/perflab/internal/downloads"
	"github.com/perflab/perflab/internal/pipeline"
	"github.com/perflab/perflab/internal/render"
	"github.com/perflab/perflab/internal/report"
)

// prefix is the sub-path the site is served under, like a GitHub Pages
// project site; a link that climbs out of it is broken there.
const prefix = "/perflab/"

// findBrowser returns a Chromium or Chrome binary, or "".
func findBrowser() string {
	if p := os.Getenv("PERFLAB_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// siteHandler serves dir under prefix as GitHub Pages does: index.html for a
// folder, 404.html with status 404 for a missing file, nothing outside prefix.
func siteHandler(dir *string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rest, ok := strings.CutPrefix(r.URL.Path, prefix)
		if !ok {
			http.Error(w, "outside the site's folder", http.StatusNotFound)
			return
		}
		name := path.Clean("/" + rest)
		if strings.HasSuffix(r.URL.Path, "/") {
			name = path.Join(name, "index.html")
		}
		file := filepath.Join(*dir, filepath.FromSlash(name))
		if info, err := os.Stat(file); err != nil || info.IsDir() {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.WriteHeader(http.StatusNotFound)
			page, _ := os.ReadFile(filepath.Join(*dir, "404.html"))
			w.Write(page)
			return
		}
		f, err := os.Open(file)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		defer f.Close()
		// ServeContent, not ServeFile: no redirect of .../index.html to .../
		http.ServeContent(w, r, name, time.Time{}, f)
	})
}

// collector gathers what went wrong while a page loaded.
type collector struct {
	mu       sync.Mutex
	origin   string
	urls     map[network.RequestID]string
	problems []string
	requests int
}

func (c *collector) take() (problems []string, requests int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	problems, requests = c.problems, c.requests
	c.problems, c.requests, c.urls = nil, 0, map[network.RequestID]string{}
	return problems, requests
}

func (c *collector) add(format string, args ...any) {
	c.problems = append(c.problems, fmt.Sprintf(format, args...))
}

// favicon is what Chromium asks for on its own when a page declares no
// icon: at the root of the host, outside a project site's folder. It is not a
// request of the page, so its failure is not the page's.
func (c *collector) favicon(u string) bool { return u == c.origin+"/favicon.ico" }

// listen is called on chromedp's reading goroutine: it only records.
func (c *collector) listen(ev any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch ev := ev.(type) {
	case *network.EventRequestWillBeSent:
		u := ev.Request.URL
		c.urls[ev.RequestID] = u
		c.requests++
		if !strings.HasPrefix(u, c.origin+"/") && !strings.HasPrefix(u, "data:") {
			c.add("request to another origin (the site must be self-contained): %s", u)
		}
	case *network.EventResponseReceived:
		if ev.Response.Status >= 400 && !c.favicon(ev.Response.URL) {
			c.add("HTTP %d for %s", ev.Response.Status, ev.Response.URL)
		}
	case *network.EventLoadingFailed:
		if c.favicon(c.urls[ev.RequestID]) {
			return
		}
		c.add("request failed: %s: %s", c.urls[ev.RequestID], ev.ErrorText)
	case *runtime.EventConsoleAPICalled:
		if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeAssert {
			var args []string
			for _, a := range ev.Args {
				args = append(args, strings.Trim(string(a.Value), `"`)+a.Description)
			}
			c.add("console.%s: %s", ev.Type, strings.Join(args, " "))
		}
	case *runtime.EventExceptionThrown:
		d := ev.ExceptionDetails
		msg := d.Text
		if d.Exception != nil {
			msg += " " + d.Exception.Description
		}
		c.add("uncaught exception at %s:%d: %s", d.URL, d.LineNumber+1, msg)
	case *cdplog.EventEntryAdded:
		if ev.Entry.Level == cdplog.EntryLevelError && !c.favicon(ev.Entry.URL) {
			c.add("console error (%s): %s %s", ev.Entry.Source, ev.Entry.Text, ev.Entry.URL)
		}
	}
}

// pageInfo is what the test reads from a loaded page.
type pageInfo struct {
	Lang         string     `json:"lang"`
	Title        string     `json:"title"`
	Location     string     `json:"location"`
	Links        []string   `json:"links"`
	Resources    []string   `json:"resources"`
	BrokenImages []string   `json:"brokenImages"`
	Switcher     []langLink `json:"switcher"`
}

type langLink struct {
	Lang string `json:"lang"`
	Href string `json:"href"`
}

// eagerImages loads the images a page defers (loading="lazy") as a reader
// scrolling to them would, and waits for each to load or fail: the checks
// that follow read every image.
const eagerImages = `Promise.all(Array.from(document.images).map(i => {
  i.loading = "eager";
  return i.complete || new Promise(done => { i.addEventListener("load", done); i.addEventListener("error", done); });
})).then(() => true)`

const readPage = `(() => ({
	lang: document.documentElement.lang,
	title: document.title,
	location: location.href,
	links: Array.from(document.querySelectorAll('a[href]'), a => a.href),
	resources: Array.from(document.querySelectorAll('img[src], script[src], source[src], link[href]'), e => e.src || e.href),
	brokenImages: Array.from(document.images).filter(i => !i.complete || i.naturalWidth === 0).map(i => i.src),
	switcher: Array.from(document.querySelectorAll('nav.langs a[href]'), a => ({lang: a.getAttribute('hreflang') || a.lang, href: a.href})),
}))()`

var enableLog chromedp.Action[chromedp.Void] = func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
	_, err := cdp.Call(ctx, t, cdplog.Enable, cdp.Empty{})
	return chromedp.Void{}, err
}

// fetcher gets internal URLs once each.
type fetcher struct {
	status map[string]int
	body   map[string]string
}

func (f *fetcher) get(t *testing.T, u string) (int, string) {
	t.Helper()
	if code, ok := f.status[u]; ok {
		return code, f.body[u]
	}
	resp, err := http.Get(u)
	if err != nil {
		t.Fatalf("GET %s: %v", u, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("GET %s: %v", u, err)
	}
	f.status[u], f.body[u] = resp.StatusCode, string(b)
	return resp.StatusCode, string(b)
}

var reportPage = regexp.MustCompile(`^([a-z]{2})/(.+\.html)$`)

// TestBrowser loads every page of the repository's site in headless Chromium.
func TestBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	browser := findBrowser()
	if browser == "" && os.Getenv("CI") != "" {
		t.Fatal("CI is set but no chromium, chromium-browser or google-chrome is on PATH: CI never skips the browser test (.ci/run installs Debian's chromium)")
	}
	if browser == "" {
		fmt.Fprintln(os.Stderr, "perflab e2e: THE BROWSER TEST IS SKIPPED: no chromium on PATH; install Debian's chromium and fonts-noto-cjk to run it")
		t.Skip("no chromium, chromium-browser or google-chrome on PATH (.ci/run installs Debian's chromium; PERFLAB_CHROMIUM names a binary)")
	}
	start := time.Now()

	rs := buildRepoSite(t)
	base, files := rs.base, rs.files
	built := time.Since(start)

	ctx := startBrowser(t, browser, 180*time.Second) // room for a machine shared with other builds
	if err := chromedp.Do(ctx, enableLog); err != nil {
		t.Fatalf("starting %s: %v", browser, err)
	}
	col := &collector{origin: rs.origin, urls: map[network.RequestID]string{}}
	if err := chromedp.Listen(ctx, col.listen); err != nil {
		t.Fatal(err)
	}
	shots := os.Getenv("PERFLAB_SCREENSHOTS")

	f := &fetcher{status: map[string]int{}, body: map[string]string{}}
	pages, links, requests := 0, 0, 0
	for _, name := range files.Names() {
		if !strings.HasSuffix(name, ".html") {
			continue
		}
		pages++
		u := base + name
		resp, err := chromedp.Run(ctx, chromedp.NavigateResponse(u))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if resp.Status != 200 {
			t.Errorf("%s: HTTP %d", name, resp.Status)
		}
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](eagerImages, chromedp.EvalAwaitPromise)); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		info, err := chromedp.Run(ctx, chromedp.Evaluate[pageInfo](readPage))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if shots != "" {
			png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
			if err != nil {
				t.Errorf("%s: screenshot: %v", name, err)
			} else if err := os.WriteFile(filepath.Join(shots, strings.ReplaceAll(name, "/", "_")+".png"), png, 0o644); err != nil {
				t.Error(err)
			}
		}
		problems, n := col.take()
		requests += n
		for _, pr := range problems {
			t.Errorf("%s: %s", name, pr)
		}
		if info.Lang == "" {
			t.Errorf("%s: no <html lang>", name)
		}
		if info.Title == "" {
			t.Errorf("%s: no <title>", name)
		}
		for _, img := range info.BrokenImages {
			t.Errorf("%s: image does not display: %s", name, img)
		}
		for _, l := range append(info.Links, info.Resources...) {
			if !strings.HasPrefix(l, rs.origin+"/") {
				continue // another site or scheme: not fetched by the page
			}
			links++
			if !strings.HasPrefix(l, base) {
				t.Errorf("%s: %s leaves the site's folder %s (breaks under a project sub-path)", name, l, prefix)
				continue
			}
			target, frag, _ := strings.Cut(l, "#")
			code, body := f.get(t, target)
			if code != 200 {
				t.Errorf("%s: link %s: HTTP %d", name, l, code)
				continue
			}
			if frag != "" && strings.HasSuffix(target, ".html") {
				id, _ := url.PathUnescape(frag)
				if !strings.Contains(body, `id="`+id+`"`) && !strings.Contains(body, `id="`+frag+`"`) {
					t.Errorf("%s: link %s: no element with id %q on the target page", name, l, id)
				}
			}
		}

		// The language switcher lands on the same page in the other language.
		m := reportPage.FindStringSubmatch(name)
		if m == nil || !isLanguage(m[1]) {
			continue
		}
		lang, rest := m[1], m[2]
		if info.Lang != lang {
			t.Errorf("%s: <html lang=%q>, want %q", name, info.Lang, lang)
		}
		seen := map[string]bool{}
		for _, sw := range info.Switcher {
			seen[sw.Lang] = true
			if want := base + sw.Lang + "/" + rest; sw.Href != want {
				t.Errorf("%s: the %s link of the language switcher goes to %s, want %s", name, sw.Lang, sw.Href, want)
			}
		}
		for _, l := range render.Languages {
			if l.Code != lang && !seen[l.Code] {
				t.Errorf("%s: the language switcher has no link to %s", name, l.Code)
			}
		}
		for _, other := range render.Languages {
			if other.Code == lang || !seen[other.Code] {
				continue
			}
			// Click it, as a reader would.
			resp, err := chromedp.RunResponse(ctx, chromedp.Click(`nav.langs a[hreflang="`+other.Code+`"]`))
			if err != nil {
				t.Errorf("%s: clicking the %s switcher link: %v", name, other.Code, err)
				break
			}
			after, err := chromedp.Run(ctx, chromedp.Evaluate[pageInfo](readPage))
			if err != nil {
				t.Fatal(err)
			}
			if want := base + other.Code + "/" + rest; resp.Status != 200 || after.Location != want || after.Lang != other.Code {
				t.Errorf("%s: the %s switcher link landed on %s (HTTP %d, lang %q), want %s", name, other.Code, after.Location, resp.Status, after.Lang, want)
			}
			problems, n := col.take()
			requests += n
			for _, pr := range problems {
				t.Errorf("%s -> %s: %s", name, other.Code, pr)
			}
			break // one click per page; the hrefs of the others are checked above
		}
	}

	// Following a figure to its log opens the collapsed log at the line the
	// figure comes from, in view and highlighted; on a phone, a tap does it.
	// (Not from the all-runs table, whose script hides all but two columns:
	// Click waits for a visible link, and may be given a hidden one first.)
	for _, name := range files.Names() {
		if !reportPage.MatchString(name) || strings.Count(name, "/") < 2 || !strings.HasSuffix(name, ".html") {
			continue
		}
		if _, err := chromedp.Run(ctx, chromedp.NavigateResponse(base+name)); err != nil {
			t.Fatal(err)
		}
		if _, err := chromedp.RunResponse(ctx, chromedp.Click(`main table:not([data-compare]) a[href^="#L"]`)); err != nil && !strings.Contains(err.Error(), "navigation") {
			// a same-page link fires no network response
		}
		var tg targetInfo
		var err error
		for try := 0; try < 20; try++ { // the scroll may land a frame later on a busy machine
			if tg, err = chromedp.Run(ctx, chromedp.Evaluate[targetInfo](readTarget)); err != nil {
				t.Fatal(err)
			}
			if tg.InView {
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
		if !tg.Found || !tg.Open || !tg.InView || !tg.Highlighted {
			t.Errorf("%s: following a figure to its log line: %+v", name, tg)
		}
		if shots != "" {
			if png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot()); err == nil {
				os.WriteFile(filepath.Join(shots, strings.ReplaceAll(name, "/", "_")+".target.png"), png, 0o644)
			}
		}
		col.take()
	}

	// On a 390 px phone: no sideways page scroll, and every chart drawn
	// within the screen (TestLayoutWidths looks at each element).
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(390, 844)); err != nil {
		t.Fatal(err)
	}
	for _, name := range files.Names() {
		if !reportPage.MatchString(name) || !strings.HasSuffix(name, "/index.html") {
			continue
		}
		if _, err := chromedp.Run(ctx, chromedp.NavigateResponse(base+name)); err != nil {
			t.Fatalf("%s at 390 px: %v", name, err)
		}
		ph, err := chromedp.Run(ctx, chromedp.Evaluate[phoneInfo](readPhone))
		if err != nil {
			t.Fatal(err)
		}
		if ph.PageWidth > ph.ViewWidth {
			t.Errorf("%s at 390 px: the page is %d px wide and scrolls sideways", name, ph.PageWidth)
		}
		if strings.Count(name, "/") < 2 {
			col.take()
			continue // a landing page: no charts
		}
		if ph.Charts == 0 || ph.WidestChart > ph.ViewWidth {
			t.Errorf("%s at 390 px: %d charts, the widest shown %d px wide on a %d px screen", name, ph.Charts, ph.WidestChart, ph.ViewWidth)
		}
		col.take()
	}
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 900)); err != nil {
		t.Fatal(err)
	}

	// A missing page anywhere shows 404.html, whose link leads home.
	missing := base + "no/such/folder/page.html"
	resp, err := chromedp.Run(ctx, chromedp.NavigateResponse(missing))
	if err != nil {
		t.Fatal(err)
	}
	col.take() // the 404 itself is logged as an error
	if resp.Status != 404 {
		t.Errorf("%s: HTTP %d, want 404", missing, resp.Status)
	}
	resp, err = chromedp.RunResponse(ctx, chromedp.Click(`a[lang="en"], main a`))
	if err != nil {
		t.Fatalf("following the 404 page's link: %v", err)
	}
	if home, _ := chromedp.Run(ctx, chromedp.Location()); resp.Status != 200 || home != base+"index.html" {
		t.Errorf("the 404 page's link leads to %s (HTTP %d), want %sindex.html", home, resp.Status, base)
	}
	if problems, _ := col.take(); len(problems) > 0 {
		t.Errorf("landing page after the 404 page: %v", problems)
	}

	// The downloads parse, as fetched from the server.
	fetched := 0
	for _, name := range files.Names() {
		if !strings.HasPrefix(name, "data/") {
			continue
		}
		fetched++
		code, body := f.get(t, base+name)
		if code != 200 {
			t.Errorf("%s: HTTP %d", name, code)
			continue
		}
		if strings.HasPrefix(name, "data/analysis/") {
			var a report.Analysis // a study's verdicts, not rows
			if err := json.Unmarshal([]byte(body), &a); err != nil || a.Study == "" {
				t.Errorf("%s does not parse as an analysis: %v", name, err)
			}
			continue
		}
		if strings.Contains(name, "/reports/") {
			// A Benchmark Report: one object of the schema's version.
			var report struct{ Version string }
			if err := json.Unmarshal([]byte(body), &report); err != nil || report.Version != "0.2.1" {
				t.Errorf("%s is not a Benchmark Report v0.2.1: %v (version %q)", name, err, report.Version)
			}
			continue
		}
		var rows []downloads.Record
		switch {
		case strings.HasSuffix(name, ".evidence.json"):
			var ev pipeline.Evidence
			if err := json.Unmarshal([]byte(body), &ev); err != nil || len(ev.Logs) == 0 || len(ev.Downloads) == 0 {
				t.Errorf("%s: no evidence (%v)", name, err)
			}
			continue
		case strings.HasSuffix(name, ".reproduce.sh"):
			if !strings.HasPrefix(body, "#!/bin/sh\n") {
				t.Errorf("%s is no shell script", name)
			}
			continue
		}
		switch path.Ext(name) {
		case ".csv":
			err = gocsv.UnmarshalString(body, &rows)
		case ".json":
			err = json.Unmarshal([]byte(body), &rows)
		default:
			t.Errorf("%s: unexpected download", name)
			continue
		}
		if err != nil {
			t.Errorf("%s does not parse: %v", name, err)
		} else if len(rows) == 0 {
			t.Errorf("%s has no row", name)
		}
	}
	if fetched == 0 {
		t.Error("the site has no downloads under data/")
	}
	t.Logf("built the site in %v; checked %d pages (%d requests), %d internal links and resources, %d downloads in %v in %s",
		built.Round(time.Millisecond), pages, requests, links, fetched, time.Since(start).Round(time.Millisecond), browser)
}

// targetInfo is where a followed log-line link left the reader.
type targetInfo struct {
	Found, Open, InView, Highlighted bool
	ID                               string
}

const readTarget = `(() => {
  const id = decodeURIComponent(location.hash.slice(1));
  const t = id && document.getElementById(id);
  if (!t) return {Found: false, ID: id};
  const r = t.getBoundingClientRect();
  const d = t.closest('details');
  return {Found: true, ID: id, Open: !!d && d.open, InView: r.top >= 0 && r.bottom <= innerHeight,
    Highlighted: t.matches(':target') && getComputedStyle(t).backgroundColor !== 'rgba(0, 0, 0, 0)'};
})()`

// phoneInfo is what the phone pass measures on a report page.
type phoneInfo struct {
	PageWidth, ViewWidth int
	Charts               int
	WidestChart          int // rendered width of the widest chart
}

const readPhone = `(() => {
  const imgs = [...document.querySelectorAll('main img[src$=".svg"]')];
  const widths = imgs.map(i => Math.round(i.getBoundingClientRect().width));
  return {
    PageWidth: document.documentElement.scrollWidth,
    ViewWidth: window.innerWidth,
    Charts: imgs.length,
    WidestChart: widths.length ? Math.max(...widths) : 0,
  };
})()`

func isLanguage(code string) bool {
	for _, l := range render.Languages {
		if l.Code == code {
			return true
		}
	}
	return false
}
