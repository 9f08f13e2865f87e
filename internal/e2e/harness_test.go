package e2e

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/perflab/perflab/internal/check"
	"github.com/perflab/perflab/internal/pipeline"
	"github.com/perflab/perflab/internal/site"
	"github.com/perflab/perflab/internal/study"
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
	p := heldProject(t, d)
	files := &memSite{files: site.Files{}}
	if _, err := pipeline.Build(d, files); err != nil {
		t.Fatal(err)
	}
	dir = filepath.Join(t.TempDir(), "site")
	if err := site.Write(dir, files.files); err != nil {
		t.Fatal(err)
	}
	rs.project, rs.files = p, files.files
	return rs
}

// heldProject checks every study of d and holds each study's full result
// and its prose, which the tests compare the pages with.
func heldProject(t *testing.T, d pipeline.Dirs) *pipeline.Project {
	t.Helper()
	var mu sync.Mutex
	held := map[string]check.Result{}
	p, err := pipeline.Check(d, func(res check.Result) error {
		mu.Lock()
		held[res.Study.ID] = res
		mu.Unlock()
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for i, res := range p.Results {
		p.Results[i] = held[res.Study.ID]
	}
	content, _, err := study.LoadContent(os.DirFS(d.Content), filepath.ToSlash(d.Content))
	if err != nil {
		t.Fatal(err)
	}
	p.Content = content
	return p
}

// memSite collects a site's files in memory from several goroutines.
type memSite struct {
	mu    sync.Mutex
	files site.Files
}

func (m *memSite) Add(name string, data []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.files.Add(name, data)
}

func (m *memSite) ReadFile(name string) ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	data, ok := m.files[name]
	if !ok {
		return nil, fmt.Errorf("%s was not added", name)
	}
	return data, nil
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
