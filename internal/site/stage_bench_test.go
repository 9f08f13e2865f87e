package site

import (
	"fmt"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// BenchmarkRelink is what a cached build of 1,000 studies that renders one
// again pays to stage its site: a site laid out as perflab's (3 languages,
// pages, Markdown and charts; data/ downloads), some 29,000 files, every
// file hard-linked into a new Writer, then Commit (the swap, and the old
// site removed). cpu-ms/op is the process's user and system time.
func BenchmarkRelink(b *testing.B) {
	dir := filepath.Join(b.TempDir(), "site")
	files := benchSite(b, dir)
	names := files.Names()
	var cpu time.Duration
	for b.Loop() {
		before := cpuTime()
		w, err := Create(dir)
		if err != nil {
			b.Fatal(err)
		}
		for _, name := range names {
			if err := w.Link(name, filepath.Join(dir, filepath.FromSlash(name))); err != nil {
				b.Fatal(err)
			}
		}
		if err := w.Commit(); err != nil {
			b.Fatal(err)
		}
		cpu += cpuTime() - before
	}
	b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/op")
	b.ReportMetric(float64(len(names)), "files")
}

// BenchmarkSpareUpdate is the same rebuild staged in the spare, as a
// cached build after another cached build does: the study changed now
// (29 files) written, the one the last build changed linked from the
// site, the other files kept as the spare holds them; then the swap, and
// the old site kept as the next spare.
func BenchmarkSpareUpdate(b *testing.B) {
	dir := filepath.Join(b.TempDir(), "site")
	files := benchSite(b, dir)
	names := files.Names()
	w, err := Create(dir)
	if err != nil {
		b.Fatal(err)
	}
	for _, name := range names {
		if err := w.Link(name, filepath.Join(dir, filepath.FromSlash(name))); err != nil {
			b.Fatal(err)
		}
	}
	w.KeepSpare("build-0")
	if err := w.Commit(); err != nil {
		b.Fatal(err)
	}
	var cpu time.Duration
	b.ResetTimer()
	// A plain loop: go1.26.8's compiler fails (internal compiler error)
	// on this body under b.Loop.
	for build := 1; build <= b.N; build++ {
		before := cpuTime()
		w, err := Create(dir)
		if err != nil {
			b.Fatal(err)
		}
		if ok, err := w.UseSpare(fmt.Sprintf("build-%d", build-1)); !ok || err != nil {
			b.Fatalf("the spare was not used: %v", err)
		}
		page := []byte(fmt.Sprintf("build %d", build))
		now, last := studyName(build), studyName(build-1)
		for _, name := range names {
			switch {
			case strings.Contains(name, now):
				err = w.Add(name, page)
			case strings.Contains(name, last):
				err = w.Link(name, filepath.Join(dir, filepath.FromSlash(name)))
			default:
				err = w.Keep(name)
			}
			if err != nil {
				b.Fatal(err)
			}
		}
		w.KeepSpare(fmt.Sprintf("build-%d", build))
		if err := w.Commit(); err != nil {
			b.Fatal(err)
		}
		cpu += cpuTime() - before
	}
	b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/op")
	b.ReportMetric(float64(len(names)), "files")
}

// studyName is the name benchSite gives study i (of 1,000, in turn).
func studyName(i int) string { return fmt.Sprintf("s%04d", i%1000) }

// benchSite writes a site laid out as perflab's at 1,000 studies into dir.
func benchSite(b *testing.B, dir string) Files {
	files := Files{}
	for i := range 1000 {
		for _, l := range []string{"en", "zh", "ja"} {
			study := fmt.Sprintf("%s/s%04d", l, i)
			files[study+"/index.html"] = make([]byte, 20000)
			files[study+".md"] = make([]byte, 5000)
			for c := range 3 {
				files[fmt.Sprintf("%s/c%d.svg", study, c)] = make([]byte, 5000)
				files[fmt.Sprintf("%s/narrow/c%d.svg", study, c)] = make([]byte, 5000)
			}
		}
		for _, ext := range []string{"csv", "json", "reproduce.sh", "evidence.json", "analysis.json"} {
			files[fmt.Sprintf("data/s%04d.%s", i, ext)] = make([]byte, 3000)
		}
	}
	if err := Write(dir, files); err != nil {
		b.Fatal(err)
	}
	return files
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
