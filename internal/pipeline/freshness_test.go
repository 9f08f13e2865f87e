package pipeline

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// setEngineVersion rewrites the version of vLLM in a study's study.yaml.
func setEngineVersion(t *testing.T, dir, from, to string) {
	t.Helper()
	name := filepath.Join(dir, "study.yaml")
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(data), "version: "+from, "version: "+to, 1)
	if edited == string(data) {
		t.Fatalf("%s has no version %s", name, from)
	}
	if err := os.WriteFile(name, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestFreshnessIncremental: a newer engine version in one study changes
// the freshness badge of every other study using that engine, so a cached
// build renders them again and writes the bytes of a full build.
func TestFreshnessIncremental(t *testing.T) {
	t.Parallel()
	dir, d, ids := replicatedTree(t, 4, "")
	out, cache := filepath.Join(dir, "site"), filepath.Join(dir, ".perflab-cache")
	if res, err := BuildCached(d, out, cache); err != nil || res.Incremental {
		t.Fatalf("first build: %+v, %v", res, err)
	}
	page := func(id string) string {
		data, err := os.ReadFile(filepath.Join(out, "en", id+".md"))
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	if p := page(ids[0]); !strings.Contains(p, "vLLM v0.11.0 *(the newest version in this site)*") {
		t.Fatalf("first build: no newest badge in %s", ids[0])
	}
	steps := []struct {
		name, from, to string
		badge          string // on the page of ids[0]
	}{
		{"a newer version in one study", "v0.11.0", "v0.12.0", "vLLM v0.11.0 *(1 version behind v0.12.0, used in [" + ids[1] + "](" + ids[1] + ".md))*"},
		{"a version perflab cannot order", "v0.12.0", "nightly", "vLLM v0.11.0 *(the newest version in this site)*"},
	}
	for _, step := range steps {
		setEngineVersion(t, filepath.Join(d.Results, ids[1]), step.from, step.to)
		res, err := BuildCached(d, out, cache)
		if err != nil {
			t.Fatalf("%s: %v", step.name, err)
		}
		if !res.Incremental || res.Rendered != len(ids) {
			t.Errorf("%s: %+v; want an incremental build rendering all %d studies (their badges changed)", step.name, res, len(ids))
		}
		_, files := buildRepo(t, d)
		want := map[string][]byte(files)
		sameTree(t, step.name, readTree(t, out), want)
		if got := page(ids[0]); !strings.Contains(got, step.badge) {
			t.Errorf("%s: no %q on the page of %s", step.name, step.badge, ids[0])
		}
	}
	if got := page(ids[1]); !strings.Contains(got, "vLLM nightly *(age unknown: perflab cannot order this version)*") {
		t.Errorf("the page of %s does not say its version is not compared", ids[1])
	}
	// A change of something else leaves the other studies' badges alone.
	if err := appendTo(filepath.Join(d.Results, ids[2], "runs", "vllm-tp8", "sharegpt.log"), "\nINFO: done\n"); err != nil {
		t.Fatal(err)
	}
	if res, err := BuildCached(d, out, cache); err != nil || res.Rendered != 1 {
		t.Errorf("one log changed: %+v, %v; want one study rendered again", res, err)
	}
}
