// Command benchsite measures perflab against Hugo on a large site: it
// replicates the repository's studies into a tree of N studies, builds it
// with perflab, renders the Markdown perflab produced with Hugo (a minimal
// layout, code highlighting off), and prints both wall times, both peak
// memories and their ratios, measured in the same run. It also times an
// incremental rebuild after one log changes, and perflab's time and memory
// at several sizes (the curve).
//
// The trees are made in memory (/dev/shm) when the machine has it: on a
// disk, the time to create tens of thousands of files depends on what the
// file system did in the minutes before (an ext4 without a journal skips
// recently deleted inodes one by one), and the same build varied from 6 to
// 18 s. -disk measures on the disk instead. Every run starts after a sync,
// and writes into a folder that does not exist yet, as on a clean clone.
//
// make bench-site runs it; Hugo is installed by go install into bin/ first.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/perflab/perflab/internal/benchtree"
)

func main() {
	if err := run(context.Background(), os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "benchsite:", err)
		os.Exit(1)
	}
}

type config struct {
	perflab, hugo, repo, work string
	n, reps                   int
	curve                     []int
	keep, disk, curveOnly     bool
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("benchsite", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var c config
	var curve string
	fs.StringVar(&c.perflab, "perflab", "bin/perflab", "perflab binary")
	fs.StringVar(&c.hugo, "hugo", "bin/hugo", "hugo binary")
	fs.StringVar(&c.repo, "repo", ".", "repository whose results/, content/, locales/ and templates/ are replicated")
	fs.StringVar(&c.work, "work", "", "working folder (default: a temporary folder, removed at the end)")
	fs.IntVar(&c.n, "n", 1000, "studies in the tree compared with Hugo")
	fs.IntVar(&c.reps, "reps", 5, "runs of each measurement; the fastest is shown (this machine's speed varies by 10 % from minute to minute)")
	fs.StringVar(&curve, "curve", "100,300,1000", "study counts of perflab's time and memory curve (empty: none)")
	fs.BoolVar(&c.keep, "keep", false, "keep the working folder")
	fs.BoolVar(&c.curveOnly, "curve-only", false, "measure perflab's curve alone: no Hugo, no incremental build (for memory at 10,000 studies)")
	fs.BoolVar(&c.disk, "disk", false, "work on the disk (the system's temporary folder) even where /dev/shm exists")
	if err := fs.Parse(args); err != nil {
		return err
	}
	for _, f := range strings.Split(curve, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		n, err := strconv.Atoi(f)
		if err != nil || n <= 0 {
			return fmt.Errorf("-curve: %q is not a number of studies", f)
		}
		c.curve = append(c.curve, n)
	}
	for _, p := range []*string{&c.perflab, &c.hugo, &c.repo} {
		abs, err := filepath.Abs(*p)
		if err != nil {
			return err
		}
		*p = abs
	}
	if c.work == "" {
		dir, err := os.MkdirTemp(workRoot(c.disk), "benchsite-")
		if err != nil {
			return err
		}
		c.work = dir
		if !c.keep {
			defer os.RemoveAll(dir)
		}
	}
	return bench(ctx, c, stdout)
}

// workRoot is where the temporary working folder goes: memory when the
// machine has a writable /dev/shm, unless the disk is asked for.
func workRoot(disk bool) string {
	if !disk {
		if f, err := os.CreateTemp("/dev/shm", "benchsite-probe-"); err == nil {
			f.Close()
			os.Remove(f.Name())
			return "/dev/shm"
		}
	}
	return os.TempDir()
}

// fileSystem names the file system that holds dir, for the report.
func fileSystem(dir string) string {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return "unknown file system"
	}
	switch st.Type {
	case 0x01021994:
		return "tmpfs, in memory"
	case 0xef53:
		return "ext2/3/4, on disk"
	case 0x9123683e:
		return "btrfs, on disk"
	case 0x58465342:
		return "xfs, on disk"
	case 0x794c7630:
		return "overlayfs"
	}
	return fmt.Sprintf("file system type %#x", st.Type)
}

// measurement is one child process: wall time and peak resident memory.
type measurement struct {
	wall time.Duration
	rss  int64 // bytes
}

func (m measurement) String() string {
	return fmt.Sprintf("%7.2f s  %7.0f MB", m.wall.Seconds(), float64(m.rss)/1e6)
}

// measure runs a command reps times and returns the fastest run, with the
// highest peak memory seen. Each run starts without the folder fresh (its
// output; "" for none), as a build on a clean clone in CI does: a previous
// output is moved aside, not deleted, since on a disk a burst of deleted
// files slows the creation of new ones; it goes with the working folder.
func measure(ctx context.Context, reps int, dir, fresh string, name string, args ...string) (measurement, error) {
	var best measurement
	for i := range max(reps, 1) {
		if fresh != "" {
			if err := moveAside(fresh); err != nil {
				return best, err
			}
		}
		cmd := exec.CommandContext(ctx, name, args...)
		cmd.Dir = dir
		var out strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &out
		syscall.Sync() // no run pays for the previous one's writes
		start := time.Now()
		err := cmd.Run()
		wall := time.Since(start)
		if err != nil {
			return best, fmt.Errorf("%s %s: %w\n%s", filepath.Base(name), strings.Join(args, " "), err, out.String())
		}
		ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
		if !ok {
			return best, errors.New("no resource usage of the child process on this system")
		}
		m := measurement{wall: wall, rss: ru.Maxrss * 1024} // Linux: kilobytes
		if i == 0 || m.wall < best.wall {
			best.wall = m.wall
		}
		best.rss = max(best.rss, m.rss)
	}
	return best, nil
}

// moveAside renames a folder, if there is one, to a new name beside it.
func moveAside(dir string) error {
	for n := 1; ; n++ {
		aside := dir + ".old-" + strconv.Itoa(n)
		if _, err := os.Lstat(aside); err == nil {
			continue
		}
		err := os.Rename(dir, aside)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return err
	}
}

// tree is a replicated project.
type tree struct {
	dir, results, content string
	ids                   []string
}

func makeTree(c config, n int) (tree, error) {
	t := tree{dir: filepath.Join(c.work, fmt.Sprintf("tree-%d", n))}
	t.results, t.content = filepath.Join(t.dir, "results"), filepath.Join(t.dir, "content")
	if err := os.RemoveAll(t.dir); err != nil {
		return t, err
	}
	ids, err := benchtree.Make(filepath.Join(c.repo, "results"), filepath.Join(c.repo, "content"), t.results, t.content, n)
	t.ids = ids
	return t, err
}

func (c config) build(ctx context.Context, t tree, extra ...string) (measurement, error) {
	site := filepath.Join(t.dir, "site")
	args := append([]string{"build", "--results", t.results, "--content", t.content,
		"--locales", filepath.Join(c.repo, "locales"), "--templates", filepath.Join(c.repo, "templates"),
		"--out", site}, extra...)
	return measure(ctx, c.reps, t.dir, site, c.perflab, args...)
}

func bench(ctx context.Context, c config, stdout io.Writer) error {
	if c.curveOnly {
		return curve(ctx, c, stdout, measurement{})
	}
	fmt.Fprintf(stdout, "perflab vs Hugo, %d studies x 3 languages, fastest of %d runs each, each into a new folder\nworking folder %s (%s)\n\n",
		c.n, max(c.reps, 1), c.work, fileSystem(c.work))
	t, err := makeTree(c, c.n)
	if err != nil {
		return err
	}
	pf, err := c.build(ctx, t)
	if err != nil {
		return err
	}
	pages, err := hugoProject(t)
	if err != nil {
		return err
	}
	hugoDir := filepath.Join(t.dir, "hugo")
	hg, err := measure(ctx, c.reps, hugoDir, filepath.Join(hugoDir, "public"), c.hugo, "--quiet", "--source", hugoDir,
		"--destination", filepath.Join(hugoDir, "public"), "--cacheDir", filepath.Join(hugoDir, "cache"), "--ignoreCache")
	if err != nil {
		return err
	}
	out, _ := exec.CommandContext(ctx, c.hugo, "version").Output()
	fmt.Fprintf(stdout, "%-44s %9s  %10s\n", "", "wall", "peak RSS")
	fmt.Fprintf(stdout, "%-44s %s\n", fmt.Sprintf("perflab build (from raw logs, %d studies)", c.n), pf)
	fmt.Fprintf(stdout, "%-44s %s\n", fmt.Sprintf("hugo (%d Markdown pages)", pages), hg)
	fmt.Fprintf(stdout, "%-44s %9.2f  %10.2f   (target: at most 0.50 each)\n", "ratio perflab / hugo",
		pf.wall.Seconds()/hg.wall.Seconds(), float64(pf.rss)/float64(hg.rss))
	fmt.Fprintf(stdout, "hugo: %s\n", strings.TrimSpace(string(out)))

	// Incremental: one changed log, with the cache of the previous build.
	cache := filepath.Join(t.dir, ".perflab-cache")
	if _, err := c.build(ctx, t, "--cache", cache); err != nil {
		return err
	}
	log, err := firstLog(t.results)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(log, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	fmt.Fprintln(f, "edited by benchsite")
	if err := f.Close(); err != nil {
		return err
	}
	inc, err := measure(ctx, 1, t.dir, "", c.perflab, "build", "--results", t.results, "--content", t.content,
		"--locales", filepath.Join(c.repo, "locales"), "--templates", filepath.Join(c.repo, "templates"),
		"--out", filepath.Join(t.dir, "site"), "--cache", cache)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "\n%-44s %s   (%.3f of the full build; target: under 0.10)\n", "perflab build --cache, one log changed", inc, inc.wall.Seconds()/pf.wall.Seconds())

	return curve(ctx, c, stdout, pf)
}

// curve measures perflab's build at each of c.curve's numbers of studies;
// pf is the build of c.n studies, already measured (zero: none).
func curve(ctx context.Context, c config, stdout io.Writer, pf measurement) error {
	if len(c.curve) > 0 {
		fmt.Fprintf(stdout, "\nperflab build, by number of studies:\n%8s %9s %10s %14s %14s\n", "studies", "wall", "peak RSS", "ms / study", "MB / study")
		for _, n := range c.curve {
			m := pf
			if n != c.n || pf.wall == 0 {
				ct, err := makeTree(c, n)
				if err != nil {
					return err
				}
				if m, err = c.build(ctx, ct); err != nil {
					return err
				}
				if !c.keep {
					os.RemoveAll(ct.dir)
				}
			}
			fmt.Fprintf(stdout, "%8d %s %14.2f %14.3f\n", n, m, float64(m.wall.Milliseconds())/float64(n), float64(m.rss)/1e6/float64(n))
		}
	}
	return nil
}

// firstLog returns the first log of the tree, in name order.
func firstLog(results string) (string, error) {
	var logs []string
	err := filepath.WalkDir(results, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".log") {
			logs = append(logs, p)
		}
		return err
	})
	if err != nil || len(logs) == 0 {
		return "", fmt.Errorf("no log under %s: %v", results, err)
	}
	slices.Sort(logs)
	return logs[0], nil
}

// hugoProject makes a Hugo site of the Markdown perflab wrote,
// site/<lang>/<study>.md, with a layout that outputs the content and
// nothing else, and code highlighting off. It returns the number of pages.
func hugoProject(t tree) (int, error) {
	dir := filepath.Join(t.dir, "hugo")
	if err := os.RemoveAll(dir); err != nil {
		return 0, err
	}
	files := map[string]string{
		"hugo.toml": `baseURL = "http://localhost/"
title = "perflab"
disableKinds = ["taxonomy", "term", "RSS", "sitemap", "robotsTXT", "404"]
[markup.highlight]
codeFences = false
`,
		"layouts/single.html": "{{ .Content }}\n",
		"layouts/list.html":   "{{ .Content }}\n",
	}
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return 0, err
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			return 0, err
		}
	}
	pages := 0
	src := filepath.Join(t.dir, "site")
	for _, lang := range []string{"en", "zh", "ja"} {
		mds, err := filepath.Glob(filepath.Join(src, lang, "*.md"))
		if err != nil {
			return 0, err
		}
		for _, md := range mds {
			data, err := os.ReadFile(md)
			if err != nil {
				return 0, err
			}
			p := filepath.Join(dir, "content", lang, filepath.Base(md))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return 0, err
			}
			if err := os.WriteFile(p, data, 0o644); err != nil {
				return 0, err
			}
			pages++
		}
	}
	if pages == 0 {
		return 0, fmt.Errorf("perflab wrote no Markdown under %s", src)
	}
	return pages, nil
}
