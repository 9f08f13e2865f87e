package site

import (
	"fmt"
	"path/filepath"
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

func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
