//go:build unix

package study_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/perflab/perflab/internal/safefs"
	"github.com/perflab/perflab/internal/study"
)

const outsideSecret = "SECRET-OUTSIDE-THE-PROJECT"

// writeTree writes files (relative to dir) to disk.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// loadOnDisk loads results/ within a deadline: a named pipe must never be
// opened.
func loadOnDisk(t *testing.T, results string) ([]*study.Study, []string) {
	t.Helper()
	type out struct {
		studies []*study.Study
		probs   []study.Problem
		err     error
	}
	done := make(chan out, 1)
	go func() {
		s, p, err := study.LoadAll(safefs.New(results, "results"), "results")
		done <- out{s, p, err}
	}()
	select {
	case o := <-done:
		if o.err != nil {
			t.Fatal(o.err)
		}
		var got []string
		for _, p := range o.probs {
			got = append(got, p.Error())
		}
		return o.studies, got
	case <-time.After(10 * time.Second):
		t.Fatal("LoadAll blocked: a named pipe was opened")
	}
	return nil, nil
}

// TestLoadRefusesLinksAndPipes: under results/, a symbolic link (to a file
// or folder, outside or inside) and a named pipe are each a problem on
// their own path; none is followed or opened.
func TestLoadRefusesLinksAndPipes(t *testing.T) {
	top := t.TempDir()
	results := filepath.Join(top, "results")
	outside := filepath.Join(top, "outside")
	writeTree(t, outside, map[string]string{"secret.log": vllmBlock(outsideSecret), "study.yaml": studyYAML})
	files := map[string]string{}
	for name, data := range validFiles() {
		files["s/"+name] = data
	}
	delete(files, "s/runs/vllm/sharegpt.log")
	delete(files, "s/runs/vllm-fp8/run.yaml")
	writeTree(t, results, files)
	for _, l := range []struct{ target, name string }{
		{filepath.Join(outside, "secret.log"), "s/runs/vllm/sharegpt.log"}, // a log, outside
		{"../vllm/run.yaml", "s/runs/vllm-fp8/run.yaml"},                   // a run.yaml, inside
		{outside, "evil"},        // a study folder, outside
		{"vllm", "s/runs/alias"}, // a run folder, inside
	} {
		if err := os.Symlink(l.target, filepath.Join(results, filepath.FromSlash(l.name))); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(results, "s", "runs", "vllm", "random-1k.log"+".fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(results, "s", "runs", "vllm", "random-1k.log"))
	if err := os.Rename(filepath.Join(results, "s", "runs", "vllm", "random-1k.log.fifo"), filepath.Join(results, "s", "runs", "vllm", "random-1k.log")); err != nil {
		t.Fatal(err)
	}

	studies, got := loadOnDisk(t, results)
	link := "is a symbolic link, which perflab never follows: replace it with the file or folder itself"
	want := []string{
		"results/evil:0: " + link,
		"results/s/runs/alias:0: " + link,
		"results/s/runs/vllm-fp8/run.yaml:0: " + link,
		"results/s/runs/vllm/random-1k.log:0: is a named pipe, not a regular file: remove it",
		"results/s/runs/vllm/sharegpt.log:0: " + link,
	}
	var found []string
	for _, g := range got {
		if strings.Contains(g, outsideSecret) {
			t.Errorf("a problem shows the file outside: %s", g)
		}
		if slices.Contains(want, g) {
			found = append(found, g)
		}
	}
	slices.Sort(found)
	if !slices.Equal(found, want) {
		t.Errorf("problems:\n%s\nwant among them:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, g := range got {
		if strings.Contains(g, "run folder has no run.yaml") {
			t.Errorf("a refused run.yaml is reported missing as well: %s", g)
		}
	}
	if len(studies) != 1 {
		t.Fatalf("studies = %d, want 1 (the linked folder is not a study)", len(studies))
	}
	for _, r := range studies[0].Runs {
		for _, lg := range r.Logs {
			if strings.Contains(string(lg.Raw), outsideSecret) {
				t.Errorf("run %s read the file outside through %s", r.ID, lg.File)
			}
		}
		if r.ID == "alias" || r.ID == "vllm-fp8" {
			t.Errorf("run %s was loaded through a link", r.ID)
		}
	}
}

// TestLoadRefusesLinkedStudyFile: a study.yaml that is a link is a problem,
// and the study is not loaded.
func TestLoadRefusesLinkedStudyFile(t *testing.T) {
	top := t.TempDir()
	results := filepath.Join(top, "results")
	files := map[string]string{}
	for name, data := range validFiles() {
		files["s/"+name] = data
	}
	delete(files, "s/study.yaml")
	writeTree(t, results, files)
	writeTree(t, top, map[string]string{"study.yaml": studyYAML})
	if err := os.Symlink(filepath.Join(top, "study.yaml"), filepath.Join(results, "s", "study.yaml")); err != nil {
		t.Fatal(err)
	}
	studies, got := loadOnDisk(t, results)
	want := []string{"results/s/study.yaml:0: is a symbolic link, which perflab never follows: replace it with the file or folder itself"}
	if len(studies) != 0 || !slices.Equal(got, want) {
		t.Errorf("studies = %d, problems = %q\nwant none and %q", len(studies), got, want)
	}
}

// TestLoadContentRefusesLinks: a content file that is a link, or a
// language folder that is one, is a problem on its path.
func TestLoadContentRefusesLinks(t *testing.T) {
	top := t.TempDir()
	content := filepath.Join(top, "content")
	writeTree(t, content, map[string]string{"en/s.md": contentMD, "ja/s.md": contentMD})
	writeTree(t, top, map[string]string{"outside/s.md": outsideSecret})
	if err := os.Symlink(filepath.Join(top, "outside", "s.md"), filepath.Join(content, "en", "t.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(top, "outside"), filepath.Join(content, "zh")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(content, "ja", "u.md"), 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	var (
		got   map[string]map[string]*study.Content
		probs []study.Problem
		err   error
	)
	go func() {
		defer close(done)
		got, probs, err = study.LoadContent(safefs.New(content, "content"), "content")
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("LoadContent blocked: a named pipe was opened")
	}
	if err != nil {
		t.Fatal(err)
	}
	var msgs []string
	for _, p := range probs {
		msgs = append(msgs, p.Error())
	}
	slices.Sort(msgs)
	link := "is a symbolic link, which perflab never follows: replace it with the file or folder itself"
	want := []string{
		"content/en/t.md:0: " + link,
		"content/ja/u.md:0: is a named pipe, not a regular file: remove it",
		"content/zh:0: " + link,
	}
	if !slices.Equal(msgs, want) {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(msgs, "\n"), strings.Join(want, "\n"))
	}
	if got["en"]["t"] != nil || got["zh"]["s"] != nil || got["en"]["s"] == nil {
		t.Errorf("content loaded = %v", got)
	}
}

// TestLoadContentLinkedFolder: content/ itself linked elsewhere is one
// problem, on content.
func TestLoadContentLinkedFolder(t *testing.T) {
	top := t.TempDir()
	writeTree(t, top, map[string]string{"outside/en/s.md": contentMD})
	content := filepath.Join(top, "content")
	if err := os.Symlink(filepath.Join(top, "outside"), content); err != nil {
		t.Fatal(err)
	}
	got, probs, err := study.LoadContent(safefs.New(content, "content"), "content")
	if err != nil {
		t.Fatal(err)
	}
	var msgs []string
	for _, p := range probs {
		msgs = append(msgs, p.Error())
	}
	want := []string{"content:0: is a symbolic link, which perflab never follows: replace it with the file or folder itself"}
	if !slices.Equal(msgs, want) || got["en"]["s"] != nil {
		t.Errorf("problems = %q, content = %v\nwant %q and none", msgs, got, want)
	}
}
