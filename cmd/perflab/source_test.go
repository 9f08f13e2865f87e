package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestImportCitesSource: an imported study names the report it came from
// (its title, and the address given with --source-url) in study.yaml, and
// the report's setup cites it, linked; an address that is not http(s) is
// refused.
func TestImportCitesSource(t *testing.T) {
	report, err := filepath.Abs("../../internal/importer/testdata/handwritten_throughput.md")
	if err != nil {
		t.Fatal(err)
	}
	flags := copyRepo(t)
	if _, stderr, err := perflab(t, "import", "--out", "imported", "--source-url", "javascript:alert(1)", report); exitCode(err) != 2 || !strings.Contains(stderr, "is not a web address") {
		t.Errorf("a javascript: source address: %v\n%s", err, stderr)
	}
	if out, stderr, err := perflab(t, "import", "--out", "imported", "--source-url", "https://example.com/blog/example-8b", report); err != nil {
		t.Fatalf("import: %v\n%s%s", err, out, stderr)
	}
	var yml []byte
	matches, _ := filepath.Glob("imported/*/study.yaml")
	if len(matches) == 1 {
		yml, _ = os.ReadFile(matches[0])
	}
	if !strings.Contains(string(yml), "source:\n  title: Optimizing Example-8B Throughput on NVIDIA H100 GPUs\n  url: https://example.com/blog/example-8b\n") {
		t.Fatalf("the imported study.yaml does not cite its source:\n%s", yml)
	}

	// The report's setup cites it: this repository's study, given a source.
	file := "results/qwen3-32b-a100/study.yaml"
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	cited := string(data) + "source:\n  title: \"Qwen3-32B on A100 <b>[notes]</b>\"\n  url: https://example.com/qwen3-32b(a100)\n"
	if err := os.WriteFile(file, []byte(cited), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, stderr, err := perflab(t, append([]string{"build", "--out", "site"}, flags...)...); err != nil {
		t.Fatalf("build: %v\n%s%s", err, out, stderr)
	}
	md, _ := os.ReadFile("site/en/qwen3-32b-a100.md")
	if !strings.Contains(string(md), "- **Imported from:** [Qwen3-32B on A100 \\<b\\>\\[notes\\]\\</b\\>](<https://example.com/qwen3-32b(a100)>)\n") {
		t.Errorf("the setup does not cite the source:\n%s", md)
	}
	page, _ := os.ReadFile("site/zh/qwen3-32b-a100/index.html")
	if !strings.Contains(string(page), `<a href="https://example.com/qwen3-32b(a100)">Qwen3-32B on A100 &lt;b&gt;[notes]&lt;/b&gt;</a>`) {
		t.Errorf("the zh page does not link the source")
	}
	// An address that is not a web page is a schema error of the study.
	if err := os.WriteFile(file, []byte(string(data)+"source:\n  title: T\n  url: javascript:alert(1)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, _ := perflab(t, append([]string{"check"}, flags...)...)
	if !strings.Contains(out, `source: url "javascript:alert(1)" is not a web address`) {
		t.Errorf("check accepts a javascript: source address:\n%s", out)
	}
}

// --study names the imported study; it goes with one report only, and an
// id the loader would refuse is refused before anything is written.
func TestImportStudyFlag(t *testing.T) {
	report, err := filepath.Abs("../../internal/importer/testdata/handwritten_throughput.md")
	if err != nil {
		t.Fatal(err)
	}
	copyRepo(t)
	if out, stderr, err := perflab(t, "import", "--out", "imported", "--study", "example-8b-h100", report); err != nil {
		t.Fatalf("import: %v\n%s%s", err, out, stderr)
	}
	if _, err := os.Stat("imported/example-8b-h100/study.yaml"); err != nil {
		t.Errorf("--study did not name the folder: %v", err)
	}
	if _, _, err := perflab(t, "import", "--out", "imported", "--study", "x", report, report); exitCode(err) != 2 {
		t.Errorf("--study with two reports: exit %d, want 2", exitCode(err))
	}
	if _, _, err := perflab(t, "import", "--out", "bad", "--study", "index.html", report); err == nil {
		t.Error("--study index.html was accepted")
	}
	if entries, _ := os.ReadDir("bad"); len(entries) != 0 {
		t.Errorf("a refused id left %d entries", len(entries))
	}
}

// check --results of a folder a report was imported into checks that
// study alone: the checkout's prose, beside results/, is about other studies.
func TestCheckImportedElsewhere(t *testing.T) {
	report, err := filepath.Abs("../../internal/importer/testdata/handwritten_throughput.md")
	if err != nil {
		t.Fatal(err)
	}
	copyRepo(t)
	if out, stderr, err := perflab(t, "import", "--out", "imported", report); err != nil {
		t.Fatalf("import: %v\n%s%s", err, out, stderr)
	}
	out, _, _ := perflab(t, "check", "--results", "imported")
	if strings.Contains(out, "content/") || strings.Contains(out, "qwen3-32b-a100") {
		t.Errorf("check --results imported reads the checkout's prose:\n%s", out)
	}
	// The repository's own pair still goes together.
	out, _, _ = perflab(t, "check", "--results", "./results")
	if !strings.Contains(out, "0 errors") {
		t.Errorf("check --results ./results:\n%s", out)
	}
}
