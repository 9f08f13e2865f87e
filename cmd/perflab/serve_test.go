package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// lockedBuffer is written by the server's goroutines and read by the test.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// waitFor polls cond every 50 ms until it holds or the time is up.
func waitFor(t *testing.T, what string, limit time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waited %v for %s", limit, what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(body)
}

// TestServe starts perflab serve on a free port over a copy of the
// repository, changes a content file and a template, and sees the pages
// rebuilt; a broken template keeps the previous site up.
func TestServe(t *testing.T) {
	flags := copyRepo(t)
	ctx, cancel := context.WithCancel(context.Background())
	var stdout, stderr lockedBuffer
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, append([]string{"serve", "--addr", "127.0.0.1:0", "--out", "site"}, flags...), &stdout, &stderr)
	}()
	defer func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("serve returned %v", err)
			}
		case <-time.After(5 * time.Second):
			t.Error("serve did not stop within 5 s of its context being cancelled")
		}
	}()

	addr := regexp.MustCompile(`serving (http://127\.0\.0\.1:\d+/)`)
	waitFor(t, "the serving line", 20*time.Second, func() bool { return addr.MatchString(stdout.String()) })
	base := addr.FindStringSubmatch(stdout.String())[1]

	code, body := get(t, base)
	if code != 200 || !strings.Contains(body, "perflab") {
		t.Fatalf("GET / = %d:\n%s", code, body)
	}
	if code, _ := get(t, base+"index.html"); code != 200 {
		t.Fatalf("GET /index.html = %d", code)
	}
	if code, _ := get(t, base+"data/all.csv"); code != 200 {
		t.Fatalf("GET /data/all.csv = %d", code)
	}
	if code, body := get(t, base+"no/such/page.html"); code != 404 || !strings.Contains(body, "index.html") {
		t.Fatalf("GET a missing page = %d, want 404 with the 404 page", code)
	}
	if _, err := os.Stat(filepath.Join("site", "index.html")); err != nil {
		t.Fatalf("serve did not write the site: %v", err)
	}

	// A change in content/ is rebuilt and served.
	page := base + "en/qwen3-32b-a100/index.html"
	code, before := get(t, page)
	if code != 200 {
		t.Fatalf("GET %s = %d", page, code)
	}
	const marker = "Zanzibar-marker-7319"
	file := filepath.Join("content", "en", "qwen3-32b-a100.md")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(before, marker) {
		t.Fatal("the marker is already on the page")
	}
	if err := os.WriteFile(file, append(data, []byte("\n"+marker+"\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the page rebuilt with the changed content", 15*time.Second, func() bool {
		_, body := get(t, page)
		return strings.Contains(body, marker)
	})

	// A broken template: the rebuild fails, its error is printed and shown
	// on every page; the other files of the previous site are still served.
	tmpl := filepath.Join("templates", "page.html.tmpl")
	if err := os.WriteFile(tmpl, []byte("{{ .Broken"), 0o644); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the failed rebuild's message", 15*time.Second, func() bool {
		return strings.Contains(stderr.String(), "rebuild failed")
	})
	if code, body := get(t, page); code != 503 || !strings.Contains(body, "page.html.tmpl") {
		t.Fatalf("after a failed rebuild GET %s = %d, want the build error:\n%s", page, code, body)
	}
	if code, _ := get(t, base+"data/all.csv"); code != 200 {
		t.Fatalf("after a failed rebuild GET /data/all.csv = %d, want the previous file", code)
	}
}

// A request must name the server's own loopback address and port: a page
// of another site whose name resolves to 127.0.0.1 (DNS rebinding) is
// refused.
func TestServeHostHeader(t *testing.T) {
	s := &server{port: "8080", files: memSite{"index.html": []byte("<p>site</p>")}}
	for host, want := range map[string]int{
		"127.0.0.1:8080":      200,
		"localhost:8080":      200,
		"[::1]:8080":          200,
		"evil.example:8080":   421,
		"127.0.0.1:9090":      421,
		"127.0.0.1":           421,
		"localhost.evil:8080": 421,
		"10.0.0.1:8080":       421,
		"":                    421,
	} {
		r := httptest.NewRequest("GET", "/", nil)
		r.Host = host
		w := httptest.NewRecorder()
		s.ServeHTTP(w, r)
		if w.Code != want {
			t.Errorf("Host %q: %d, want %d", host, w.Code, want)
		}
	}
}

func TestServeRefusesPublicAddress(t *testing.T) {
	_, stderr, err := perflab(t, "serve", "--addr", "0.0.0.0:8080")
	if exitCode(err) != 2 || !strings.Contains(stderr, "loopback") {
		t.Errorf("serve --addr 0.0.0.0:8080: err %v, stderr %q; want a usage error about loopback", err, stderr)
	}
}

// A served page polls the build generation and reloads when it moves; the
// files written to --out carry no script.
func TestServeReloadsPages(t *testing.T) {
	page := []byte("<html><body><p>site</p></body></html>")
	s := &server{port: "8080", files: memSite{"index.html": page}, generation: 3}
	get := func(p string) string {
		r := httptest.NewRequest("GET", p, nil)
		r.Host = "127.0.0.1:8080"
		w := httptest.NewRecorder()
		s.ServeHTTP(w, r)
		return w.Body.String()
	}
	body := get("/")
	if !strings.Contains(body, "var g=3;") || !strings.Contains(body, generationPath) || !strings.HasSuffix(body, "</body></html>") {
		t.Errorf("the page has no reload script before </body>: %s", body)
	}
	if got := get(generationPath); got != "3" {
		t.Errorf("generation %q, want 3", got)
	}
	s.err, s.generation = errors.New("results/x/study.yaml:3: broken"), 4
	if body := get("/"); !strings.Contains(body, "broken") || !strings.Contains(body, "var g=4;") {
		t.Errorf("the failed build's page neither shows the error nor reloads: %s", body)
	}
	if strings.Contains(string(page), "<script>") {
		t.Error("the site's own file was changed")
	}
}
