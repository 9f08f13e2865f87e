package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/check"
)

// Markdown and HTML in a run name or command stay text in the summary: no
// link, no image, no row ended by a carriage return, no row hidden by <!--.
func TestSummaryEscapes(t *testing.T) {
	before := map[string]*studyFacts{"s": {facts: []fact{{key: "step x", value: "best a"}}}}
	after := map[string]*studyFacts{"s": {facts: []fact{
		{key: "step x", value: "best [L](//evil.example) ![I](//evil.example/p.png) <!-- hidden"},
		{key: "recommended", value: "r:", code: "vllm serve m\r| x | y |\n--tp 2"},
		{key: "check", value: "\u202eabc\x1b[31m"},
	}}}
	var out, log bytes.Buffer
	writeSummary(&out, &log, "", before, after, nil, nil)
	text := out.String()
	rows := 0
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "| s |") {
			rows++
			if n := strings.Count(strings.ReplaceAll(line, `\|`, ""), "|"); n != 5 {
				t.Errorf("a row with %d cell separators: %q", n, line)
			}
		}
	}
	if rows != 3 {
		t.Errorf("%d rows, want 3:\n%s", rows, text)
	}
	for _, bad := range []string{"](", "<!--", "\r", "\u202e", "\x1b"} {
		if strings.Contains(text, bad) {
			t.Errorf("the summary holds %q:\n%s", bad, text)
		}
	}
}

// The job summary stays under summaryLimit however many changes or
// problems there are; the rest are counted, and all are in the job log.
func TestSummaryBounded(t *testing.T) {
	before, after := map[string]*studyFacts{}, map[string]*studyFacts{}
	long := strings.Repeat("x", 300<<10) // one command bigger than the limit
	for i := range 10000 {
		id := fmt.Sprintf("study-%05d", i)
		before[id] = &studyFacts{facts: []fact{{key: "recommended", value: "a:", code: "vllm serve a"}}}
		code := "vllm serve b"
		if i < 3 {
			code += long
		}
		after[id] = &studyFacts{facts: []fact{{key: "recommended", value: "b:", code: code}}}
	}
	var out, log bytes.Buffer
	writeSummary(&out, &log, "", before, after, nil, nil)
	if out.Len() > summaryLimit {
		t.Errorf("the summary is %d bytes, over %d", out.Len(), summaryLimit)
	}
	if !strings.Contains(out.String(), "more changes: see the full list in the job log.") {
		t.Errorf("the summary does not say that rows were left out:\n%s", out.String()[max(0, out.Len()-300):])
	}
	shown := strings.Count(log.String(), "| study-")
	if log.Len() > logLimit || !strings.Contains(log.String(), fmt.Sprintf("%d more changes not shown.", 10000-shown)) {
		t.Errorf("the job log is %d bytes (limit %d) and lists %d changes without counting the rest", log.Len(), logLimit, shown)
	}

	var diags []check.Diagnostic
	for i := range 10000 {
		diags = append(diags, check.Diagnostic{Rule: "schema", Severity: check.Error, File: "results/s/study.yaml", Line: i + 1, Message: "bad value " + long[:i%2*1000]}) // a message a screen long
	}
	file := filepath.Join(t.TempDir(), "summary.md")
	log.Reset()
	if err := appendSummary(file, &log, diags); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(file)
	if len(data) > summaryLimit {
		t.Errorf("the check summary is %d bytes, over %d", len(data), summaryLimit)
	}
	if !strings.Contains(string(data), "more problems: see the full list in the job log.") {
		t.Error("the check summary does not say that problems were left out")
	}
	if n := strings.Count(log.String(), "error: schema: bad value"); n != 10000 {
		t.Errorf("the job log lists %d problems, want 10000", n)
	}
}

// A change that no listed fact shows (a price, a latency budget, a
// history log, the shared prices, a locale) is reported, never "no change
// in meaning".
func TestSummaryReportsEveryInput(t *testing.T) {
	repo, err := filepath.Abs(filepath.Join("..", "..", "results"))
	if err != nil {
		t.Fatal(err)
	}
	study := filepath.Join("results", "example-qwen3-8b-l40s")
	// fact is what the table must say besides the file: the statement
	// that changes, when there is one.
	cases := []struct{ name, file, old, new, report, fact string }{
		{"price", filepath.Join(study, "study.yaml"), "gpu_hour: 1.00", "gpu_hour: 2.00", "example-qwen3-8b-l40s",
			"| price | 1.00 USD per GPU-hour | 2.00 USD per GPU-hour |"},
		{"budget", filepath.Join(study, "study.yaml"), "ttft_ms: 3000", "ttft_ms: 2500", "example-qwen3-8b-l40s",
			"| latency budget | p99\\: ttft ≤ 3000 ms, tpot ≤ 60 ms | p99\\: ttft ≤ 2500 ms, tpot ≤ 60 ms |"},
		{"history", filepath.Join(study, "runs", "vllm", "history", "v0.10.1", "chat.log"), "2061.01", "2071.01", "example-qwen3-8b-l40s", ""},
		{"shared prices", filepath.Join("results", "prices.yaml"), "", "prices:\n  - gpu: NVIDIA A100 SXM 80GB\n    gpu_hour: 1.80\n    currency: USD\n", "every report",
			"| price | — | 1.80 USD per GPU-hour \\(results/prices.yaml\\) |"},
		{"locale", filepath.Join("locales", "en.yaml"), "", "\n", "every report", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			copyRepo(t)
			data, _ := os.ReadFile(c.file)
			if c.old == "" {
				data = append(data, c.new...)
			} else if !bytes.Contains(data, []byte(c.old)) {
				t.Fatalf("%s has no %q", c.file, c.old)
			} else {
				data = bytes.Replace(data, []byte(c.old), []byte(c.new), 1)
			}
			if err := os.WriteFile(c.file, data, 0o644); err != nil {
				t.Fatal(err)
			}
			out, stderr, err := perflab(t, "summary", "--base", repo, "--head", "results")
			if err != nil {
				t.Fatalf("summary: %v\n%s", err, stderr)
			}
			if strings.Contains(out, "No change") || !strings.Contains(out, "| "+c.report+" |") ||
				!strings.Contains(out, filepath.ToSlash(c.file)) || !strings.Contains(out, c.fact) {
				t.Errorf("the summary does not report the change of %s (%s):\n%s", c.file, c.fact, out)
			}
		})
	}
}

// check's text output prints one line per problem, whatever a file name
// or message holds: no escape sequence reaches the terminal.
func TestCheckTextPlain(t *testing.T) {
	diags := []check.Diagnostic{{Study: "s\x1b[2J", Rule: "schema", Severity: check.Error, File: "results/s/a\rb.log", Line: 1,
		Message: "bad \x1b[31mred\u202e\nnext"}}
	var out bytes.Buffer
	writeText(&out, diags, true, check.FigureCount{})
	if strings.ContainsAny(out.String(), "\x1b\r\u202e") || strings.Count(out.String(), "\n") != 3 {
		t.Errorf("check text output:\n%q", out.String())
	}
}

// A change of 12,000 steps, run as the pull request check runs it: the
// summary stays under summaryLimit, summary and job log together under
// 1 MiB, and the summary says how many changes it leaves out.
func TestSummaryOfTwelveThousandSteps(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a study of 12,000 steps")
	}
	repo, err := filepath.Abs(filepath.Join("..", "..", "results"))
	if err != nil {
		t.Fatal(err)
	}
	copyRepo(t)
	file := filepath.Join("results", "example-qwen3-8b-l40s", "study.yaml")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var steps strings.Builder
	steps.WriteString("steps:\n")
	for i := range 12000 {
		fmt.Fprintf(&steps, "  - id: s%d\n    runs: [vllm, sglang]\n    reference: vllm\n", i)
	}
	if !bytes.Contains(data, []byte("steps:\n")) {
		t.Fatal("the example study has no steps")
	}
	if err := os.WriteFile(file, bytes.Replace(data, []byte("steps:\n"), []byte(steps.String()), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	out, stderr, err := perflab(t, "summary", "--base", repo, "--head", "results")
	if err != nil {
		t.Fatalf("summary: %v\n%s", err, stderr[:min(len(stderr), 2000)])
	}
	if len(out) > summaryLimit || len(out)+len(stderr) >= 1<<20 {
		t.Errorf("summary %d bytes, job log %d bytes: over %d, or together 1 MiB or more", len(out), len(stderr), summaryLimit)
	}
	if !strings.Contains(out, "more changes: see the full list in the job log.") || !strings.Contains(stderr, "more changes not shown.") {
		t.Errorf("summary or job log does not count what it leaves out:\n%s", out[max(0, len(out)-300):])
	}
	if !strings.Contains(out, "| example-qwen3-8b-l40s | step s0 |") {
		t.Errorf("the summary does not show the first steps")
	}
}
