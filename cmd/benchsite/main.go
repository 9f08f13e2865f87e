// Command benchsite measures perflab against Hugo on a large site: it
// replicates the repository's studies into a tree of N studies, builds it
// with perflab, renders the Markdown perflab produced with Hugo (a minimal
// layout, code highlighting off), and prints both wall times, both peak
// memories and their ratios, measured in the same run, the two builds
// taking turns. It also times an incremental rebuild after one log
// changes, and perflab's time and memory at several sizes (the curve).
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
	"github.com/perflab/perflab/internal/study"
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
	fs.IntVar(&c.reps, "reps", 5, "runs of each measurement; the fastest is shown (this machine's speed drifts by up to 30 % over minutes)")
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

// memoryAvailable says how much memory the machine has free for the
// builds; short is true below four fifths of it. Hugo takes about 3 GB at
// 1,000 studies and slows when memory is short, and perflab does not, so
// a short machine flatters the ratio (docs/performance.md). Old trees in
// /dev/shm hold memory until removed.
func memoryAvailable() (msg string, short bool) {
	data, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return "memory available: unknown", false
	}
	var avail, total int64
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		switch f[0] {
		case "MemAvailable:":
			avail, _ = strconv.ParseInt(f[1], 10, 64)
		case "MemTotal:":
			total, _ = strconv.ParseInt(f[1], 10, 64)
		}
	}
	if avail == 0 || total == 0 {
		return "memory available: unknown", false
	}
	msg = fmt.Sprintf("memory available: %.1f of %.1f GiB", float64(avail)/(1<<20), float64(total)/(1<<20)) // kB in meminfo
	short = avail*5 < total*4
	if short {
		msg += " (under four fifths: Hugo slows when memory is short; free some, e.g. old trees in /dev/shm)"
	}
	return msg, short
}

// measurement is one child process: wall time and peak resident memory.
type measurement struct {
	wall time.Duration
	rss  int64 // bytes
}

func (m measurement) String() string {
	return fmt.Sprintf("%7.2f s  %7.0f MB", m.wall.Seconds(), float64(m.rss)/1e6)
}

// command is one program a measurement runs: in dir, each time without
// the folder fresh (its output; "" for none), as a build on a clean clone
// in CI does. A previous output is moved aside, not deleted, since on a
// disk a burst of deleted files slows the creation of new ones; it goes
// with the working folder.
type command struct {
	dir, fresh, name string
	args             []string
}

// measure runs a command reps times and returns the fastest run, with the
// highest peak memory seen.
func measure(ctx context.Context, reps int, c command) (measurement, error) {
	ms, err := measureEach(ctx, reps, c)
	if err != nil {
		return measurement{}, err
	}
	return ms[0], nil
}

// measureEach runs the commands one after the other, reps rounds, and
// returns the fastest run of each, with the highest peak memory seen.
// Taking turns, the commands compared meet the machine in the same
// states: its speed drifts by up to 30 % over minutes, and five runs of
// one and then five of the other compared two different machines.
func measureEach(ctx context.Context, reps int, cmds ...command) ([]measurement, error) {
	best := make([]measurement, len(cmds))
	for i := range max(reps, 1) {
		for k, c := range cmds {
			m, err := runOnce(ctx, c)
			if err != nil {
				return nil, err
			}
			if i == 0 || m.wall < best[k].wall {
				best[k].wall = m.wall
			}
			best[k].rss = max(best[k].rss, m.rss)
		}
	}
	return best, nil
}

// runOnce runs a command once and measures it.
func runOnce(ctx context.Context, c command) (measurement, error) {
	if c.fresh != "" {
		if err := moveAside(c.fresh); err != nil {
			return measurement{}, err
		}
	}
	cmd := exec.CommandContext(ctx, c.name, c.args...)
	cmd.Dir = c.dir
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	syscall.Sync() // no run pays for the previous one's writes
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if err != nil {
		return measurement{}, fmt.Errorf("%s %s: %w\n%s", filepath.Base(c.name), strings.Join(c.args, " "), err, out.String())
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		return measurement{}, errors.New("no resource usage of the child process on this system")
	}
	return measurement{wall: wall, rss: ru.Maxrss * 1024}, nil // Linux: kilobytes
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

// build is perflab's build of a tree into a new site folder.
func (c config) build(t tree, extra ...string) command {
	site := filepath.Join(t.dir, "site")
	args := append([]string{"build", "--results", t.results, "--content", t.content,
		"--locales", filepath.Join(c.repo, "locales"), "--templates", filepath.Join(c.repo, "templates"),
		"--out", site}, extra...)
	return command{dir: t.dir, fresh: site, name: c.perflab, args: args}
}

func bench(ctx context.Context, c config, stdout io.Writer) error {
	if c.curveOnly {
		return curve(ctx, c, stdout, measurement{})
	}
	memory, short := memoryAvailable()
	fmt.Fprintf(stdout, "perflab vs Hugo, %d studies x 3 languages, fastest of %d runs each, taking turns, each into a new folder\nworking folder %s (%s)\n%s\n\n",
		c.n, max(c.reps, 1), c.work, fileSystem(c.work), memory)
	t, err := makeTree(c, c.n)
	if err != nil {
		return err
	}
	// A first build writes the Markdown that Hugo renders.
	if _, err := runOnce(ctx, c.build(t)); err != nil {
		return err
	}
	pages, err := hugoProject(t)
	if err != nil {
		return err
	}
	hugoDir := filepath.Join(t.dir, "hugo")
	hugo := command{dir: hugoDir, fresh: filepath.Join(hugoDir, "public"), name: c.hugo, args: []string{"--quiet", "--source", hugoDir,
		"--destination", filepath.Join(hugoDir, "public"), "--cacheDir", filepath.Join(hugoDir, "cache"), "--ignoreCache"}}
	both, err := measureEach(ctx, c.reps, c.build(t), hugo)
	if err != nil {
		return err
	}
	pf, hg := both[0], both[1]
	out, _ := exec.CommandContext(ctx, c.hugo, "version").Output()
	fmt.Fprintf(stdout, "%-44s %9s  %10s\n", "", "wall", "peak RSS")
	fmt.Fprintf(stdout, "%-44s %s\n", fmt.Sprintf("perflab build (from raw logs, %d studies)", c.n), pf)
	fmt.Fprintf(stdout, "%-44s %s\n", fmt.Sprintf("hugo (%d Markdown pages)", pages), hg)
	fmt.Fprintf(stdout, "%-44s %9.2f  %10.2f   (targets: at most 0.50 and 0.15)\n", "ratio perflab / hugo",
		pf.wall.Seconds()/hg.wall.Seconds(), float64(pf.rss)/float64(hg.rss))
	if short {
		fmt.Fprintf(stdout, "warning: with memory short, Hugo runs slower and the time ratio reads lower than it is: free memory and run again\n")
	}
	fmt.Fprintf(stdout, "hugo: %s\n", strings.TrimSpace(string(out)))

	// Incremental: one changed log, with the cache of the previous build.
	cache := filepath.Join(t.dir, ".perflab-cache")
	if _, err := runOnce(ctx, c.build(t, "--cache", cache)); err != nil {
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
	incremental := c.build(t, "--cache", cache)
	incremental.fresh = "" // over the cached build's site
	inc, err := runOnce(ctx, incremental)
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
				if m, err = measure(ctx, c.reps, c.build(ct)); err != nil {
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
	for _, lang := range study.Languages {
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
