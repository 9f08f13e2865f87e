package main

import (
	"bytes"
	"context"
	"fmt"
	"html"
	"io"
	"io/fs"
	"mime"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/perflab/perflab/internal/pipeline"
	"github.com/perflab/perflab/internal/safefs"
	"github.com/perflab/perflab/internal/site"
)

// pollInterval is how often perflab serve looks for changed files.
const pollInterval = 500 * time.Millisecond

// runServe builds the site, serves it on a loopback address and rebuilds it
// when a file under results/, content/, locales/ or templates/ changes. The
// site is served from memory, the bytes also written to --out as perflab build
// would; a failed rebuild prints its error, every page shows it until a build
// succeeds, and the previous site's other files stay up. Only requests that
// name the loopback address it listens on are answered.
func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("serve", stderr)
	d := dirFlags(fs)
	out := fs.String("out", "site", "output folder, rewritten after each successful build")
	fs.StringVar(&d.BaseURL, "base-url", "", "address the site is published at (sitemaps, 404.html); not needed for a preview")
	repoURLFlag(fs, d)
	addr := fs.String("addr", "127.0.0.1:8080", "loopback address and port to listen on (port 0: any free port)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := noArgs(fs); err != nil {
		return err
	}
	if err := checkOutput("--out", *out, *d); err != nil {
		return err
	}
	if err := loopbackOnly(*addr); err != nil {
		fmt.Fprintf(stderr, "perflab serve: %v\n", err)
		return errUsage
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt)
	defer stop()

	_, port, _ := net.SplitHostPort(ln.Addr().String())
	s := &server{dirs: *d, out: *out, log: &syncWriter{w: stderr}, port: port}
	watched := []string{d.Results, d.Content, d.Locales, d.Templates}
	last := scan(watched)
	s.rebuild()

	srv := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	fmt.Fprintf(stdout, "serving http://%s/ (rebuilds when %s change; Ctrl-C stops)\n", ln.Addr(), strings.Join(watched, ", "))

	tick := time.NewTicker(pollInterval)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			shut, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			defer cancel()
			return srv.Shutdown(shut)
		case err := <-errc:
			return err
		case <-tick.C:
			if now := scan(watched); now != last {
				last = now
				s.rebuild()
			}
		}
	}
}

// loopbackOnly refuses to listen beyond this machine: serve is a preview.
func loopbackOnly(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("--addr %q: %v (want host:port, such as 127.0.0.1:8080)", addr, err)
	}
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return fmt.Errorf("--addr %q: serve is a local preview and listens on a loopback address only (127.0.0.1, ::1 or localhost)", addr)
}

// scan summarises the names, sizes and modification times of every file
// under the folders; two scans differ when a file was added, removed or
// changed. A folder that does not exist scans as empty.
func scan(dirs []string) string {
	var b strings.Builder
	for _, dir := range dirs {
		if dir == "" {
			continue
		}
		// Listed through safefs, as the build reads: no linked folder is
		// walked into.
		fs.WalkDir(safefs.New(dir, filepath.ToSlash(dir)), ".", func(p string, e fs.DirEntry, err error) error {
			if err == nil && e.IsDir() && strings.HasPrefix(p, ".") && p != "." && !strings.Contains(p, "/") {
				return fs.SkipDir // hidden top folders are not read (perflab record's log as it grows)
			}
			if err != nil || e.IsDir() {
				return nil
			}
			p = filepath.Join(dir, filepath.FromSlash(p))
			if info, err := e.Info(); err == nil {
				fmt.Fprintf(&b, "%s\x00%d\x00%d\n", p, info.Size(), info.ModTime().UnixNano())
			}
			return nil
		})
	}
	return b.String()
}

// server holds the last site that built.
type server struct {
	dirs    pipeline.Dirs
	out     string
	builder pipeline.Builder // keeps the build cache in memory between builds
	log     io.Writer
	// port is the port listened on; requests must name it with a loopback
	// host (see ownHost).
	port string

	mu    sync.RWMutex
	files siteFiles // nil until a build succeeds
	err   error     // the last build's error, shown until a build succeeds
	// generation counts builds, failed ones included: an open page polls
	// it and reloads when it moves.
	generation uint64
}

// generationPath is where pages poll for a new build.
const generationPath = "/__perflab/generation"

// reloadScript reloads a page once the site was built again: served pages
// only, never the site written to --out.
const reloadScript = `<script>(function(){var g=%d;setInterval(function(){fetch(%q,{cache:"no-store"}).then(function(r){return r.text()}).then(function(t){if(+t!==g)location.reload()}).catch(function(){})},1000)})();</script>`

// siteFiles reads a file of the served site.
type siteFiles interface {
	file(name string) ([]byte, bool)
}

// memSite serves a site held in memory (tests).
type memSite site.Files

func (m memSite) file(name string) ([]byte, bool) {
	data, ok := m[name]
	return data, ok
}

// diskSite serves the site as the last good build wrote it into out.
type diskSite struct{ fsys *safefs.FS }

func (d diskSite) file(name string) ([]byte, bool) {
	if site.CheckPath(name) != nil {
		return nil, false
	}
	data, err := d.fsys.ReadFile(name)
	return data, err == nil
}

// rebuild builds the site into out, through the build cache: after the
// first build only the studies a change touches are rendered again. On
// success the new site is served; on failure out keeps the previous one.
func (s *server) rebuild() {
	start := time.Now()
	res, err := s.builder.Build(s.dirs, s.out)
	if err != nil {
		s.mu.Lock()
		s.err = err
		s.generation++
		kept := s.files != nil
		s.mu.Unlock()
		if kept {
			fmt.Fprintf(s.log, "rebuild failed, still serving the previous site: %v\n", err)
		} else {
			fmt.Fprintf(s.log, "build failed: %v\n", err)
		}
		return
	}
	s.mu.Lock()
	s.files, s.err = diskSite{safefs.New(s.out, filepath.ToSlash(s.out))}, nil
	s.generation++
	s.mu.Unlock()
	fmt.Fprintf(s.log, "built %d files (%d of %d studies rendered) in %v\n", res.Files, res.Rendered, res.Studies, time.Since(start).Round(time.Millisecond))
}

// ownHost reports whether a request's Host header names this server: a
// loopback host with the port listened on. A page of another site whose
// name is made to resolve to 127.0.0.1 (DNS rebinding) sends its own name
// and is refused.
func (s *server) ownHost(hostport string) bool {
	host, port, err := net.SplitHostPort(hostport)
	if err != nil || port != s.port {
		return false
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !s.ownHost(r.Host) {
		http.Error(w, "perflab serve answers only requests to its own loopback address, such as http://127.0.0.1:"+s.port+"/", http.StatusMisdirectedRequest)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	s.mu.RLock()
	files, buildErr, gen := s.files, s.err, s.generation
	s.mu.RUnlock()
	if r.URL.Path == generationPath {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		fmt.Fprint(w, gen)
		return
	}
	reload := fmt.Sprintf(reloadScript, gen, generationPath)
	name := strings.TrimPrefix(path.Clean("/"+r.URL.Path), "/")
	if name == "" || strings.HasSuffix(r.URL.Path, "/") {
		name = path.Join(name, "index.html")
	}
	// A page asked for while the last build failed shows why, rather than
	// the previous site as if it were current.
	if files == nil || buildErr != nil && path.Ext(name) == ".html" {
		msg := "the site has not been built yet"
		if buildErr != nil {
			msg = buildErr.Error()
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.WriteHeader(http.StatusServiceUnavailable)
		fmt.Fprintf(w, "<!DOCTYPE html>\n<title>perflab: build failed</title>\n<h1>The build failed</h1>\n<pre>%s</pre>\n<p>Fix the file; this page reloads when it builds again.</p>\n%s\n", html.EscapeString(msg), reload)
		return
	}
	data, ok := files.file(name)
	if !ok {
		if _, dir := files.file(path.Join(name, "index.html")); dir {
			http.Redirect(w, r, path.Base(name)+"/", http.StatusMovedPermanently)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.WriteHeader(http.StatusNotFound)
		if page, ok := files.file("404.html"); ok {
			w.Write(page)
		}
		return
	}
	if ct := contentType(name); ct != "" {
		w.Header().Set("Content-Type", ct)
	}
	w.Header().Set("Cache-Control", "no-store")
	if path.Ext(name) == ".html" {
		data = withReload(data, reload)
	}
	http.ServeContent(w, r, name, time.Time{}, bytes.NewReader(data))
}

// withReload puts the reload script before a page's </body>, or at its end.
func withReload(page []byte, script string) []byte {
	out := make([]byte, 0, len(page)+len(script)+1)
	if i := bytes.LastIndex(page, []byte("</body>")); i >= 0 {
		out = append(append(append(out, page[:i]...), script...), page[i:]...)
		return out
	}
	return append(append(out, page...), script...)
}

// contentType names the type of the site's files as GitHub Pages does, the
// same on every machine; other extensions fall back to the system's table.
func contentType(name string) string {
	switch path.Ext(name) {
	case ".html":
		return "text/html; charset=utf-8"
	case ".css":
		return "text/css; charset=utf-8"
	case ".md":
		return "text/markdown; charset=utf-8"
	case ".csv":
		return "text/csv; charset=utf-8"
	case ".json":
		return "application/json"
	case ".xml":
		return "application/xml"
	case ".svg":
		return "image/svg+xml"
	case ".txt":
		return "text/plain; charset=utf-8"
	case ".js":
		return "text/javascript; charset=utf-8"
	}
	return mime.TypeByExtension(path.Ext(name))
}

// syncWriter serialises writes from the poller and the HTTP handlers.
type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}
