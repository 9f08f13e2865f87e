package importer

import (
	"errors"
	"flag"
	"fmt"
	"github.com/perflab/perflab/internal/assess"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/check"
	"github.com/perflab/perflab/internal/study"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/")

// importAll imports reports into a temporary results folder and checks it.
func importAll(t *testing.T, files ...string) ([]*Study, []check.Diagnostic) {
	t.Helper()
	dir := t.TempDir()
	var out []*Study
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		s, err := Import(f, src)
		if err != nil {
			t.Fatalf("import %s: %v", f, err)
		}
		if err := Write(dir, s); err != nil {
			t.Fatalf("write %s: %v", f, err)
		}
		out = append(out, s)
	}
	studies, probs, err := study.LoadAll(os.DirFS(dir), "results")
	if err != nil {
		t.Fatal(err)
	}
	diags := check.Problems(probs)
	for _, r := range assess.All(studies) {
		diags = append(diags, r.Diagnostics...)
	}
	return out, diags
}

var publishedAt = regexp.MustCompile(`published at ([^ )]+:\d+)`)

// errorsAt returns the report lines (file:line) the errors name, and the
// errors that name none.
func errorsAt(diags []check.Diagnostic, sev check.Severity) (lines []string, other []string) {
	seen := map[string]bool{}
	for _, d := range diags {
		if d.Severity != sev {
			continue
		}
		m := publishedAt.FindStringSubmatch(d.Message)
		if m == nil {
			other = append(other, d.String())
			continue
		}
		if !seen[m[1]] {
			seen[m[1]] = true
			lines = append(lines, m[1])
		}
	}
	sort.Strings(lines)
	return lines, other
}

// TestCorpus imports the six published reports and checks that perflab
// check finds exactly the problems of EXPECTED.md, at the report's lines.
func TestCorpus(t *testing.T) {
	files, _ := filepath.Glob("testdata/corpus/*.md")
	if len(files) != 6 {
		t.Fatalf("want the 6 corpus reports, found %d", len(files))
	}
	studies, diags := importAll(t, files...)
	got, other := errorsAt(diags, check.Error)
	want := []string{"gpt-oss-120b__h100.md:21", "gpt-oss-120b__h100.md:243", "qwen3-32b__a100.md:23", "qwen3-32b__a100.md:277"}
	if strings.Join(got, " ") != strings.Join(want, " ") || len(other) > 0 {
		t.Errorf("errors at %v, want %v; errors without a report line: %v", got, want, other)
	}
	// The suspicious success rate is a warning at its line.
	warn, _ := errorsAt(diags, check.Warning)
	if !contains(warn, "qwen3.5-9b__h100.md:867") {
		t.Errorf("no warning at qwen3.5-9b__h100.md:867 (success rate); warnings at %v", warn)
	}
	golden(t, "testdata/corpus.golden", summarize(studies))
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// summarize lists what an import produced: runs with their workloads,
// steps, configurations and claims with their report lines.
func summarize(studies []*Study) string {
	var b strings.Builder
	for _, s := range studies {
		fmt.Fprintf(&b, "== %s: %s on %d x %s (%s)\n", s.ID, s.Model, s.GPUsPerNode*s.Nodes, s.GPU, s.Objective)
		for _, w := range s.Workloads {
			fmt.Fprintf(&b, "workload %s %s in=%d out=%d main=%v\n", w.ID, w.Dataset, w.InputLen, w.OutputLen, w.Main)
		}
		for _, r := range s.Runs {
			var ws []string
			for _, lg := range r.Logs {
				ws = append(ws, fmt.Sprintf("%s@%d", lg.Workload, lg.Line))
			}
			state := strings.Join(ws, " ")
			if r.Error != "" {
				state = "error: " + strings.SplitN(r.Error, "\n", 2)[0]
			}
			fmt.Fprintf(&b, "run %s (%s, %s, %d GPUs, line %d, derived=%v): %s\n", r.ID, r.Name, r.Engine, r.GPUs, r.Line, r.Derived, state)
		}
		for _, st := range s.Steps {
			fmt.Fprintf(&b, "step %s %v ref %s\n", st.ID, st.Runs, st.Reference)
		}
		fmt.Fprintf(&b, "baseline %v recommended %v\n", s.Baseline, s.Recommended)
		for _, c := range s.Claims {
			fmt.Fprintf(&b, "claim %d %s %s%s %s %s: %s\n", c.Line, c.Kind, c.Workload, c.Step, c.Config, c.Run, c.Printed)
		}
	}
	return b.String()
}

func golden(t *testing.T, file, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs (run go test -update after checking the change):\n%s", file, diff(string(want), got))
	}
}

// diff shows the first lines that differ.
func diff(a, b string) string {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	var out []string
	for i := 0; i < len(la) || i < len(lb); i++ {
		var x, y string
		if i < len(la) {
			x = la[i]
		}
		if i < len(lb) {
			y = lb[i]
		}
		if x != y {
			out = append(out, fmt.Sprintf("line %d:\n- %s\n+ %s", i+1, x, y))
			if len(out) == 10 {
				break
			}
		}
	}
	return strings.Join(out, "\n")
}

// dump writes a study's files in txtar form.
func dump(t *testing.T, s *Study) string {
	files, err := s.Files()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, n := range names {
		fmt.Fprintf(&b, "-- %s --\n%s", n, files[n])
	}
	return b.String()
}

// TestStructures imports a report of each structure of the family and
// compares the study folder with its golden file; check finds only the
// problem planted in the hand-written throughput report.
func TestStructures(t *testing.T) {
	for _, name := range []string{"handwritten_throughput", "handwritten_latency", "generated_throughput", "generated_latency"} {
		t.Run(name, func(t *testing.T) {
			studies, diags := importAll(t, "testdata/"+name+".md")
			golden(t, "testdata/"+name+".golden", dump(t, studies[0]))
			got, other := errorsAt(diags, check.Error)
			var want []string
			if name == "handwritten_throughput" {
				want = []string{"handwritten_throughput.md:17"} // +81.8% where the logs give -9.1 %
			}
			if strings.Join(got, " ") != strings.Join(want, " ") || len(other) > 0 {
				t.Errorf("errors at %v, want %v; others: %v", got, want, other)
			}
		})
	}
}

func TestNotations(t *testing.T) {
	src, _ := os.ReadFile("testdata/handwritten_throughput.md")
	s, err := Import("testdata/handwritten_throughput.md", src)
	if err != nil {
		t.Fatal(err)
	}
	printed := map[string]bool{}
	for _, c := range s.Claims {
		printed[c.Kind+" "+c.Printed] = true
	}
	for _, want := range []string{"value Total TPS: 1111.11x2", "conclusion +11.11%", "conclusion -0.0%/GPU", "value Mean TPOT(ms): 19.00",
		"step +11.11%", "conclusion +11.1%", "ranking vLLM (1000.00 tok/s) > SGLang (800.00 tok/s)"} {
		if !printed[want] {
			t.Errorf("no claim %q", want)
		}
	}
	errs := map[string]string{}
	for _, r := range s.Runs {
		errs[r.ID] = r.Error
		if r.ID == "mindie" && !strings.HasPrefix(r.Command, "# Set the model weight path") {
			t.Errorf("MindIE command lost its comment lines: %q", r.Command)
		}
		if r.ID == "sglang" && !strings.Contains(r.Command, "\\\n") {
			t.Errorf("multi-line command not kept as printed: %q", r.Command)
		}
	}
	for id, want := range map[string]string{
		"mindie":   "Crash during warm-up: HCCL timeout",
		"vllm-fp8": `ValueError("FP8 weights are not supported on this model")`,
		"vllm-awq": "The server fails to start with the AWQ checkpoint.",
	} {
		if errs[id] != want {
			t.Errorf("run %s error %q, want %q", id, errs[id], want)
		}
	}
}

func TestUnreadable(t *testing.T) {
	for _, c := range []struct {
		src  string
		line int
		msg  string
	}{
		{"# X\n\n## Experimental Setup\n\n### Model\n\nm\n\n```bash\nvllm serve m\n", 9, "never closed"},
		{"# X\n\n## Conclusion\n", 1, "Experimental Setup"},
		{"# X\n\n## Experimental Setup\n\n### Model\n\nm\n\n### Hardware\n\nNVIDIA H100\n\n## Experiment Results\n\n### 1. Engine\n\nvLLM\n??? info \"Serving script\"\n    ```bash\n    vllm serve m\n    ```\n\n??? info \"Benchmark result\"\n    ```\n    ```\n", 24, "empty"},
	} {
		_, err := Import("r.md", []byte(c.src))
		e, ok := err.(*Error)
		if !ok || e.Line != c.line || !strings.Contains(e.Msg, c.msg) || e.File != "r.md" {
			t.Errorf("Import(%q) = %v, want r.md:%d: ...%s...", c.src, err, c.line, c.msg)
		}
	}
}

// A study folder holds what its authors wrote: importing again refuses to
// replace it, and a first import leaves nothing else behind.
func TestWriteNeverReplaces(t *testing.T) {
	dir := t.TempDir()
	src, _ := os.ReadFile("testdata/handwritten_latency.md")
	s, err := Import("handwritten_latency.md", src)
	if err != nil {
		t.Fatal(err)
	}
	if err := Write(dir, s); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 || entries[0].Name() != s.ID {
		t.Errorf("left behind: %v", entries)
	}
	mine := filepath.Join(dir, s.ID, "runs", "mine.txt")
	if err := os.WriteFile(mine, []byte("hand-written"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Write(dir, s); err == nil || !strings.Contains(err.Error(), "never replaces a study folder") {
		t.Errorf("a second import: %v", err)
	}
	if data, err := os.ReadFile(mine); err != nil || string(data) != "hand-written" {
		t.Errorf("the hand-written file is gone: %v", err)
	}
}

// An overview page of reports is a notice, not an error, and gives no study.
func TestOverviewPageIsNotAStudy(t *testing.T) {
	page := "# Performance Lab\n\nReports on serving models:\n\n- [Qwen3-32B on A100](qwen3-32b__a100.md)\n- [GPT-OSS-120B on H100](gpt-oss-120b__h100.md)\n"
	_, err := Import("index.md", []byte(page))
	var none *NotAStudy
	if !errors.As(err, &none) || none.File != "index.md" {
		t.Fatalf("Import(overview) = %v, want NotAStudy", err)
	}
	for _, report := range []string{
		page + "\n## Conclusion\n",
		page + "\n```\nvllm serve x\n```\n",
		page + "\n| a | b |\n| --- | --- |\n| 1 | 2 |\n",
	} {
		if _, err := Import("r.md", []byte(report)); errors.As(err, &none) {
			t.Errorf("a page with a report's parts was taken for an overview: %q", report)
		}
	}
}
