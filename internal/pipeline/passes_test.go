package pipeline

import (
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
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

// A load that lets every study go after its check, and a build that loads
// them again, give the diagnostics and the site of a load that holds every
// study: with copies across studies and shared prices.
func TestLoadForBuildBuildsTheSameSite(t *testing.T) {
	d := boundedTree(t, 6)
	held, want := buildRepo(t, d)
	p, err := LoadForBuild(d)
	if err != nil {
		t.Fatal(err)
	}
	for _, res := range p.Results {
		if res.Report != nil || len(res.Study.Runs) != 0 || res.Study.Model != "" {
			t.Errorf("study %s is let go but keeps its runs, report or model", res.Study.ID)
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
	got, err := Site(p, d)
	if err != nil {
		t.Fatal(err)
	}
	sameTree(t, "load for a build", got, want)
}

func diagnosticLines(diags []check.Diagnostic) []string {
	out := make([]string, len(diags))
	for i, d := range diags {
		out[i] = d.String()
	}
	return out
}

// BenchmarkLoadForBuild: the live memory a load leaves, holding every
// study or letting them go (300 studies).
func BenchmarkLoadForBuild(b *testing.B) {
	d := boundedTree(b, 300)
	for _, c := range []struct {
		name string
		load func(Dirs) (*Project, error)
	}{{"hold", Load}, {"for-build", LoadForBuild}} {
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

// A study whose problems change between the check and the render (edited
// while the site is built) fails the build rather than showing pages that
// disagree with what check reported.
func TestStudyChangedBetweenPasses(t *testing.T) {
	d := boundedTree(t, 2)
	p, err := LoadForBuild(d)
	if err != nil {
		t.Fatal(err)
	}
	id := p.Results[0].Study.ID
	log := filepath.Join(d.Results, id, "runs", "sglang-tp8", "sharegpt.log")
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(data), "Successful requests:", "Successful requests:  1\nSuccessful requests:", 1)
	if edited == string(data) {
		t.Fatal("the log has no Successful requests line to edit")
	}
	if err := os.WriteFile(log, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Site(p, d)
	if err == nil || !strings.Contains(err.Error(), "changed while the site was built") {
		t.Fatalf("build after an edit between the passes: %v, want an error saying the study changed", err)
	}
}
