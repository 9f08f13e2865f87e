package check

import (
	"cmp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/benchlog"
	"github.com/perflab/perflab/internal/serving"
	"github.com/perflab/perflab/internal/study"
)

const studyFile = "results/test/study.yaml"

// sharegptLog is results/qwen3-235b-a22b-a100/runs/vllm-tp8/sharegpt.log,
// byte for byte.
const sharegptLog = `============ Serving Benchmark Result ============
Successful requests:                     1000
Benchmark duration (s):                  109.00
Total input tokens:                      217393
Total generated tokens:                  196004
Request throughput (req/s):              9.17
Output token throughput (tok/s):         1798.14
Peak output token throughput (tok/s):    3297.00
Peak concurrent requests:                1000.00
Total Token throughput (tok/s):          3792.50
---------------Time to First Token----------------
Mean TTFT (ms):                          38065.91
Median TTFT (ms):                        37597.63
P99 TTFT (ms):                           77082.58
-----Time per Output Token (excl. 1st token)------
Mean TPOT (ms):                          123.36
Median TPOT (ms):                        103.68
P99 TPOT (ms):                           448.36
---------------Inter-token Latency----------------
Mean ITL (ms):                           100.76
Median ITL (ms):                         86.83
P99 ITL (ms):                            185.41
==================================================
`

// parseBlock parses one result block from log text.
func parseBlock(t *testing.T, file, text string) benchlog.Block {
	t.Helper()
	blocks, err := benchlog.Parse(file, strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	if len(blocks) != 1 {
		t.Fatalf("%d blocks in %s, want 1", len(blocks), file)
	}
	return blocks[0]
}

// edit replaces the value printed after label in a block's text.
func edit(t *testing.T, text, label, value string) string {
	t.Helper()
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, label) {
			lines[i] = l[:41] + value
			return strings.Join(lines, "\n")
		}
	}
	t.Fatalf("no line %q", label)
	return ""
}

// newRun is a run as the loader gives it: command on line 3, gpus on line 4
// of its run.yaml, and a sharegpt log with the given headline.
func newRun(id, command string, gpus int, throughput string) *study.Run {
	r := &study.Run{ID: id, Name: strings.ToUpper(id), Engine: cmp.Or(serving.Parse(command).EngineID(), "vllm"), Command: command, GPUs: gpus,
		Pos: study.Pos{File: "results/test/runs/" + id + "/run.yaml", Line: 1}, CommandLine: 3, GPUsLine: 4}
	if throughput != "" {
		v, _ := strconv.ParseFloat(throughput, 64)
		dec := len(throughput) - strings.IndexByte(throughput, '.') - 1
		file := "results/test/runs/" + id + "/sharegpt.log"
		r.Logs = []study.Log{{Workload: "sharegpt", File: file, Blocks: []benchlog.Block{{
			File: file, Line: 1, EndLine: 23, Format: benchlog.FormatVLLM, Definition: benchlog.CountOverDuration,
			Metrics: map[string]benchlog.Metric{"total_token_throughput": {Value: v, Decimals: dec, Line: 10, Raw: throughput}},
		}}}}
	}
	return r
}

func newStudy(model string, node int, runs ...*study.Run) *study.Study {
	s := &study.Study{
		ID: "test", Pos: study.Pos{File: studyFile, Line: 1}, Model: model, Objective: study.Throughput,
		Hardware:  study.Hardware{GPU: "NVIDIA A100 SXM 80GB", GPUsPerNode: node, Nodes: 1},
		Workloads: []study.Workload{{ID: "sharegpt", Dataset: "sharegpt", Main: true}, {ID: "random-32k", Dataset: "random"}},
		Runs:      runs,
	}
	sort.Slice(s.Runs, func(i, j int) bool { return s.Runs[i].ID < s.Runs[j].ID })
	return s
}

func reasons() map[string]string {
	return map[string]string{"en": "Known.", "zh": "已知。", "ja": "既知です。"}
}

// byRule returns the diagnostics of one rule.
func byRule(diags []Diagnostic, rule string) []Diagnostic {
	var out []Diagnostic
	for _, d := range diags {
		if d.Rule == rule {
			out = append(out, d)
		}
	}
	return out
}

func TestModelMismatch(t *testing.T) {
	s := newStudy("Qwen/Qwen3-32B", 8,
		newRun("trtllm-mnt16384", "trtllm-serve Qwen/Qwen3-14B --max_num_tokens=16384", 1, "1000.00"),
		newRun("vllm", "vllm serve Qwen/Qwen3-32B", 1, "900.00"),
	)
	s.Steps = []study.Step{{ID: "mnt", Runs: []string{"trtllm-mnt16384"}, Reference: "vllm"}}
	res := assessed(s)
	diags := byRule(res.Diagnostics, RuleModel)
	if len(diags) != 1 {
		t.Fatalf("%d model-mismatch diagnostics, want 1: %v", len(diags), res.Diagnostics)
	}
	d := diags[0]
	if d.File != "results/test/runs/trtllm-mnt16384/run.yaml" || d.Line != 3 {
		t.Errorf("at %s:%d, want the command line results/test/runs/trtllm-mnt16384/run.yaml:3", d.File, d.Line)
	}
	if d.Severity != Error || d.Subject != "trtllm-mnt16384" || d.Study != "test" {
		t.Errorf("Severity %s, Subject %q, Study %q", d.Severity, d.Subject, d.Study)
	}
	if d.Printed != "Qwen/Qwen3-14B" || d.Computed != "Qwen/Qwen3-32B" {
		t.Errorf("Printed %q, Computed %q", d.Printed, d.Computed)
	}
	for _, want := range []string{"trtllm-mnt16384", "Qwen/Qwen3-14B", "Qwen/Qwen3-32B"} {
		if !strings.Contains(d.Message, want) {
			t.Errorf("message %q does not name %s", d.Message, want)
		}
	}
	if !Failed([]Result{res}) {
		t.Error("an unacknowledged model mismatch must fail the check")
	}
	// The run is excluded from comparisons.
	if res.Report.Excluded["trtllm-mnt16384"] != RuleModel {
		t.Errorf("Excluded = %v", res.Report.Excluded)
	}
	sr := res.Report.StepByID("mnt")
	if sr.Best != nil || sr.Change != nil || len(sr.Ranking) != 1 {
		t.Errorf("excluded run entered the step: Best %+v, Change %+v, %d ranked", sr.Best, sr.Change, len(sr.Ranking))
	}

	// Without a command line the diagnostic points at the run.yaml itself.
	r := newRun("x", "vllm serve Qwen/Qwen3-14B", 1, "")
	r.CommandLine = 0
	d = byRule(assessed(newStudy("Qwen/Qwen3-32B", 8, r)).Diagnostics, RuleModel)[0]
	if d.File != "results/test/runs/x/run.yaml" || d.Line != 1 {
		t.Errorf("no command line: at %s:%d, want results/test/runs/x/run.yaml:1", d.File, d.Line)
	}
}

func TestModelVariantsAreTheSameModel(t *testing.T) {
	for _, served := range []string{
		"Qwen/Qwen3-32B",
		"Qwen/Qwen3-32B-FP8",
		"Qwen/Qwen3-32B-AWQ",
		"Qwen/Qwen3-32B-GPTQ-Int4",
		"Qwen/Qwen3-32B-W8A8",
		"RedHatAI/Qwen3-32B-FP8-dynamic",
		"nvidia/Qwen3-32B-FP8",
		"qwen/qwen3-32b",
		"/models/Qwen3-32B/",
	} {
		s := newStudy("Qwen/Qwen3-32B", 8, newRun("run", "vllm serve "+served+" -tp 8", 8, ""))
		if d := byRule(assessed(s).Diagnostics, RuleModel); len(d) != 0 {
			t.Errorf("%s in a Qwen3-32B study: %v", served, d)
		}
	}
	for _, served := range []string{"Qwen/Qwen3-14B", "Qwen/Qwen3-32B-Instruct-2507", "Qwen/Qwen2.5-32B", "Qwen/Qwen3-14B-FP8"} {
		s := newStudy("Qwen/Qwen3-32B", 8, newRun("run", "vllm serve "+served+" -tp 8", 8, ""))
		if d := byRule(assessed(s).Diagnostics, RuleModel); len(d) != 1 {
			t.Errorf("%s in a Qwen3-32B study: %d model-mismatch diagnostics, want 1", served, len(d))
		}
	}
}

func TestGPUFit(t *testing.T) {
	tests := []struct {
		name     string
		node     int
		command  string
		gpus     int
		severity Severity // "" when quiet
		line     int
		message  string
	}{
		{"tp 4 on 2 GPUs", 2, "vllm serve Qwen/Qwen3-32B -tp 4", 4, Error, 3, "needs 4 GPUs"},
		{"tp 4 on 2 GPUs, gpus 2", 2, "vllm serve Qwen/Qwen3-32B -tp 4", 2, Error, 3, "needs 4 GPUs"},
		{"gpus beyond the node", 8, "vllm serve Qwen/Qwen3-32B", 16, Error, 4, "used 16 GPUs, but the hardware has 8"},
		{"gpus disagree with tp", 8, "vllm serve Qwen/Qwen3-32B -tp 4", 8, Error, 4, "says it used 8 GPUs, but its command asks for 4"},
		{"3 of 8", 8, "vllm serve Qwen/Qwen3-32B -tp 3", 3, Warning, 4, "does not divide the node"},
		{"fits, projected", 8, "vllm serve Qwen/Qwen3-32B -tp 4", 4, "", 0, ""},
		{"fits, whole node", 8, "python3 -m sglang.launch_server --model-path Qwen/Qwen3-32B --tp-size 8", 8, "", 0, ""},
		{"fits, tp x dp", 8, "vllm serve Qwen/Qwen3-32B -tp 2 --data-parallel-size=4", 8, "", 0, ""},
		{"fits, one GPU", 1, "trtllm-serve Qwen/Qwen3-32B", 1, "", 0, ""},
		// Engine rules: dp attention keeps SGLang on tp GPUs, ep adds none.
		{"sglang dp attention", 8, "python3 -m sglang.launch_server --model-path Qwen/Qwen3-32B --tp-size=8 --dp-size=8 --enable-dp-attention", 8, "", 0, ""},
		{"sglang dp without dp attention", 8, "python3 -m sglang.launch_server --model-path Qwen/Qwen3-32B --tp 8 --dp 8", 8, Error, 3, "needs 64 GPUs"},
		{"trtllm ep", 4, "trtllm-serve Qwen/Qwen3-32B --tp_size 4 --ep_size 4", 4, "", 0, ""},
		// Commands that say nothing about their GPUs.
		{"an export line", 8, `export VLLM_ATTENTION_BACKEND="FLASHMLA"`, 8, "", 0, ""},
		{"mindie, configured elsewhere", 8, "mindie serve Qwen/Qwen3-32B", 8, "", 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newStudy("Qwen/Qwen3-32B", tt.node, newRun("run", tt.command, tt.gpus, ""))
			diags := byRule(assessed(s).Diagnostics, RuleGPUFit)
			if tt.severity == "" {
				if len(diags) != 0 {
					t.Errorf("want no gpu-fit diagnostic, got %v", diags)
				}
				return
			}
			if len(diags) != 1 {
				t.Fatalf("%d gpu-fit diagnostics, want 1: %v", len(diags), diags)
			}
			d := diags[0]
			if d.Severity != tt.severity || d.Line != tt.line || d.File != "results/test/runs/run/run.yaml" || d.Subject != "run" {
				t.Errorf("%s at %s:%d subject %q; want %s at line %d", d.Severity, d.File, d.Line, d.Subject, tt.severity, tt.line)
			}
			if !strings.Contains(d.Message, tt.message) {
				t.Errorf("message %q does not contain %q", d.Message, tt.message)
			}
		})
	}
}

func TestLogArithmetic(t *testing.T) {
	const file = "results/qwen3-235b-a22b-a100/runs/vllm-tp8/sharegpt.log"
	tests := []struct {
		name, label, value string
		line               int // of the diagnostic; 0 when quiet
		computed           string
	}{
		{"as published", "", "", 0, ""},
		{"request throughput", "Request throughput (req/s):", "9.30", 6, "9.17"},
		// 1000 / 109.00 s is 9.1743; even with the duration anywhere in
		// [108.995, 109.005] the rate stays below 9.175.
		{"request throughput one digit off", "Request throughput (req/s):", "9.18", 6, "9.17"},
		{"total token throughput", "Total Token throughput (tok/s):", "3800.00", 10, "3792.63"},
		{"output throughput", "Output token throughput (tok/s):", "1700.00", 7, "1798.20"},
		{"duration", "Benchmark duration (s):", "100.00", 6, "10.00"},
		// Within the rounding of the duration: 413397 / 108.995 = 3792.81.
		{"total within rounding", "Total Token throughput (tok/s):", "3792.80", 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text := sharegptLog
			if tt.label != "" {
				text = edit(t, text, tt.label, tt.value)
			}
			b := parseBlock(t, file, text)
			if b.Definition != benchlog.CountOverDuration {
				t.Fatalf("Definition = %q", b.Definition)
			}
			var diags []Diagnostic
			blockRules(&b, func(d Diagnostic) { diags = append(diags, d) })
			diags = byRule(diags, RuleArithmetic)
			if tt.line == 0 {
				if len(diags) != 0 {
					t.Errorf("want no log-arithmetic diagnostic, got %v", diags)
				}
				return
			}
			if len(diags) == 0 {
				t.Fatal("no log-arithmetic diagnostic")
			}
			d := diags[0]
			if d.File != file || d.Line != tt.line || d.Severity != Error || d.Computed != tt.computed {
				t.Errorf("%s at %s:%d, Computed %q; want error at line %d, Computed %q (%s)", d.Severity, d.File, d.Line, d.Computed, tt.line, tt.computed, d.Message)
			}
		})
	}
}

func TestLogArithmeticEveryRatio(t *testing.T) {
	// A duration that is off breaks all three ratios at once.
	b := parseBlock(t, "x.log", edit(t, sharegptLog, "Benchmark duration (s):", "100.00"))
	var diags []Diagnostic
	blockRules(&b, func(d Diagnostic) { diags = append(diags, d) })
	var lines []int
	for _, d := range byRule(diags, RuleArithmetic) {
		lines = append(lines, d.Line)
	}
	if len(lines) != 3 || lines[0] != 6 || lines[1] != 7 || lines[2] != 10 {
		t.Errorf("diagnostics at lines %v, want 6, 7, 10", lines)
	}
}

func TestLogArithmeticTimeSeriesMean(t *testing.T) {
	// guidellm throughputs are means over time: count/duration need not hold.
	b := parseBlock(t, "x.log", edit(t, sharegptLog, "Request throughput (req/s):", "20.00"))
	b.Definition = benchlog.TimeSeriesMean
	var diags []Diagnostic
	blockRules(&b, func(d Diagnostic) { diags = append(diags, d) })
	if d := byRule(diags, RuleArithmetic); len(d) != 0 {
		t.Errorf("log-arithmetic on a time-series-mean block: %v", d)
	}
}

func TestLogArithmeticThroughStudy(t *testing.T) {
	r := newRun("vllm-tp8", "vllm serve Qwen/Qwen3-32B -tp 8", 8, "")
	b := parseBlock(t, "results/test/runs/vllm-tp8/sharegpt.log", edit(t, sharegptLog, "Request throughput (req/s):", "9.30"))
	r.Logs = []study.Log{{Workload: "sharegpt", File: b.File, Blocks: []benchlog.Block{b}}}
	res := assessed(newStudy("Qwen/Qwen3-32B", 8, r))
	d := byRule(res.Diagnostics, RuleArithmetic)
	if len(d) != 1 || d[0].Study != "test" || d[0].Printed != "9.30" {
		t.Errorf("log-arithmetic through Study: %v", d)
	}
}

func TestPercentileOrder(t *testing.T) {
	tests := []struct {
		name, label, value string
		line               int
	}{
		{"as published", "", "", 0},
		{"P99 TTFT below median", "P99 TTFT (ms):", "30000.00", 14},
		{"P99 ITL below median", "P99 ITL (ms):", "80.00", 22},
		{"P99 equal to median", "P99 TPOT (ms):", "103.68", 0},
		{"median above P99", "Median TPOT (ms):", "500.00", 18},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text := sharegptLog
			if tt.label != "" {
				text = edit(t, text, tt.label, tt.value)
			}
			b := parseBlock(t, "x.log", text)
			var diags []Diagnostic
			blockRules(&b, func(d Diagnostic) { diags = append(diags, d) })
			diags = byRule(diags, RulePercentiles)
			if tt.line == 0 {
				if len(diags) != 0 {
					t.Errorf("want no percentile-order diagnostic, got %v", diags)
				}
				return
			}
			if len(diags) != 1 || diags[0].Line != tt.line || diags[0].Severity != Error || diags[0].File != "x.log" {
				t.Errorf("got %v, want one error at x.log:%d", diags, tt.line)
			}
		})
	}
}

func TestAcknowledgements(t *testing.T) {
	mismatch := func(acks ...study.Ack) Result {
		s := newStudy("Qwen/Qwen3-32B", 8, newRun("small", "trtllm-serve Qwen/Qwen3-14B", 1, ""))
		s.Acks = acks
		return assessed(s)
	}
	ackPos := study.Pos{File: studyFile, Line: 50}

	res := mismatch()
	if !Failed([]Result{res}) {
		t.Fatal("without an acknowledgement the mismatch must fail")
	}

	res = mismatch(study.Ack{Rule: RuleModel, Subject: "small", Reason: reasons(), Pos: ackPos})
	d := byRule(res.Diagnostics, RuleModel)
	if len(d) != 1 || !d[0].Acknowledged() || d[0].Ack.Reason["en"] != "Known." {
		t.Fatalf("acknowledged mismatch: %v", d)
	}
	if !strings.HasSuffix(d[0].String(), "(acknowledged)") {
		t.Errorf("String() = %q, want it to end in (acknowledged)", d[0].String())
	}
	if Failed([]Result{res}) {
		t.Errorf("acknowledged error still fails: %v", res.Diagnostics)
	}
	if len(res.Diagnostics) != 1 {
		t.Errorf("diagnostics %v, want only the acknowledged one", res.Diagnostics)
	}
	// An acknowledged model mismatch still excludes the run.
	if res.Report.Excluded["small"] != RuleModel {
		t.Errorf("Excluded = %v", res.Report.Excluded)
	}

	// Right rule, wrong subject; right subject, wrong rule.
	for _, ack := range []study.Ack{
		{Rule: RuleModel, Subject: "big", Reason: reasons(), Pos: ackPos},
		{Rule: RuleGPUFit, Subject: "small", Reason: reasons(), Pos: ackPos},
	} {
		res = mismatch(ack)
		if !Failed([]Result{res}) {
			t.Errorf("ack %s/%s accepted a model-mismatch on small", ack.Rule, ack.Subject)
		}
		unused := byRule(res.Diagnostics, RuleAckUnused)
		if len(unused) != 1 || unused[0].Severity != Warning || unused[0].File != studyFile || unused[0].Line != 50 {
			t.Errorf("ack %s/%s: ack-unused %v, want one warning at %s:50", ack.Rule, ack.Subject, unused, studyFile)
		}
	}

	// A reason missing in one language.
	r := reasons()
	delete(r, "ja")
	res = mismatch(study.Ack{Rule: RuleModel, Subject: "small", Reason: r, Pos: ackPos})
	lang := byRule(res.Diagnostics, RuleAckLanguage)
	if len(lang) != 1 || lang[0].Severity != Error || lang[0].Line != 50 || !strings.Contains(lang[0].Message, `"ja"`) {
		t.Fatalf("ack-translation: %v, want one error naming \"ja\" at line 50", lang)
	}
	if !Failed([]Result{res}) {
		t.Error("an ack without a ja reason must fail the check")
	}
	if d := byRule(res.Diagnostics, RuleModel); len(d) != 1 || !d[0].Acknowledged() {
		t.Errorf("the ack still applies: %v", d)
	}
	if d := byRule(res.Diagnostics, RuleAckUnused); len(d) != 0 {
		t.Errorf("used ack reported unused: %v", d)
	}
}

func TestWarningsDoNotFail(t *testing.T) {
	// 3 of 8 GPUs: compared unprojected, a warning.
	res := assessed(newStudy("Qwen/Qwen3-32B", 8, newRun("run", "vllm serve Qwen/Qwen3-32B -tp 3", 3, "")))
	if len(res.Diagnostics) != 1 || res.Diagnostics[0].Severity != Warning {
		t.Fatalf("diagnostics %v, want one warning", res.Diagnostics)
	}
	if Failed([]Result{res}) {
		t.Error("a warning fails the check")
	}
}

// claimStudy is the random-32k row of the Qwen3-32B study, with random-32k
// as the main workload so that its engine step compares the same logs.
func claimStudy(claims ...study.Claim) *study.Study {
	base := newRun("vllm", "vllm serve Qwen/Qwen3-32B", 1, "")
	opt := newRun("trtllm-chunked-prefill", "trtllm-serve Qwen/Qwen3-32B", 1, "")
	for _, x := range []struct {
		r   *study.Run
		raw string
		v   float64
	}{{base, "1798.45", 1798.45}, {opt, "1580.36", 1580.36}} {
		file := "results/test/runs/" + x.r.ID + "/random-32k.log"
		x.r.Logs = []study.Log{{Workload: "random-32k", File: file, Blocks: []benchlog.Block{{File: file, Line: 1,
			Metrics: map[string]benchlog.Metric{"total_token_throughput": {Value: x.v, Decimals: 2, Line: 10, Raw: x.raw}}}}}}
	}
	s := newStudy("Qwen/Qwen3-32B", 1, base, opt)
	s.Workloads[0].Main, s.Workloads[1].Main = false, true
	s.Baseline = study.Config{Runs: []string{"vllm"}}
	s.Recommended = study.Config{Runs: []string{"trtllm-chunked-prefill"}}
	s.Steps = []study.Step{{ID: "engine", Runs: []string{"vllm", "trtllm-chunked-prefill"}, Reference: "vllm"}}
	s.Claims = claims
	return s
}

func TestClaimDiagnostics(t *testing.T) {
	at := study.Pos{File: studyFile, Line: 40}
	res := assessed(claimStudy(study.Claim{Kind: study.ClaimConclusion, Workload: "random-32k", Printed: "-13.8%", Source: "qwen3-32b__a100.md:23", Pos: at}))
	d := byRule(res.Diagnostics, RuleClaim)
	if len(d) != 1 {
		t.Fatalf("claim-mismatch: %v", res.Diagnostics)
	}
	if d[0].File != studyFile || d[0].Line != 40 || d[0].Severity != Error {
		t.Errorf("at %s:%d (%s), want %s:40 error", d[0].File, d[0].Line, d[0].Severity, studyFile)
	}
	if d[0].Printed != "-13.8%" || d[0].Computed != "-12.1 %" || d[0].Subject != "conclusion/random-32k" {
		t.Errorf("Printed %q, Computed %q, Subject %q", d[0].Printed, d[0].Computed, d[0].Subject)
	}
	if !strings.Contains(d[0].Message, "qwen3-32b__a100.md:23") {
		t.Errorf("message %q does not say where the figure was published", d[0].Message)
	}

	// Quiet when right; the acknowledgement of the real study applies.
	// (The recommended run is slower here, so trade-off warns as well.)
	res = assessed(claimStudy(study.Claim{Kind: study.ClaimConclusion, Workload: "random-32k", Printed: "-12.1%", Pos: at}))
	if d := append(byRule(res.Diagnostics, RuleClaim), byRule(res.Diagnostics, RuleClaimUnproven)...); len(d) != 0 {
		t.Errorf("right claim: %v", d)
	}
	s := claimStudy(study.Claim{Kind: study.ClaimConclusion, Workload: "random-32k", Printed: "-13.8%", Pos: at})
	s.Acks = []study.Ack{{Rule: RuleClaim, Subject: "conclusion/random-32k", Reason: reasons(), Pos: study.Pos{File: studyFile, Line: 60}}}
	res = assessed(s)
	if d := byRule(res.Diagnostics, RuleClaim); Failed([]Result{res}) || len(d) != 1 || !d[0].Acknowledged() {
		t.Errorf("acknowledged claim: %v", res.Diagnostics)
	}
	if d := byRule(res.Diagnostics, RuleAckUnused); len(d) != 0 {
		t.Errorf("used ack reported unused: %v", d)
	}

	// Subjects of step and ranking claims.
	res = assessed(claimStudy(
		study.Claim{Kind: study.ClaimStep, Step: "engine", Printed: "+13.8%", Pos: study.Pos{File: studyFile, Line: 41}},
		study.Claim{Kind: study.ClaimRanking, Step: "engine", Printed: "TensorRT-LLM (1580.36 tok/s) > vLLM (1798.45 tok/s)", Pos: study.Pos{File: studyFile, Line: 42}},
	))
	d = byRule(res.Diagnostics, RuleClaim)
	if len(d) != 2 || d[0].Subject != "step/engine" || d[0].Line != 41 || d[1].Subject != "ranking/engine" || d[1].Line != 42 {
		t.Fatalf("step and ranking claims: %v", d)
	}
	if d[0].Computed != "-12.1 %" || d[1].Computed != "VLLM (1798.45 tok/s) > TRTLLM-CHUNKED-PREFILL (1580.36 tok/s)" {
		t.Errorf("Computed %q and %q", d[0].Computed, d[1].Computed)
	}
}

func TestClaimUnproven(t *testing.T) {
	res := assessed(claimStudy(study.Claim{Kind: study.ClaimConclusion, Workload: "sharegpt", Printed: "+18.7%", Source: "qwen3-32b__a100.md:19", Pos: study.Pos{File: studyFile, Line: 33}}))
	d := byRule(res.Diagnostics, RuleClaimUnproven)
	if len(d) != 1 {
		t.Fatalf("claim-unproven: %v", res.Diagnostics)
	}
	if d[0].Line != 33 || d[0].File != studyFile || d[0].Printed != "+18.7%" || d[0].Subject != "conclusion/sharegpt" || d[0].Severity != Error {
		t.Errorf("claim-unproven: %+v", d[0])
	}
	if !strings.Contains(d[0].Message, "sharegpt") || !strings.Contains(d[0].Message, "qwen3-32b__a100.md:19") {
		t.Errorf("message %q", d[0].Message)
	}
	if len(byRule(res.Diagnostics, RuleClaim)) != 0 {
		t.Error("an unproven claim is also reported as a mismatch")
	}
}

func TestDiagnosticString(t *testing.T) {
	d := Diagnostic{File: "a/run.yaml", Line: 3, Rule: RuleModel, Message: "m"}
	if got := d.String(); got != "a/run.yaml:3: model-mismatch: m" {
		t.Errorf("String() = %q", got)
	}
}

func TestProblems(t *testing.T) {
	d := Problems([]study.Problem{{Pos: study.Pos{File: studyFile, Line: 7}, Msg: "unknown key foo"}})
	if len(d) != 1 || d[0].Rule != RuleSchema || d[0].Severity != Error || d[0].Line != 7 || d[0].File != studyFile {
		t.Errorf("Problems = %v", d)
	}
}

func TestAllSortsStudies(t *testing.T) {
	a, b := newStudy("Qwen/Qwen3-32B", 8), newStudy("Qwen/Qwen3-32B", 8)
	a.ID, b.ID = "b-study", "a-study"
	res := assessAll([]*study.Study{a, b})
	if res[0].Study.ID != "a-study" || res[1].Study.ID != "b-study" {
		t.Errorf("All order: %s, %s", res[0].Study.ID, res[1].Study.ID)
	}
}

func TestLogParse(t *testing.T) {
	blockDiags := func(t *testing.T, text string) []Diagnostic {
		b := parseBlock(t, "x.log", text)
		var diags []Diagnostic
		blockRules(&b, func(d Diagnostic) { diags = append(diags, d) })
		return byRule(diags, RuleLogParse)
	}
	if d := blockDiags(t, sharegptLog); len(d) != 0 {
		t.Errorf("published block: %v", d)
	}
	// A count with a thousands separator is not read: the line is reported.
	d := blockDiags(t, edit(t, sharegptLog, "Successful requests:", "1,000"))
	if len(d) != 1 || d[0].Line != 2 || d[0].File != "x.log" || d[0].Severity != Error || !strings.Contains(d[0].Message, `"1,000"`) {
		t.Errorf("1,000: %v, want one error at x.log:2 quoting the value", d)
	}
	// A banner over lines that are not a serving result.
	other := "============ Serving Benchmark Result ============\n" +
		"Elapsed time: 60.0 s\n" +
		"Requests per second: 8.33\n" +
		"Average response time: 1.20 s\n" +
		"==================================================\n"
	d = blockDiags(t, other)
	if len(d) == 0 {
		t.Fatal("unknown block: no log-parse diagnostic")
	}
	for _, x := range d {
		if x.Line != 1 || x.Severity != Error {
			t.Errorf("unknown block: %v, want errors at its banner line", x)
		}
	}
}

// copyStudy has runs a and b whose sharegpt blocks are the same text.
func copyStudy(acks ...study.Ack) *study.Study {
	a := newRun("a", "vllm serve Qwen/Qwen3-32B", 1, "")
	b := newRun("b", "vllm serve Qwen/Qwen3-32B --max-num-seqs 512", 1, "")
	for _, r := range []*study.Run{a, b} {
		file := "results/test/runs/" + r.ID + "/sharegpt.log"
		blocks, _ := benchlog.Parse(file, strings.NewReader(sharegptLog))
		r.Logs = []study.Log{{Workload: "sharegpt", File: file, Blocks: blocks}}
	}
	s := newStudy("Qwen/Qwen3-32B", 1, a, b)
	s.Acks = acks
	return s
}

func TestCopiedBlock(t *testing.T) {
	res := assessAll([]*study.Study{copyStudy()})[0]
	d := byRule(res.Diagnostics, RuleCopy)
	if len(d) != 1 || d[0].File != "results/test/runs/b/sharegpt.log" || d[0].Line != 1 || d[0].Subject != "b/sharegpt" || d[0].Severity != Error {
		t.Fatalf("copied-block: %v", d)
	}
	// The same configuration printed again (a later step's starting point,
	// --port aside) is the same run, not a copy.
	same := copyStudy()
	same.Runs[1].Command = "vllm serve Qwen/Qwen3-32B --port 8001"
	if d := byRule(assessAll([]*study.Study{same})[0].Diagnostics, RuleCopy); len(d) != 0 {
		t.Errorf("one configuration printed twice: copied-block %v", d)
	}
	// Acknowledged after the study's own pass: used, not reported unused.
	for _, subject := range []string{"b/sharegpt", "b/*"} {
		res = assessAll([]*study.Study{copyStudy(study.Ack{Rule: RuleCopy, Subject: subject, Reason: reasons(), Pos: study.Pos{File: studyFile, Line: 70}})})[0]
		if d := byRule(res.Diagnostics, RuleCopy); len(d) != 1 || !d[0].Acknowledged() {
			t.Errorf("ack %s: copied-block %v, want it acknowledged", subject, d)
		}
		if d := byRule(res.Diagnostics, RuleAckUnused); len(d) != 0 {
			t.Errorf("ack %s: used acknowledgement reported unused: %v", subject, d)
		}
	}
	// An acknowledgement of another block stays unused.
	res = assessAll([]*study.Study{copyStudy(study.Ack{Rule: RuleCopy, Subject: "a/sharegpt", Reason: reasons(), Pos: study.Pos{File: studyFile, Line: 70}})})[0]
	if d := byRule(res.Diagnostics, RuleAckUnused); len(d) != 1 || d[0].Line != 70 {
		t.Errorf("ack of a/sharegpt: ack-unused %v, want one at line 70", d)
	}
}

// A claim that rests on an excluded run is reported once, on the run: the
// claim itself is a warning, never a second error.
func TestClaimOnExcludedRunIsAWarning(t *testing.T) {
	s := newStudy("Qwen/Qwen3-32B", 1,
		newRun("sglang", "python3 -m sglang.launch_server --model-path Qwen/Qwen3-32B --tp 2", 1, "2000.00"),
		newRun("vllm", "vllm serve Qwen/Qwen3-32B", 1, "1000.00"),
	)
	s.Steps = []study.Step{{ID: "engine", Runs: []string{"vllm", "sglang"}, Reference: "vllm"}}
	s.Claims = []study.Claim{
		{Kind: study.ClaimRanking, Step: "engine", Printed: "SGLang (2000.00 tok/s) > vLLM (1000.00 tok/s)", Pos: study.Pos{File: studyFile, Line: 20}},
		{Kind: study.ClaimStep, Step: "engine", Printed: "+100.0%", Pos: study.Pos{File: studyFile, Line: 21}},
	}
	res := assessed(s)
	if fit := byRule(res.Diagnostics, RuleGPUFit); len(fit) != 1 || fit[0].Severity != Error {
		t.Fatalf("want one gpu-fit error for sglang (-tp 2 on one GPU): %v", res.Diagnostics)
	}
	for _, d := range res.Diagnostics {
		if d.Rule == RuleClaim || d.Rule == RuleClaimUnproven && d.Severity == Error {
			t.Errorf("a claim on the excluded run is an error: %s", d.Message)
		}
	}
	warned := 0
	for _, d := range byRule(res.Diagnostics, RuleClaimUnproven) {
		if d.Severity == Warning && strings.Contains(d.Message, "run sglang, which is excluded") {
			warned++
		}
	}
	if warned != 2 {
		t.Errorf("%d warnings naming the excluded run, want 2: %v", warned, res.Diagnostics)
	}
}
