package pipeline

import (
	"github.com/perflab/perflab/internal/assess"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/perflab/perflab/internal/benchtree"
	"github.com/perflab/perflab/internal/downloads"
	"github.com/perflab/perflab/internal/render"
	"github.com/perflab/perflab/internal/report"
	"github.com/perflab/perflab/internal/site"
	"github.com/perflab/perflab/internal/study"
)

// benchStudies is the size of the tree the build benchmarks run on:
// PERFLAB_BENCH_STUDIES, default 100.
func benchStudies() int {
	if n, err := strconv.Atoi(os.Getenv("PERFLAB_BENCH_STUDIES")); err == nil && n > 0 {
		return n
	}
	return 100
}

// benchTree replicates the repository's studies into a temporary tree.
func benchTree(b *testing.B) Dirs {
	b.Helper()
	dir := b.TempDir()
	d := Dirs{Results: filepath.Join(dir, "results"), Content: filepath.Join(dir, "content"), Locales: repoDirs.Locales, Templates: repoDirs.Templates}
	if _, err := benchtree.Make(repoDirs.Results, repoDirs.Content, d.Results, d.Content, benchStudies()); err != nil {
		b.Fatal(err)
	}
	return d
}

// BenchmarkLoad is loading and checking: results/ and content/ read, parsed,
// checked and computed.
func BenchmarkLoad(b *testing.B) {
	d := benchTree(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := loadHeld(d); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLoadStudies is study.LoadAll alone: parse and load.
func BenchmarkLoadStudies(b *testing.B) {
	d := benchTree(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := study.LoadAll(projectFS(d.Results), d.Results); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCheck is check.All alone: every rule and every report.
func BenchmarkCheck(b *testing.B) {
	d := benchTree(b)
	studies, _, err := study.LoadAll(projectFS(d.Results), d.Results)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		assess.All(studies)
	}
}

// BenchmarkCompute builds every study's report (comparisons, rankings,
// tables) from loaded studies.
func BenchmarkCompute(b *testing.B) {
	d := benchTree(b)
	studies, _, err := study.LoadAll(projectFS(d.Results), d.Results)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, s := range studies {
			report.Build(s, nil)
		}
	}
}

// BenchmarkIncremental rebuilds a site with its cache after one log changed.
func BenchmarkIncremental(b *testing.B) {
	cache := filepath.Join(b.TempDir(), "cache")
	benchRebuild(b, func(d Dirs, out string) (*BuildResult, error) { return BuildCached(d, out, cache) })
}

// BenchmarkServeRebuild is perflab serve's rebuild after one changed log:
// a Builder that keeps its cache in memory between builds.
func BenchmarkServeRebuild(b *testing.B) {
	var builder Builder
	benchRebuild(b, builder.Build)
}

// benchRebuild builds a tree, then times build after one log changed.
func benchRebuild(b *testing.B, build func(d Dirs, out string) (*BuildResult, error)) {
	d := benchTree(b)
	out := filepath.Join(b.TempDir(), "site")
	if _, err := build(d, out); err != nil {
		b.Fatal(err)
	}
	entries, err := os.ReadDir(d.Results)
	if err != nil {
		b.Fatal(err)
	}
	// The first half of the studies, in name order, are copies of qwen3-235b-a22b-a100.
	log := filepath.Join(d.Results, entries[len(entries)/4].Name(), "runs", "sglang-tp8", "sharegpt.log")
	// The first rebuild after a full build has no spare to bring up to
	// date and stages a new folder: serve pays that once; time the rest.
	if err := appendTo(log, "\n"); err != nil {
		b.Fatal(err)
	}
	if _, err := build(d, out); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	var cpu time.Duration
	for b.Loop() {
		if err := appendTo(log, "\n"); err != nil {
			b.Fatal(err)
		}
		before := processCPU()
		res, err := build(d, out)
		cpu += processCPU() - before
		if err != nil {
			b.Fatal(err)
		}
		if !res.Incremental || res.Rendered != 1 {
			b.Fatalf("%+v: want one study rendered again", res)
		}
	}
	b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/op")
}

// processCPU is the user and system time of the process so far: on a
// shared machine, the measure that other processes do not inflate.
func processCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkSite builds every study in every language with the downloads,
// in memory: load, check and render.
func BenchmarkSite(b *testing.B) {
	d := benchTree(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := siteFiles(d); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRenderLanguage renders every report in one language.
func BenchmarkRenderLanguage(b *testing.B) {
	d := benchTree(b)
	p, err := loadHeld(d)
	if err != nil {
		b.Fatal(err)
	}
	r, err := render.New(os.DirFS(d.Templates), os.DirFS(d.Locales))
	if err != nil {
		b.Fatal(err)
	}
	for _, l := range render.Languages {
		b.Run(l.Code, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for _, res := range p.Results {
					in := render.Input{Result: res, Content: map[string]*study.Content{l.Code: p.Content[l.Code][res.Study.ID]}}
					if _, err := r.Report(in, l.Code); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}

// BenchmarkDownloads writes the CSV and JSON downloads: each study's, then
// data/all.* joined from them.
func BenchmarkDownloads(b *testing.B) {
	d := benchTree(b)
	p, err := loadHeld(d)
	if err != nil {
		b.Fatal(err)
	}
	root := filepath.ToSlash(d.Results)
	b.ReportAllocs()
	for b.Loop() {
		mem := &lockedFiles{files: site.Files{}}
		ids := make([]string, len(p.Results))
		for i, res := range p.Results {
			ids[i] = res.Study.ID
			if err := downloads.AddRecords(mem, "data/"+ids[i], downloads.Records(res.Study, root, res.Report.Excluded)); err != nil {
				b.Fatal(err)
			}
		}
		if err := downloads.Join(ids, mem.ReadFile, func(name string) (io.WriteCloser, error) { return create(mem, name) }); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWrite writes a built site to disk.
func BenchmarkWrite(b *testing.B) {
	d := benchTree(b)
	files, err := siteFiles(d)
	if err != nil {
		b.Fatal(err)
	}
	out := filepath.Join(b.TempDir(), "site")
	b.ReportAllocs()
	for b.Loop() {
		if err := site.Write(out, files); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTreeChecks is the tree checks alone, with no loader to hand
// them the texts it read: the walk, every name of the tree, the files of
// results/ no loader reads, and the invisible characters of each text a
// person writes, each read by the checks.
func BenchmarkTreeChecks(b *testing.B) {
	d := benchTree(b)
	b.ReportAllocs()
	for b.Loop() {
		t := walkProject(d)
		t.checkStructure()
		t.invisible(nil)
	}
}
