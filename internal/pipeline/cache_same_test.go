package pipeline

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/check"
	"github.com/perflab/perflab/internal/site"
)

// TestCachedBuildOfRepository: the repository's results/, built with a
// cache and built again with nothing changed, is byte for byte the full
// build in memory, and the second build reuses every report with the
// diagnostics of the first.
func TestCachedBuildOfRepository(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	d := Dirs{Results: filepath.Join(dir, "results"), Content: filepath.Join(dir, "content"),
		Locales: repoDirs.Locales, Templates: repoDirs.Templates, BaseURL: "https://example.org/perflab/"}
	for _, f := range [][2]string{{repoDirs.Results, d.Results}, {repoDirs.Content, d.Content}} {
		if err := os.CopyFS(f[1], os.DirFS(f[0])); err != nil {
			t.Fatal(err)
		}
	}
	out, cache := filepath.Join(dir, "site"), filepath.Join(dir, ".perflab-cache")
	full, files := buildRepo(t, d)
	for i, want := range []bool{false, true} {
		res, err := BuildCached(d, out, cache)
		if err != nil {
			t.Fatal(err)
		}
		if res.Incremental != want || want && res.Rendered != 0 {
			t.Fatalf("build %d: %+v; want incremental %v, nothing rendered again", i+1, res, want)
		}
		sameTree(t, "the repository", readTree(t, out), files)
		if got, want := res.Project.Diagnostics(), full.Diagnostics(); !reflect.DeepEqual(got, want) {
			t.Errorf("build %d: diagnostics\n%v\nwant those of a full build\n%v", i+1, got, want)
		}
	}
}

// TestCachedBuildStudyAddedRemoved: a study added to the tree, and then
// one removed, is rendered or dropped alone, and the site is byte for byte
// the full build of the same tree.
func TestCachedBuildStudyAddedRemoved(t *testing.T) {
	t.Parallel()
	dir, d, ids := replicatedTree(t, 6, "https://example.org/perflab/")
	out, cache := filepath.Join(dir, "site"), filepath.Join(dir, ".perflab-cache")
	if _, err := BuildCached(d, out, cache); err != nil {
		t.Fatal(err)
	}
	added := ids[len(ids)-1] + "-again"
	steps := []struct {
		name string
		edit func() error
	}{
		{"a study added", func() error {
			return os.CopyFS(filepath.Join(d.Results, added), os.DirFS(filepath.Join(d.Results, ids[len(ids)-1])))
		}},
		{"a study removed", func() error {
			for _, l := range []string{"en", "zh", "ja"} {
				if err := os.Remove(filepath.Join(d.Content, l, ids[1]+".md")); err != nil && !os.IsNotExist(err) {
					return err
				}
			}
			return os.RemoveAll(filepath.Join(d.Results, ids[1]))
		}},
	}
	for _, step := range steps {
		if err := step.edit(); err != nil {
			t.Fatal(err)
		}
		res, err := BuildCached(d, out, cache)
		if err != nil {
			t.Fatalf("%s: %v", step.name, err)
		}
		if !res.Incremental || res.Rendered >= res.Studies || !res.SiteWide {
			t.Errorf("%s: %+v; want an incremental build that renders some studies and the site-wide files", step.name, res)
		}
		t.Logf("%s: rendered %d of %d studies again", step.name, res.Rendered, res.Studies)
		full, files := buildRepo(t, d)
		sameTree(t, step.name, readTree(t, out), files)
		if got, want := res.Project.Diagnostics(), full.Diagnostics(); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: diagnostics differ from a full build's:\n%v\nwant\n%v", step.name, got, want)
		}
	}
}

// TestCachedBuildChecksTextsItReuses: the invisible characters of a
// run.yaml are found by a full build, which reads the file to load the
// study, and by a cached build that reuses the study and so reads it for
// the tree checks alone: the same diagnostic, file and line.
func TestCachedBuildChecksTextsItReuses(t *testing.T) {
	t.Parallel()
	dir, d, ids := replicatedTree(t, 2, "")
	runFiles, _ := filepath.Glob(filepath.Join(d.Results, ids[1], "runs", "*", "run.yaml"))
	if len(runFiles) == 0 {
		t.Fatalf("%s has no run.yaml", ids[1])
	}
	runFile := runFiles[0]
	shown := filepath.ToSlash(runFile) + ":" + strconv.Itoa(lineCount(t, runFile)+1)
	if err := appendTo(runFile, "# tuned\u200b by hand\n"); err != nil {
		t.Fatal(err)
	}
	out, cache := filepath.Join(dir, "site"), filepath.Join(dir, ".perflab-cache")
	var found []string
	for _, incremental := range []bool{false, true} {
		res, err := BuildCached(d, out, cache)
		if err != nil {
			t.Fatal(err)
		}
		if res.Incremental != incremental {
			t.Fatalf("%+v, want incremental %v", res, incremental)
		}
		var invisible []string
		for _, diag := range res.Project.Diagnostics() {
			if diag.Rule == check.RuleInvisible {
				invisible = append(invisible, fmt.Sprintf("%s:%d", diag.File, diag.Line))
			}
		}
		if len(invisible) != 1 || invisible[0] != shown {
			t.Errorf("incremental %v: invisible characters at %v, want %s", incremental, invisible, shown)
		}
		found = append(found, invisible...)
	}
	if len(found) == 2 && found[0] != found[1] {
		t.Errorf("the cached build reports %s, the full build %s", found[1], found[0])
	}
}

func lineCount(t *testing.T, name string) int {
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Count(string(data), "\n")
}

// TestCachedBuildRunsTheTreeChecks: a file no loader reads, put into a
// study folder, fails a cached build as it fails a full one (the cached
// build once loaded the study again and passed), and the site before
// stays as it was.
func TestCachedBuildRunsTheTreeChecks(t *testing.T) {
	t.Parallel()
	dir, d, ids := replicatedTree(t, 2, "")
	out, cache := filepath.Join(dir, "site"), filepath.Join(dir, ".perflab-cache")
	if _, err := BuildCached(d, out, cache); err != nil {
		t.Fatal(err)
	}
	before := readTree(t, out)
	stray := filepath.Join(d.Results, ids[0], "notes.txt")
	if err := os.WriteFile(stray, []byte("results to publish later\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	want := "unexpected file in a study folder"
	if _, err := Build(d, &lockedFiles{files: site.Files{}}); err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("full build: %v, want %q", err, want)
	}
	if _, err := BuildCached(d, out, cache); err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), filepath.ToSlash(stray)) {
		t.Errorf("cached build: %v, want %q naming %s", err, want, stray)
	}
	sameTree(t, "the site after the failed build", readTree(t, out), before)
}
