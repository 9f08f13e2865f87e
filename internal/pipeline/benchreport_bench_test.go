package pipeline

import (
	"path/filepath"
	"testing"

	"github.com/perflab/perflab/internal/downloads"
	"github.com/perflab/perflab/internal/site"
)

// BenchmarkBenchReports writes every study's Benchmark Reports, the part
// of the downloads they add to a build.
func BenchmarkBenchReports(b *testing.B) {
	d := benchTree(b)
	p, err := loadHeld(d)
	if err != nil {
		b.Fatal(err)
	}
	root := filepath.ToSlash(d.Results)
	b.ReportAllocs()
	for b.Loop() {
		mem := &lockedFiles{files: site.Files{}}
		for _, res := range p.Results {
			if err := downloads.AddBenchReports(mem, res, root); err != nil {
				b.Fatal(err)
			}
		}
	}
}
