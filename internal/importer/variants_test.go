package importer

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/check"
)

// variant is a small hand-written report in the family's layout: one step
// choosing the engine, with the parts each test varies.
type variant struct {
	title       string // the # heading
	model       string // the line under ### Model
	hardware    string
	recommended string // the conclusion's serving command
	runs        []variantRun
	ranking     string // the step's "Result:" line
}

type variantRun struct {
	label, command string
	seconds        float64 // benchmark duration of 100 requests, 20000 + 30000 tokens
}

// block prints a vLLM result block whose rates agree with its counts.
func block(seconds float64) string {
	return fmt.Sprintf(`    ============ Serving Benchmark Result ============
    Successful requests:                     100
    Benchmark duration (s):                  %.2f
    Total input tokens:                      20000
    Total generated tokens:                  30000
    Request throughput (req/s):              %.2f
    Output token throughput (tok/s):         %.2f
    Total Token throughput (tok/s):          %.2f
    ---------------Time to First Token----------------
    Mean TTFT (ms):                          100.00
    Median TTFT (ms):                        90.00
    P99 TTFT (ms):                           200.00
    -----Time per Output Token (excl. 1st token)------
    Mean TPOT (ms):                          20.00
    Median TPOT (ms):                        19.00
    P99 TPOT (ms):                           30.00
    ==================================================
`, seconds, 100/seconds, 30000/seconds, 50000/seconds)
}

func (v variant) markdown() string {
	var b strings.Builder
	first, best := v.runs[0], v.runs[0]
	for _, r := range v.runs {
		if r.seconds < best.seconds {
			best = r
		}
	}
	fmt.Fprintf(&b, "# %s\n\n## Conclusion\n\n???+ tip \"Serving Command\"\n    ```bash\n    %s\n    ```\n\n", v.title, strings.ReplaceAll(v.recommended, "\n", "\n    "))
	fmt.Fprintf(&b, "| Benchmark Case | baseline (vLLM without any optimizations) | Optimized |\n|---|---|---|\n")
	fmt.Fprintf(&b, "| **ShareGPT** | Total TPS: %.2f | Total TPS: %.2f (%+.1f%%) |\n\n", 50000/first.seconds, 50000/best.seconds, (first.seconds/best.seconds-1)*100)
	fmt.Fprintf(&b, "## Experimental Setup\n\n### Model\n\n%s\n\n### Hardware\n\n%s\n\n", v.model, v.hardware)
	b.WriteString("### Benchmark Dataset\n\n1. ShareGPT\n\n## Experiment Results\n\n### 1. Choosing the Inference Engine\n\n")
	for _, r := range v.runs {
		fmt.Fprintf(&b, "%s\n??? info \"Serving script\"\n    ```bash\n    %s\n    ```\n\n??? info \"Benchmark result\"\n    ```\n%s    ```\n\n", r.label, r.command, block(r.seconds))
	}
	fmt.Fprintf(&b, "Result: %s\n", v.ranking)
	return b.String()
}

// importVariant imports one variant and checks it.
func importVariant(t *testing.T, name string, v variant) (*Study, []check.Diagnostic) {
	t.Helper()
	file := filepath.Join(t.TempDir(), name+".md")
	if err := os.WriteFile(file, []byte(v.markdown()), 0o644); err != nil {
		t.Fatal(err)
	}
	studies, diags := importAll(t, file)
	return studies[0], diags
}

func errorTexts(diags []check.Diagnostic) []string {
	var out []string
	for _, d := range diags {
		if d.Severity == check.Error {
			out = append(out, d.String())
		}
	}
	return out
}

// A report written from another keeps the other's model in its setup: the
// title and the commands win, and check reports the setup's line.
func TestSetupModelAgainstTitleAndCommands(t *testing.T) {
	v := variant{
		title: "Optimizing Example-8B Throughput on NVIDIA H100 GPUs", model: "- example-org/Other-30B-A3B",
		hardware: "1 × NVIDIA H100 SXM GPU", recommended: "vllm serve example-org/Example-8B",
		runs: []variantRun{
			{"vLLM", "vllm serve example-org/Example-8B", 50},
			{"SGLang", "python3 -m sglang.launch_server --model-path example-org/Example-8B-FP8", 62.5},
		},
		ranking: "vLLM (1000.00 tok/s) > SGLang (800.00 tok/s)",
	}
	s, diags := importVariant(t, "copied", v)
	if s.Model != "example-org/Example-8B" {
		t.Errorf("study model %q, want the commands' example-org/Example-8B", s.Model)
	}
	errs := errorTexts(diags)
	if len(errs) != 1 || !strings.Contains(errs[0], "names the model example-org/Other-30B-A3B") || !strings.Contains(errs[0], "copied.md:18") {
		t.Errorf("want one error at the setup's model line (copied.md:18), got %v", errs)
	}

	// Agreeing title: the setup is trusted, its list marker dropped.
	v.model = "- example-org/Example-8B"
	s, diags = importVariant(t, "agrees", v)
	if s.Model != "example-org/Example-8B" || len(errorTexts(diags)) != 0 {
		t.Errorf("model %q, errors %v", s.Model, errorTexts(diags))
	}
}

// Engine knowledge: dp attention keeps SGLang on tp GPUs, the recommended
// command matches its run through aliases and neutral flags, and a ranking
// may print a rounding of the logged figure.
func TestEngineVariantsRaiseNoError(t *testing.T) {
	v := variant{
		title: "Optimizing Example-8B Throughput on NVIDIA H100 GPUs", model: "example-org/Example-8B",
		hardware:    "8 × NVIDIA H100 SXM GPUs on a single node.",
		recommended: "python3 -m sglang.launch_server --model example-org/Example-8B \\\n--tp 8 --dp 8 --enable-dp-attention --reasoning-parser qwen3 --port 30000",
		runs: []variantRun{
			{"vLLM", "vllm serve example-org/Example-8B -tp 8", 50},
			{"SGLang", "python3 -m sglang.launch_server --model-path example-org/Example-8B --tp-size=8 --dp-size=8 --enable-dp-attention", 30},
		},
		ranking: "SGLang (1666.7 tok/s) > vLLM (1000.00 tok/s)",
	}
	_, diags := importVariant(t, "engines", v)
	if errs := errorTexts(diags); len(errs) != 0 {
		t.Errorf("errors on a consistent report: %v", errs)
	}

	// The same report with a real difference in the command is an error
	// that says what differs.
	v.recommended = "python3 -m sglang.launch_server --model example-org/Example-8B --tp 8 --dp 8 --enable-dp-attention --attention-backend fa3"
	_, diags = importVariant(t, "differs", v)
	errs := errorTexts(diags)
	if len(errs) != 1 || !strings.Contains(errs[0], "--attention-backend fa3 only in the first") {
		t.Errorf("want one error naming --attention-backend, got %v", errs)
	}
}

// Labels as the family writes them: sizes in K, a plain line captioning a
// block, a comment label that is the value of a flag of the command, and
// "ShareGPT BS=N" rows naming the case run at that concurrency.
func TestLabelVariants(t *testing.T) {
	bs := func(n int, seconds float64) string {
		return strings.Replace(block(seconds), "    Benchmark duration", fmt.Sprintf("    Maximum request concurrency:             %d\n    Benchmark duration", n), 1)
	}
	src := "# Optimizing Example-8B Throughput on NVIDIA H100 GPUs\n\n## Conclusion\n\n" +
		"| Benchmark Case | baseline (vLLM without any optimizations) | Optimized |\n|---|---|---|\n" +
		"| **ShareGPT BS=2** | Total TPS: 1000.00 | Total TPS: 1250.00 (+25.0%) |\n\n" +
		"## Experimental Setup\n\n### Model\n\nexample-org/Example-8B\n\n### Hardware\n\n1 × NVIDIA H100 SXM GPU\n\n" +
		"### Benchmark Dataset\n\n1. ShareGPT\n2. Random:\n    - Generation-Heavy Prompt: 1K input tokens, 2K output tokens\n\n" +
		"## Experiment Results\n\n### 1. Attention Backend\n\n??? info \"Serving script\"\n    ```bash\n    vllm serve example-org/Example-8B --attention-backend triton\n    ```\n\n" +
		"??? info \"Benchmark result\"\n    ```\n    # triton\n" + block(50) + "\n    # flashinfer\n" + block(40) + "    ```\n\n" +
		"### Other Benchmark Cases\n\n??? info \"Serving script\"\n    ```bash\n    vllm serve example-org/Example-8B --attention-backend triton\n    ```\n\n" +
		"??? info \"Benchmark result\"\n    ```\n    1k random input + 2k generation\n" + block(50) + "\n    # BS=2\n" + bs(2, 50) + "    ```\n"
	file := filepath.Join(t.TempDir(), "labels.md")
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	studies, _ := importAll(t, file)
	s := studies[0]
	var ids []string
	for _, w := range s.Workloads {
		ids = append(ids, fmt.Sprintf("%s(%s %d/%d)", w.ID, w.Dataset, w.InputLen, w.OutputLen))
	}
	got := strings.Join(ids, " ")
	for _, want := range []string{"random-1k(random 1000/2000)", "bs-2(sharegpt 0/0)"} {
		if !strings.Contains(got, want) {
			t.Errorf("workloads %s, want %s among them", got, want)
		}
	}
	if strings.Contains(got, "triton") || strings.Contains(got, "flashinfer") {
		t.Errorf("a backend label became a workload: %s", got)
	}
	var names []string
	for _, r := range s.Runs {
		names = append(names, r.Name+": "+r.Command)
	}
	if !strings.Contains(strings.Join(names, "\n"), "--attention-backend flashinfer") {
		t.Errorf("no run for the flashinfer block:\n%s", strings.Join(names, "\n"))
	}
	for _, c := range s.Claims {
		if c.Kind == "value" && c.Workload != "bs-2" {
			t.Errorf("the ShareGPT BS=2 row went to workload %s", c.Workload)
		}
	}
}

func TestAnnotatedChange(t *testing.T) {
	for in, want := range map[string]string{
		"+7.60%,lower than previous +9.75%, optimization skipped in final command": "+7.60%",
		"+12.3%/GPU; within noise":     "+12.3%/GPU",
		"1.2x faster, at batch size 1": "1.2x faster",
		"+59.2%":                       "+59.2%",
	} {
		if kind, got := changeClaim(in); kind != "" || got != want {
			t.Errorf("changeClaim(%q) = %q %q, want %q", in, kind, got, want)
		}
	}
}

// "Baseline Backend Parameters: N/A" publishes no flags: the baseline is
// the engine the conclusion's header names, and its logs join that run.
func TestBaselineParametersNotPublished(t *testing.T) {
	src, err := os.ReadFile("testdata/generated_throughput.md")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(src), "- Baseline Backend Parameters:\n  ```bash\n  --max-model-len=32768\n  ```", "- Baseline Backend Parameters:N/A", 1)
	if text == string(src) {
		t.Fatal("the test report no longer has the baseline parameters this test replaces")
	}
	file := filepath.Join(t.TempDir(), "na.md")
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	studies, diags := importAll(t, file)
	s := studies[0]
	if len(s.Baseline) != 1 || s.Baseline[0] != "vllm" {
		t.Errorf("baseline %v, want the vLLM run of the engine step", s.Baseline)
	}
	for _, r := range s.Runs {
		if r.ID == "vllm" && len(r.Logs) != 2 {
			t.Errorf("the vLLM run has %d logs, want its ShareGPT log and the baseline's Long Context log", len(r.Logs))
		}
	}
	if errs := errorTexts(diags); len(errs) != 0 {
		t.Errorf("errors: %v", errs)
	}
}

// A label with several flags sets each of them.
func TestDeriveCommandMultiFlag(t *testing.T) {
	cmd := "python3 -m sglang.launch_server --model-path m \\\n    --speculative-algorithm EAGLE3 \\\n    --speculative-num-steps 4 --speculative-eagle-topk 4"
	for label, want := range map[string]string{
		"--speculative-num-steps 2 --speculative-eagle-topk 1": "python3 -m sglang.launch_server --model-path m \\\n    --speculative-algorithm EAGLE3 \\\n    --speculative-num-steps 2 --speculative-eagle-topk 1",
		"--speculative-num-draft-tokens=32":                    cmd + " --speculative-num-draft-tokens 32",
		"--enable-torch-compile":                               cmd + " --enable-torch-compile",
	} {
		if got := deriveCommand(cmd, label); got != want {
			t.Errorf("deriveCommand(%q) =\n%q\nwant\n%q", label, got, want)
		}
		if !labelInCommand(label, deriveCommand(cmd, label)) {
			t.Errorf("the command derived from %q does not set it", label)
		}
	}
	if labelInCommand("--speculative-num-steps 4 --speculative-eagle-topk 8", cmd) {
		t.Error("a label whose second flag differs is taken for the command")
	}
}

// A configuration printed again by a later step cites both lines, in both
// copies.
func TestRepeatsCiteEveryLine(t *testing.T) {
	log := []Log{{Workload: "sharegpt", Text: block(50)}}
	a := &Run{Name: "SGLang", Command: "c", Parameters: "--tp-size=8", Line: 171, Logs: log, source: "r.md"}
	b := &Run{Name: "TP", Command: "c", Parameters: "--tp-size=8", Line: 219, Logs: log, source: "r.md"}
	other := &Run{Name: "TP2", Command: "c", Parameters: "--tp-size=2", Line: 250, Logs: log, source: "r.md"}
	p := &parser{s: &Study{Runs: []*Run{a, b, other}}}
	p.citeRepeats()
	for _, tc := range []struct {
		r    *Run
		want string
	}{{a, "r.md:171, r.md:219"}, {b, "r.md:219, r.md:171"}, {other, "r.md:250"}} {
		var sb strings.Builder
		if err := yamlSource(tc.r, &sb); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(sb.String(), `source: "`+tc.want+`"`) {
			t.Errorf("%s: %s, want source %q", tc.r.Name, sb.String(), tc.want)
		}
	}
}

func yamlSource(r *Run, sb *strings.Builder) error {
	y, err := encode(r.node())
	sb.Write(y)
	return err
}
