package e2e

import (
	"context"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/perflab/perflab/internal/pipeline"
	"github.com/perflab/perflab/internal/site"
)

// repoSite is the repository's own site, built into a temporary folder and
// served under prefix by a local server for the length of one test.
type repoSite struct {
	origin  string // the server's address
	base    string // the site's address: origin + prefix
	project *pipeline.Project
	files   site.Files
}

func buildRepoSite(t *testing.T) repoSite {
	t.Helper()
	var dir string
	srv := httptest.NewServer(siteHandler(&dir))
	t.Cleanup(srv.Close)
	rs := repoSite{origin: srv.URL, base: srv.URL + prefix}
	repo := func(name string) string { return filepath.Join("..", "..", name) }
	d := pipeline.Dirs{Results: repo("results"), Content: repo("content"), Locales: repo("locales"), Templates: repo("templates"), BaseURL: rs.base}
	p, err := pipeline.Load(d)
	if err != nil {
		t.Fatal(err)
	}
	files, err := pipeline.Site(p, d)
	if err != nil {
		t.Fatal(err)
	}
	dir = filepath.Join(t.TempDir(), "site")
	if err := site.Write(dir, files); err != nil {
		t.Fatal(err)
	}
	rs.project, rs.files = p, files
	return rs
}

// startBrowser starts headless Chromium at 1280 x 900 for one test, with
// nothing that reaches the network; it stops when the test ends or after
// timeout.
func startBrowser(t *testing.T, browser string, timeout time.Duration) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	t.Cleanup(cancel)
	ctx, cancelAlloc := chromedp.NewExecAllocator(ctx,
		chromedp.ExecPath(browser),
		chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 900),
	)
	t.Cleanup(cancelAlloc)
	ctx, cancelCtx := chromedp.NewContext(ctx)
	t.Cleanup(cancelCtx)
	return ctx
}
