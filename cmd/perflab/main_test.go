package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// copyRepo copies the repository's results/, content/, locales/ and
// templates/ into a temporary folder, makes it the working directory, and
// returns the flags that point perflab at the copy.
func copyRepo(t *testing.T) []string {
	t.Helper()
	dst := t.TempDir()
	for _, dir := range []string{"results", "content", "locales", "templates"} {
		src := filepath.Join("..", "..", dir)
		err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, err := filepath.Rel(src, p)
			if err != nil {
				return err
			}
			target := filepath.Join(dst, dir, rel)
			if d.IsDir() {
				return os.MkdirAll(target, 0o755)
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			return os.WriteFile(target, data, 0o644)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dst)
	return []string{"--results", "results", "--content", "content", "--locales", "locales", "--templates", "templates"}
}

// perflab runs the command line and returns its output.
func perflab(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var out, errOut bytes.Buffer
	err = run(context.Background(), args, &out, &errOut)
	return out.String(), errOut.String(), err
}

// addedWithGuesses fails unless add or record ended as they do when the
// only errors left are the values they guessed, which a contributor must
// confirm.
func addedWithGuesses(t *testing.T, stdout string, err error) {
	t.Helper()
	guesses := 0
	for _, line := range strings.Split(stdout, "\n") {
		if _, rest, ok := strings.Cut(line, ": error: "); ok {
			if !strings.HasPrefix(rest, "unreviewed-guess: ") {
				t.Errorf("an error other than a guess: %s", line)
			}
			guesses++
		}
	}
	if exitCode(err) != 1 || guesses == 0 {
		t.Errorf("exit %d with %d guesses, want exit 1 and the guesses:\n%s", exitCode(err), guesses, stdout)
	}
}

// confirmGuesses does what a contributor does once each guessed value is
// checked: deletes the "# guessed ..." comments below dir.
func confirmGuesses(t *testing.T, dir string) {
	t.Helper()
	guessed := regexp.MustCompile(`(?m) # guessed .*$`)
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !strings.HasSuffix(p, ".yaml") {
			return err
		}
		data, err := os.ReadFile(p)
		if err == nil {
			err = os.WriteFile(p, guessed.ReplaceAll(data, nil), 0o644)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

func exitCode(err error) int {
	var exit exitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &exit):
		return int(exit)
	case errors.Is(err, errUsage):
		return 2
	}
	return 1
}

func TestParse(t *testing.T) {
	copyRepo(t)
	file := "results/qwen3-235b-a22b-a100/runs/vllm-tp8/sharegpt.log"
	stdout, stderr, err := perflab(t, "parse", file)
	if err != nil || stderr != "" {
		t.Fatalf("parse: %v, stderr %q", err, stderr)
	}
	var blocks []struct {
		File    string             `json:"file"`
		Line    int                `json:"line"`
		Format  string             `json:"format"`
		Metrics map[string]float64 `json:"metrics"`
		Labels  []struct {
			Label string `json:"label"`
			Value string `json:"value"`
		} `json:"labels"`
	}
	if err := json.Unmarshal([]byte(stdout), &blocks); err != nil {
		t.Fatalf("parse output is not JSON: %v\n%s", err, stdout)
	}
	if len(blocks) != 1 {
		t.Fatalf("%d blocks, want 1", len(blocks))
	}
	b := blocks[0]
	if b.File != file || b.Line != 1 || b.Format != "vllm" {
		t.Errorf("file, line, format = %q, %d, %q", b.File, b.Line, b.Format)
	}
	if b.Metrics["total_token_throughput"] != 3792.5 || b.Metrics["completed"] != 1000 || b.Metrics["duration"] != 109 {
		t.Errorf("metrics = %v", b.Metrics)
	}
	// The labels, in the order the log prints them.
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, line := range strings.Split(string(raw), "\n") {
		if label, value, ok := strings.Cut(line, ":"); ok {
			want = append(want, label+"="+strings.TrimSpace(value))
		}
	}
	var got []string
	for _, l := range b.Labels {
		got = append(got, l.Label+"="+l.Value)
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("labels =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(got) != 18 || got[0] != "Successful requests=1000" || got[8] != "Total Token throughput (tok/s)=3792.50" {
		t.Errorf("labels = %v", got)
	}
}

func TestParseNoBlock(t *testing.T) {
	copyRepo(t)
	if err := os.WriteFile("empty.log", []byte("INFO server started\nINFO done\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, err := perflab(t, "parse", "empty.log")
	if code := exitCode(err); code != 1 {
		t.Errorf("exit status %d (%v), want 1", code, err)
	}
	if !strings.HasPrefix(stderr, "empty.log:1: no known benchmark output in empty.log: ") || !strings.Contains(stderr, `"Serving Benchmark Result" banner`) {
		t.Errorf("stderr = %q, want the file and what was looked for", stderr)
	}
	if strings.TrimSpace(stdout) != "[]" {
		t.Errorf("stdout = %q, want []", stdout)
	}
}

func TestParseMissingFile(t *testing.T) {
	copyRepo(t)
	_, _, err := perflab(t, "parse", "no-such.log")
	if err == nil || exitCode(err) != 1 || !strings.Contains(err.Error(), "no-such.log") {
		t.Errorf("parse of a missing file = %v", err)
	}
}

func TestUsageErrors(t *testing.T) {
	copyRepo(t)
	for _, args := range [][]string{
		{},
		{"parse"},
		{"frobnicate"},
		{"check", "--format", "xml"},
		{"check", "--no-such-flag"},
		{"build", "extra", "--out", "elsewhere"},
		{"check", "results"},
	} {
		stdout, stderr, err := perflab(t, args...)
		if !errors.Is(err, errUsage) || exitCode(err) != 2 {
			t.Errorf("perflab %q = %v, want a usage error (exit 2)", args, err)
		}
		if stderr == "" {
			t.Errorf("perflab %q printed no usage on stderr", args)
		}
		if stdout != "" {
			t.Errorf("perflab %q printed %q on stdout", args, stdout)
		}
	}
	_, stderr, _ := perflab(t, "frobnicate")
	if !strings.Contains(stderr, `unknown command "frobnicate"`) || !strings.Contains(stderr, "usage: perflab <command>") {
		t.Errorf("stderr = %q", stderr)
	}
	_, stderr, _ = perflab(t, "check", "--format", "xml")
	if !strings.Contains(stderr, `unknown format "xml": use text, json or github`) {
		t.Errorf("stderr = %q", stderr)
	}
	stdout, _, err := perflab(t, "help")
	if err != nil || !strings.HasPrefix(stdout, "usage: perflab") {
		t.Errorf("help = %v, %q", err, stdout)
	}
	_, _, err = perflab(t, "check", "-h")
	if code := exitCode(err); code != 0 {
		t.Errorf("check -h: exit status %d", code)
	}
}

func TestCheckRepository(t *testing.T) {
	flags := copyRepo(t)
	stdout, stderr, err := perflab(t, append([]string{"check"}, flags...)...)
	if err != nil {
		t.Fatalf("check: %v\n%s%s", err, stdout, stderr)
	}
	// Warnings and their acknowledgements come and go with the rules; the
	// three acknowledged errors of the seed data stay.
	// The count line also says how many published figures were
	// recomputed and how many could not be: "0 errors" is never bare.
	summary := regexp.MustCompile(`\n0 errors, \d+ warnings, (\d+) acknowledged; [1-9]\d* published figures recomputed, \d+ could not be checked\n$`).FindStringSubmatch(stdout)
	if summary == nil {
		t.Fatalf("check output ends with %q, want 0 errors and the published figures counted", lastLine(stdout))
	}

	stdout, _, err = perflab(t, append([]string{"check", "--format", "json"}, flags...)...)
	if err != nil {
		t.Fatal(err)
	}
	var diags []map[string]any
	if err := json.Unmarshal([]byte(stdout), &diags); err != nil {
		t.Fatalf("check --format json is not a JSON array: %v\n%s", err, stdout)
	}
	var acked, ackedErrors, ackedMessages []string
	for _, d := range diags {
		for _, key := range []string{"rule", "severity", "file", "message"} {
			if s, ok := d[key].(string); !ok || s == "" {
				t.Errorf("diagnostic %v: %s is %v", d, key, d[key])
			}
		}
		line, ok := d["line"].(float64)
		if !ok || line < 1 {
			t.Errorf("diagnostic %v: line is %v", d, d["line"])
		}
		if f := d["file"].(string); !strings.HasPrefix(f, "results/") {
			t.Errorf("diagnostic file %q is not under --results", f)
		}
		switch {
		case d["acknowledged"] == true:
			acked = append(acked, fmt.Sprintf("%s:%d %s", d["file"], int(line), d["rule"]))
			ackedMessages = append(ackedMessages, fmt.Sprintf("%s:%d %s %s", d["file"], int(line), d["rule"], d["message"]))
			if d["severity"] == "error" {
				ackedErrors = append(ackedErrors, acked[len(acked)-1])
			}
			if r, _ := d["reason"].(string); r == "" {
				t.Errorf("acknowledged diagnostic %v has no reason", d)
			}
		case d["severity"] == "error":
			t.Errorf("unacknowledged error %v", d)
		}
	}
	if fmt.Sprint(len(acked)) != summary[1] {
		t.Errorf("json has %d acknowledged diagnostics, text says %s", len(acked), summary[1])
	}
	slices.Sort(ackedErrors)
	wantAcked := []string{
		"results/qwen3-32b-a100/runs/trtllm-mnt16384/run.yaml:3 model-mismatch",
		"results/qwen3-32b-a100/runs/trtllm-mnt32768/run.yaml:3 model-mismatch",
		"results/qwen3-32b-a100/study.yaml:85 claim-mismatch",
	}
	if !slices.Equal(ackedErrors, wantAcked) {
		t.Errorf("acknowledged errors = %q\nwant %q", ackedErrors, wantAcked)
	}

	stdout, _, err = perflab(t, append([]string{"check", "--format", "github"}, flags...)...)
	if err != nil {
		t.Errorf("check --format github = %v", err)
	}
	for _, got := range annotations(t, stdout) {
		if got.kind == "error" {
			t.Errorf("annotation of an error: %v", got)
		}
		if slices.Contains(ackedMessages, got.at+" "+got.rule+" "+got.msg) {
			t.Errorf("annotation of an acknowledged problem: %v", got)
		}
	}
}

type annotation struct{ kind, at, rule, msg string }

// annotations parses GitHub workflow commands, one a line.
func annotations(t *testing.T, out string) []annotation {
	t.Helper()
	re := regexp.MustCompile(`^::(error|warning) file=([^,]+),line=(\d+),title=([a-z-]+)::(.+)$`)
	var list []annotation
	for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if l == "" {
			continue
		}
		m := re.FindStringSubmatch(l)
		if m == nil {
			t.Errorf("not an annotation: %q", l)
			continue
		}
		msg := strings.NewReplacer("%0A", "\n", "%0D", "\r", "%25", "%").Replace(m[5])
		list = append(list, annotation{m[1], m[2] + ":" + m[3], m[4], msg})
	}
	return list
}

func TestCheckWithoutAcknowledgements(t *testing.T) {
	flags := copyRepo(t)
	file := "results/qwen3-32b-a100/study.yaml"
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(data, []byte("\nacknowledged:"))
	if i < 0 {
		t.Fatal("study.yaml has no acknowledged: section")
	}
	if err := os.WriteFile(file, data[:i+1], 0o644); err != nil {
		t.Fatal(err)
	}

	stdout, _, err := perflab(t, append([]string{"check"}, flags...)...)
	if err != exitError(1) {
		t.Errorf("check = %v, want exitError(1)", err)
	}
	if !regexp.MustCompile(`\n3 errors, \d+ warnings, \d+ acknowledged(; .*)?\n$`).MatchString(stdout) {
		t.Errorf("check output ends with %q", lastLine(stdout))
	}

	stdout, _, err = perflab(t, append([]string{"check", "--format", "github"}, flags...)...)
	if err != exitError(1) {
		t.Errorf("check --format github = %v, want exitError(1)", err)
	}
	var errs []string
	for i, a := range annotations(t, stdout) {
		if a.kind == "error" {
			if i != len(errs) {
				t.Errorf("error annotation %v after a warning: errors come first", a)
			}
			errs = append(errs, a.at+" "+a.rule)
		}
	}
	want := []string{
		"results/qwen3-32b-a100/runs/trtllm-mnt16384/run.yaml:3 model-mismatch",
		"results/qwen3-32b-a100/runs/trtllm-mnt32768/run.yaml:3 model-mismatch",
		"results/qwen3-32b-a100/study.yaml:85 claim-mismatch",
	}
	slices.Sort(errs)
	if !slices.Equal(errs, want) {
		t.Errorf("error annotations = %q\nwant %q\n%s", errs, want, stdout)
	}
	if !strings.Contains(stdout, "published -13.8%25, but the logs give") {
		t.Errorf("the claim-mismatch annotation does not escape %% as %%25:\n%s", stdout)
	}
}

func TestBuild(t *testing.T) {
	flags := copyRepo(t)
	args := append([]string{"build", "--out", "out"}, flags...)
	stdout, stderr, err := perflab(t, args...)
	if err != nil {
		t.Fatalf("build: %v\n%s", err, stderr)
	}
	if stderr != "" {
		t.Errorf("build printed on stderr: %q", stderr)
	}
	cwd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	wantOpen := "open file://" + filepath.ToSlash(filepath.Join(cwd, "out", "index.html")) + "\n"
	if !strings.HasSuffix(stdout, wantOpen) {
		t.Errorf("build output = %q, want it to end with %q", stdout, wantOpen)
	}
	if want := fmt.Sprintf("built %d reports in 3 languages (", repoStudies(t)); !strings.HasPrefix(stdout, want) {
		t.Errorf("build output = %q", stdout)
	}
	want := []string{"index.html", "style.css"}
	for _, lang := range []string{"en", "zh", "ja"} {
		for _, s := range []string{"qwen3-235b-a22b-a100", "qwen3-32b-a100"} {
			want = append(want, lang+"/"+s+"/index.html", lang+"/"+s+".md")
		}
	}
	for _, name := range want {
		info, err := os.Stat(filepath.Join("out", filepath.FromSlash(name)))
		if err != nil {
			t.Errorf("%s: %v", name, err)
		} else if info.Size() == 0 {
			t.Errorf("%s is empty", name)
		}
	}
	md, err := os.ReadFile("out/en/qwen3-235b-a22b-a100.md")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(md, []byte("3792.50")) {
		t.Error("the English report does not show the vllm-tp8 ShareGPT throughput 3792.50")
	}
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			t.Errorf("build left %s behind", e.Name())
		}
	}
}

// TestBuildFailureKeepsSite: a build that fails returns an error and leaves
// the site built before it as it was.
func TestBuildFailureKeepsSite(t *testing.T) {
	flags := copyRepo(t)
	args := append([]string{"build", "--out", "out"}, flags...)
	if _, stderr, err := perflab(t, args...); err != nil {
		t.Fatalf("first build: %v\n%s", err, stderr)
	}
	before := snapshot(t, "out")
	if len(before) < 14 {
		t.Fatalf("first build wrote %d files", len(before))
	}
	if err := os.WriteFile("templates/report.md.tmpl", []byte("{{ if }}broken{{ end "), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, _, err := perflab(t, args...)
	if err == nil {
		t.Fatal("build with a broken template succeeded")
	}
	if exitCode(err) != 1 || errors.Is(err, errUsage) {
		t.Errorf("build error %v is not a plain failure", err)
	}
	if !strings.Contains(err.Error(), "report.md.tmpl") {
		t.Errorf("build error %q does not name the broken template", err)
	}
	if strings.Contains(stdout, "open file://") {
		t.Errorf("failed build printed %q", stdout)
	}
	after := snapshot(t, "out")
	if len(after) != len(before) {
		t.Errorf("out/ has %d files after a failed build, had %d", len(after), len(before))
	}
	for name, data := range before {
		if after[name] != data {
			t.Errorf("out/%s changed after a failed build", name)
		}
	}
}

func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		out[filepath.ToSlash(p)] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func lastLine(s string) string {
	s = strings.TrimSuffix(s, "\n")
	return s[strings.LastIndex(s, "\n")+1:]
}

// --out and --cache never name an input folder, a folder inside one or one
// that holds them; the inputs are untouched.
func TestBuildRefusesInputsAsOutput(t *testing.T) {
	flags := copyRepo(t)
	before, err := os.ReadFile(filepath.Join("results", "qwen3-32b-a100", "study.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"--out", "results"}, {"--out", "content"}, {"--out", "."}, {"--out", "results/qwen3-32b-a100"},
		{"--out", "templates/x"}, {"--out", "site", "--cache", "locales"},
	} {
		_, stderr, err := perflab(t, append(append([]string{"build"}, args...), flags...)...)
		if err == nil {
			t.Errorf("build %v succeeded", args)
		} else if msg := err.Error() + stderr; !strings.Contains(msg, "pass a folder of its own") {
			t.Errorf("build %v: %s", args, msg)
		}
	}
	after, err := os.ReadFile(filepath.Join("results", "qwen3-32b-a100", "study.yaml"))
	if err != nil || string(after) != string(before) {
		t.Fatalf("the inputs changed: %v", err)
	}
}

// An overview page gives a notice on standard output, exit 0 and no folder.
func TestImportOverviewPage(t *testing.T) {
	dir := t.TempDir()
	page := filepath.Join(dir, "index.md")
	if err := os.WriteFile(page, []byte("# Reports\n\n- [Qwen3-32B on A100](qwen3-32b__a100.md)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "results")
	stdout, stderr, err := perflab(t, "import", "--out", out, page)
	if err != nil || !strings.Contains(stdout, "not a study, nothing to import") || stderr != "" {
		t.Fatalf("err %v, stdout %q, stderr %q", err, stdout, stderr)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("import made %s: %v", out, err)
	}
}

// Every command's -h says what it does, its arguments, its flags and an
// example, and exits 0.
func TestCommandHelp(t *testing.T) {
	for name := range helps {
		var out, errOut bytes.Buffer
		err := run(context.Background(), []string{name, "-h"}, &out, &errOut)
		if code, ok := err.(exitError); err != nil && (!ok || code != 0) {
			t.Errorf("%s -h: %v", name, err)
		}
		help := errOut.String()
		for _, want := range []string{"usage: perflab " + name, "flags:", "examples:\n  perflab " + name, helps[name].about[:20]} {
			if !strings.Contains(help, want) {
				t.Errorf("%s -h does not say %q:\n%s", name, want, help)
			}
		}
	}
	if !strings.Contains(usage, "add ") || !strings.Contains(usage, "record ") || len(helps) != 8 {
		t.Errorf("%d commands have help; the usage lists them all", len(helps))
	}
}

// --study checks only the studies given: their problems and no other's.
func TestCheckOneStudy(t *testing.T) {
	flags := copyRepo(t)
	// The same typography problem in the prose of the study checked and of
	// another: only the first is reported.
	content := flags[slices.Index(flags, "--content")+1]
	for _, id := range []string{"qwen3-32b-a100", "qwen3-235b-a22b-a100"} {
		f, err := os.OpenFile(filepath.Join(content, "zh", id+".md"), os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintln(f, "\n吞吐量提升,延迟不变。")
		f.Close()
	}
	stdout, stderr, err := perflab(t, append([]string{"check", "--format", "json", "--study", "qwen3-32b-a100"}, flags...)...)
	if exitCode(err) != 1 { // the typography error
		t.Fatalf("check --study: %v, want exit status 1\n%s%s", err, stdout, stderr)
	}
	var diags []map[string]any
	if err := json.Unmarshal([]byte(stdout), &diags); err != nil {
		t.Fatal(err)
	}
	if len(diags) == 0 {
		t.Fatal("no diagnostic: the study's acknowledged errors are missing")
	}
	typography := 0
	for _, d := range diags {
		file, _ := d["file"].(string)
		if strings.Contains(file, "qwen3-235b") {
			t.Errorf("a problem of another study: %v", d)
		}
		if d["rule"] == "typography" && strings.HasSuffix(file, "zh/qwen3-32b-a100.md") {
			typography++
		}
	}
	if typography != 1 {
		t.Errorf("%d typography problems in the checked study's prose, want 1", typography)
	}
	for _, bad := range []string{"../results", "no-such-study"} {
		stdout, stderr, err := perflab(t, append([]string{"check", "--study", bad}, flags...)...)
		if err == nil || !strings.Contains(stdout+stderr+err.Error(), bad) {
			t.Errorf("--study %s: %v, output does not name it: %s%s", bad, err, stdout, stderr)
		}
	}
}
