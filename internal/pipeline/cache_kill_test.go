package pipeline

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/perflab/perflab/internal/benchtree"
	"github.com/perflab/perflab/internal/site"
)

// killTree is a project whose cached build is stopped: one log toggles
// between two contents, A and B, whose full builds differ in a study's
// pages and downloads and in data/all.*, while other studies' files stay.
type killTree struct {
	dir, out, cache string
	d               Dirs
	log             string
	contents        [2][]byte
	full            [2]map[string][]byte // the full build of each content
	now             int                  // the content the log holds
}

func newKillTree(t *testing.T) *killTree {
	t.Helper()
	dir := t.TempDir()
	k := &killTree{dir: dir, out: filepath.Join(dir, "site"), cache: filepath.Join(dir, ".perflab-cache")}
	k.d = Dirs{Results: filepath.Join(dir, "results"), Content: filepath.Join(dir, "content"),
		Locales: repoDirs.Locales, Templates: repoDirs.Templates, BaseURL: "https://example.org/perflab/"}
	ids, err := benchtree.Make(repoDirs.Results, repoDirs.Content, k.d.Results, k.d.Content, 4)
	if err != nil {
		t.Fatal(err)
	}
	k.log = filepath.Join(k.d.Results, ids[3], "runs", "sglang", "sharegpt.log")
	a, err := os.ReadFile(k.log)
	if err != nil {
		t.Fatal(err)
	}
	b := bytes.Replace(a, []byte("672.56"), []byte("672.57"), 1)
	if bytes.Equal(a, b) {
		t.Fatal("the log has no 672.56 to change")
	}
	k.contents = [2][]byte{a, b}
	for i := range k.contents {
		k.set(t, i)
		_, files := buildRepo(t, k.d)
		k.full[i] = files
	}
	if bytes.Equal(k.full[0]["data/all.csv"], k.full[1]["data/all.csv"]) {
		t.Fatal("the two contents give the same data/all.csv: the test would not see it stale")
	}
	k.set(t, 0)
	if _, err := BuildCached(k.d, k.out, k.cache); err != nil {
		t.Fatal(err)
	}
	k.expect(t, "first build", 0)
	return k
}

// set writes content i into the log.
func (k *killTree) set(t *testing.T, i int) {
	t.Helper()
	if err := os.WriteFile(k.log, k.contents[i], 0o644); err != nil {
		t.Fatal(err)
	}
	k.now = i
}

// toggle writes the other content.
func (k *killTree) toggle(t *testing.T) (before, after int) {
	before = k.now
	k.set(t, 1-k.now)
	return before, k.now
}

// site tells which full build the site equals, byte for byte: 0, 1 or -1
// (neither); perflab's stamp must be there.
func (k *killTree) site(t *testing.T) int {
	t.Helper()
	if _, err := os.Stat(filepath.Join(k.out, site.Stamp)); err != nil {
		return -1
	}
	got := readTree(t, k.out)
	for i, want := range k.full {
		if equalTree(got, want) {
			return i
		}
	}
	return -1
}

// expect checks that the site is the full build of content i, and that
// nothing of a stopped build is left beside it: only the spare, the old
// site a cached build keeps.
func (k *killTree) expect(t *testing.T, what string, i int) {
	t.Helper()
	sameTree(t, what, readTree(t, k.out), k.full[i])
	entries, _ := os.ReadDir(k.dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if got := strings.Join(names, ","); got != ".perflab-cache,content,results,site" && got != ".perflab-cache,.site.spare,content,results,site" {
		t.Errorf("%s: beside the site: %s", what, got)
	}
	if stale, _ := filepath.Glob(filepath.Join(k.cache, ".build-*")); len(stale) > 0 {
		t.Errorf("%s: in the cache folder: %v", what, stale)
	}
}

func equalTree(got, want map[string][]byte) bool {
	if len(got) != len(want) {
		return false
	}
	for name, w := range want {
		if g, ok := got[name]; !ok || !bytes.Equal(g, w) {
			return false
		}
	}
	return true
}

// rebuild runs the cached build after a stop: its site must be the full
// build of what the log now holds.
func (k *killTree) rebuild(t *testing.T, what string) {
	t.Helper()
	if _, err := BuildCached(k.d, k.out, k.cache); err != nil {
		t.Fatalf("%s: the next build: %v", what, err)
	}
	k.expect(t, what+", then a cached build", k.now)
}

// The environment of a cached build in a child process (killChild).
const killEnv = "PERFLAB_TEST_KILL_AT"

// A cached build killed at each of its first steps on disk, at steps
// across the rest of it, and at random moments, leaves the old site or the
// new one byte for byte; the next cached build gives the full build's bytes
// and removes what the killed one left. Both ways of staging are killed:
// into a new folder (no spare) and into the spare brought up to date.
func TestCachedBuildKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("runs some 40 builds in child processes")
	}
	t.Parallel()
	k := newKillTree(t)
	// What an older perflab, killed while it replaced a file in place,
	// left in the site, with that perflab's cache: the next cached build
	// is a full one and does not carry it over, nor do later ones.
	if err := os.WriteFile(filepath.Join(k.out, "en", ".perflab-1234567"), []byte("torn"), 0o644); err != nil {
		t.Fatal(err)
	}
	st := readCache(k.cache)
	st.Global = "an older perflab"
	if err := writeCache(k.cache, st); err != nil {
		t.Fatal(err)
	}
	k.toggle(t)
	k.rebuild(t, "after an older perflab")
	n, spare := k.countSteps(t)
	if spare {
		t.Fatal("the first cached build after a full one used a spare")
	}
	m, spare := k.countSteps(t)
	if !spare {
		t.Fatal("the second cached build in a row did not use the spare")
	}
	if m >= n {
		t.Errorf("updating the spare took %d steps, staging a new folder %d", m, n)
	}
	k.kills(t, "staging a new folder", n, func() { os.RemoveAll(k.spare()) })
	k.kills(t, "updating the spare", m, func() {
		if _, err := os.Stat(k.spare()); err != nil {
			k.toggle(t)
			k.rebuild(t, "a build that leaves a spare")
		}
	})
	// Random moments: the build takes some 100 ms to 1 s here.
	rng := rand.New(rand.NewPCG(42, 42))
	for range 4 {
		before, after := k.toggle(t)
		delay := time.Duration(rng.IntN(400)) * time.Millisecond
		what := fmt.Sprintf("killed after %v", delay)
		k.child("", delay)
		if got := k.site(t); got != before && got != after {
			t.Fatalf("%s: the site is neither the old nor the new one", what)
		}
		k.rebuild(t, what)
	}
}

// countSteps runs a cached build after a change, which must be
// incremental, and returns its steps on disk and whether it updated the
// spare.
func (k *killTree) countSteps(t *testing.T) (int, bool) {
	t.Helper()
	var steps atomic.Int64
	var spare atomic.Bool
	restore := site.SetFault(k.out, func(op, name string) error {
		steps.Add(1)
		if op == "spare" {
			spare.Store(true)
		}
		return nil
	})
	k.toggle(t)
	res, err := BuildCached(k.d, k.out, k.cache)
	restore()
	if err != nil {
		t.Fatal(err)
	}
	if !res.Incremental || !res.SiteWide || res.Rendered == res.Studies {
		t.Fatalf("%+v: want an incremental build that renders some studies again and keeps others, and remakes data/all.*", res)
	}
	k.expect(t, "a cached build", k.now)
	return int(steps.Load()), spare.Load()
}

// kills kills a cached build at each of its first 12 steps, in the
// middle, at the swap and at the removal or keeping of the old site (n
// steps in all); prepare runs before each.
func (k *killTree) kills(t *testing.T, how string, n int, prepare func()) {
	t.Helper()
	at := []int{}
	for i := 1; i <= 12; i++ {
		at = append(at, i)
	}
	at = append(at, n/2, n-2, n-1, n)
	for _, step := range at {
		prepare()
		before, after := k.toggle(t)
		what := fmt.Sprintf("%s, killed at step %d of %d", how, step, n)
		if err := k.child(strconv.Itoa(step), 0); err == nil {
			t.Fatalf("%s: the build ran to its end", what)
		}
		if got := k.site(t); got != before && got != after {
			t.Fatalf("%s: the site is neither the old nor the new one", what)
		}
		k.rebuild(t, what)
	}
}

// spare is where a cached build keeps the old site.
func (k *killTree) spare() string { return filepath.Join(k.dir, ".site.spare") }

// child runs a cached build of k in a child process (this test binary,
// TestCachedBuildChild), killed at a step, or after delay.
func (k *killTree) child(step string, delay time.Duration) error {
	cmd := exec.Command(os.Args[0], "-test.run=^TestCachedBuildChild$")
	cmd.Env = append(os.Environ(), killEnv+"="+step, "PERFLAB_TEST_KILL_DIR="+k.dir)
	if delay == 0 {
		return cmd.Run()
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	time.Sleep(delay)
	cmd.Process.Kill()
	return cmd.Wait()
}

// TestCachedBuildChild is the killed build of TestCachedBuildKilled: it
// kills its own process at the step it is given.
func TestCachedBuildChild(t *testing.T) {
	dir := os.Getenv("PERFLAB_TEST_KILL_DIR")
	if dir == "" {
		t.Skip("run by TestCachedBuildKilled")
	}
	if at, err := strconv.ParseInt(os.Getenv(killEnv), 10, 64); err == nil {
		var steps atomic.Int64
		site.SetFault(filepath.Join(dir, "site"), func(op, name string) error {
			if steps.Add(1) == at {
				syscall.Kill(os.Getpid(), syscall.SIGKILL)
				select {} // the signal is on its way
			}
			return nil
		})
	}
	d := Dirs{Results: filepath.Join(dir, "results"), Content: filepath.Join(dir, "content"),
		Locales: repoDirs.Locales, Templates: repoDirs.Templates, BaseURL: "https://example.org/perflab/"}
	if _, err := BuildCached(d, filepath.Join(dir, "site"), filepath.Join(dir, ".perflab-cache")); err != nil {
		t.Fatal(err)
	}
}

// Out of disk at any step before the swap, a cached build fails, leaves the
// old site byte for byte and nothing beside it; the next build gives the
// full build's bytes.
func TestCachedBuildOutOfDisk(t *testing.T) {
	t.Parallel()
	k := newKillTree(t)
	for _, c := range []struct{ op, name string }{
		{"write", "en/index.html"}, // a site-wide file made again
		{"write", "data/all.csv"},
		{"link", ""}, // a file kept
		{"stamp", ""},
		{"swap", ""},
	} {
		before, _ := k.toggle(t)
		what := fmt.Sprintf("out of disk at %s %s", c.op, c.name)
		var hit atomic.Bool
		restore := site.SetFault(k.out, func(op, name string) error {
			if op == c.op && (c.name == "" || name == c.name) {
				hit.Store(true)
				return &os.PathError{Op: op, Path: name, Err: syscall.ENOSPC}
			}
			return nil
		})
		_, err := BuildCached(k.d, k.out, k.cache)
		restore()
		if !hit.Load() {
			t.Fatalf("%s: the build never took that step", what)
		}
		if !errors.Is(err, syscall.ENOSPC) {
			t.Fatalf("%s: the build returned %v", what, err)
		}
		k.now = before // what the site must still be
		k.expect(t, what, before)
		k.set(t, 1-before)
		k.rebuild(t, what)
	}
}

// A cached build, like a full one, takes the site's lock before it reads its
// cache: while another build holds it, a cached build or a Builder (perflab
// serve) fails without touching the site or the cache.
func TestCachedBuildTakesTheLock(t *testing.T) {
	t.Parallel()
	k := newKillTree(t)
	cache, err := os.ReadFile(filepath.Join(k.cache, cacheFile))
	if err != nil {
		t.Fatal(err)
	}
	other, err := site.Create(k.out)
	if err != nil {
		t.Fatal(err)
	}
	k.toggle(t)
	var b Builder
	for name, build := range map[string]func() error{
		"a cached build": func() error { _, err := BuildCached(k.d, k.out, k.cache); return err },
		"a Builder":      func() error { _, err := b.Build(k.d, k.out); return err },
	} {
		if err := build(); err == nil || !strings.Contains(err.Error(), "another perflab build") {
			t.Errorf("%s beside another build: %v", name, err)
		}
	}
	other.Abort()
	sameTree(t, "the site", readTree(t, k.out), k.full[1-k.now])
	if now, _ := os.ReadFile(filepath.Join(k.cache, cacheFile)); !bytes.Equal(now, cache) {
		t.Error("the cache changed")
	}
	k.rebuild(t, "after the other build")
}
