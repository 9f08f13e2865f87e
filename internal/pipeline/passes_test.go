package pipeline

import (
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"sync"
	"testing"

	"github.com/perflab/perflab/internal/benchtree"
	"github.com/perflab/perflab/internal/check"
)

// boundedTree is a project of n replicated studies, whose copies share
// blocks (copied-block problems across studies) and are priced by the
// shared prices.
func boundedTree(t testing.TB, n int) Dirs {
	t.Helper()
	dir := t.TempDir()
	d := Dirs{Results: filepath.Join(dir, "results"), Content: filepath.Join(dir, "content"),
		Locales: repoDirs.Locales, Templates: repoDirs.Templates}
	if _, err := benchtree.Make(repoDirs.Results, repoDirs.Content, d.Results, d.Content, n); err != nil {
		t.Fatal(err)
	}
	prices := "prices:\n  - gpu: NVIDIA A100 SXM 80GB\n    gpu_hour: 1.80\n    currency: USD\n"
	if err := os.WriteFile(filepath.Join(d.Results, "prices.yaml"), []byte(prices), 0o644); err != nil {
		t.Fatal(err)
	}
	return d
}

// Check lets every study go after its check, handing each report in full
// to its caller first, and gives the diagnostics and the staleness of
// engine versions of a load that holds every study: with copies across
// studies and shared prices.
func TestCheckLetsStudiesGo(t *testing.T) {
	t.Parallel()
	d := boundedTree(t, 6)
	held, err := loadHeld(d)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	seen := map[string]bool{}
	p, err := Check(d, func(res check.Result) error {
		mu.Lock()
		defer mu.Unlock()
		seen[res.Study.ID] = res.Report != nil && len(res.Study.Runs) > 0
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, res := range p.Results {
		if res.Report != nil || len(res.Study.Runs) != 0 || res.Study.Model != "" {
			t.Errorf("study %s is let go but keeps its runs, report or model", res.Study.ID)
		}
		if !seen[res.Study.ID] {
			t.Errorf("study %s was not handed over in full", res.Study.ID)
		}
	}
	for lang, byStudy := range p.Content {
		if len(byStudy) != 0 {
			t.Errorf("%s: the prose of %d studies is kept", lang, len(byStudy))
		}
	}
	if !reflect.DeepEqual(diagnosticLines(p.Diagnostics()), diagnosticLines(held.Diagnostics())) {
		t.Errorf("the diagnostics differ from those of a load that holds every study")
	}
	if !reflect.DeepEqual(p.Freshness, held.Freshness) {
		t.Errorf("the staleness of engine versions differs")
	}
}

func diagnosticLines(diags []check.Diagnostic) []string {
	out := make([]string, len(diags))
	for i, d := range diags {
		out[i] = d.String()
	}
	return out
}

// BenchmarkLoadLive: the live memory a load leaves, holding every study
// or letting them go as Check does (300 studies).
func BenchmarkLoadLive(b *testing.B) {
	d := boundedTree(b, 300)
	for _, c := range []struct {
		name string
		load func(Dirs) (*Project, error)
	}{{"hold", loadHeld}, {"check", func(d Dirs) (*Project, error) { return Check(d, nil) }}} {
		b.Run(c.name, func(b *testing.B) {
			var live uint64
			for b.Loop() {
				var before, after runtime.MemStats
				runtime.GC()
				runtime.ReadMemStats(&before)
				p, err := c.load(d)
				if err != nil {
					b.Fatal(err)
				}
				runtime.GC()
				runtime.ReadMemStats(&after)
				live = after.HeapAlloc - before.HeapAlloc
				runtime.KeepAlive(p)
			}
			b.ReportMetric(float64(live)/1e6, "live-MB")
		})
	}
}
