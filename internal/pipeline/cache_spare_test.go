package pipeline

import (
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/perflab/perflab/internal/site"
)

// Cached builds in a row, each after a different change (a log, prose,
// a workload removed and brought back, two changes at once, none), bring
// the spare up to date in turn: after each, the site is the full build's
// bytes, and every build after the first uses the spare.
func TestCachedBuildsInARow(t *testing.T) {
	t.Parallel()
	k := newKillTree(t)
	logs, _ := filepath.Glob(filepath.Join(k.d.Results, "*", "runs", "*", "random-32k.log"))
	prose, _ := filepath.Glob(filepath.Join(k.d.Content, "en", "*.md"))
	if len(logs) == 0 || len(prose) == 0 {
		t.Fatalf("the tree has no random-32k.log (%d) or no English prose (%d)", len(logs), len(prose))
	}
	removed, err := os.ReadFile(logs[0])
	if err != nil {
		t.Fatal(err)
	}
	write := func(name string, data []byte) {
		if err := os.WriteFile(name, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	appendProse := func(text string) {
		data, err := os.ReadFile(prose[0])
		if err != nil {
			t.Fatal(err)
		}
		write(prose[0], append(data, "\n"+text+"\n"...))
	}
	changes := []struct {
		what   string
		change func()
	}{
		{"a log", func() { k.set(t, 1) }},
		{"prose", func() { appendProse("The runs were repeated the next day.") }},
		{"the log back", func() { k.set(t, 0) }},
		{"a workload removed", func() {
			if err := os.Remove(logs[0]); err != nil {
				t.Fatal(err)
			}
		}},
		{"nothing", func() {}},
		{"the workload back and a log", func() { write(logs[0], removed); k.set(t, 1) }},
		{"prose again", func() { appendProse("A second paragraph.") }},
		{"a log once more", func() { k.set(t, 0) }},
	}
	for i, c := range changes {
		c.change()
		var spare atomic.Bool
		restore := site.SetFault(k.out, func(op, name string) error {
			if op == "spare" {
				spare.Store(true)
			}
			return nil
		})
		res, err := BuildCached(k.d, k.out, k.cache)
		restore()
		what := fmt.Sprintf("build %d, after %s", i+1, c.what)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if !res.Incremental {
			t.Fatalf("%s: %+v: not incremental", what, res)
		}
		if spare.Load() != (i > 0) {
			t.Errorf("%s: used the spare: %v", what, spare.Load())
		}
		_, full := buildRepo(t, k.d)
		sameTree(t, what, readTree(t, k.out), full)
	}
}
