package check

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/benchlog"
	"github.com/perflab/perflab/internal/study"
)

// The tests of this file cover the rules of study_rules.go that look across
// a study's runs: requests-failed, same-data, trade-off and implausible.

const model32B = "Qwen/Qwen3-32B"

// logRun is a run on gpus GPUs whose log of workload is text, parsed.
func logRun(t *testing.T, id string, gpus int, workload, text string) *study.Run {
	t.Helper()
	r := newRun(id, "vllm serve "+model32B, gpus, "")
	file := "results/test/runs/" + id + "/" + workload + ".log"
	blocks, err := benchlog.Parse(file, strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	if len(blocks) == 0 {
		t.Fatalf("no block in %s", file)
	}
	r.Logs = []study.Log{{Workload: workload, File: file, Raw: []byte(text), Blocks: blocks}}
	return r
}

// insertAfter inserts line after the line of text that starts with label.
func insertAfter(t *testing.T, text, label, line string) string {
	t.Helper()
	i := strings.Index(text, "\n"+label)
	if i < 0 {
		t.Fatalf("no line %q", label)
	}
	end := i + 1 + strings.IndexByte(text[i+1:], '\n')
	return text[:end+1] + line + "\n" + text[end+1:]
}

// dropLine removes the line of text that starts with label.
func dropLine(t *testing.T, text, label string) string {
	t.Helper()
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, label) {
			return strings.Join(append(lines[:i], lines[i+1:]...), "\n")
		}
	}
	t.Fatalf("no line %q", label)
	return ""
}

// readFile reads a file of the repository, relative to this package.
func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// wantDiag checks one diagnostic's rule, severity, file, line and subject,
// and that its message contains every one of parts.
func wantDiag(t *testing.T, d Diagnostic, rule string, sev Severity, file string, line int, subject string, parts ...string) {
	t.Helper()
	if d.Rule != rule || d.Severity != sev || d.File != file || d.Line != line || d.Subject != subject {
		t.Errorf("got %s %s at %s:%d subject %q; want %s %s at %s:%d subject %q (%s)",
			d.Severity, d.Rule, d.File, d.Line, d.Subject, sev, rule, file, line, subject, d.Message)
	}
	if d.Study != "test" {
		t.Errorf("Study = %q, want test", d.Study)
	}
	for _, p := range parts {
		if !strings.Contains(d.Message, p) {
			t.Errorf("message %q does not contain %q", d.Message, p)
		}
	}
}

const failedLine = "Failed requests:                         "

func TestRequestsFailed(t *testing.T) {
	const file = "results/test/runs/r/sharegpt.log"
	trt := readFile(t, "../benchlog/testdata/trtllm_serve.txt")
	tests := []struct {
		name       string
		text       string
		numPrompts int // the workload's num_prompts
		line       int // of the diagnostic; 0: none expected
		printed    string
		sent       string
	}{
		{"failed count", insertAfter(t, edit(t, sharegptLog, "Successful requests:", "990"), "Successful requests:", failedLine+"10"),
			0, 2, "990", "1000"},
		{"failed count wins over the workload's num_prompts", insertAfter(t, edit(t, sharegptLog, "Successful requests:", "990"), "Successful requests:", failedLine+"10"),
			2000, 2, "990", "1000"},
		// TensorRT-LLM prints Total requests: 100, Successful requests: 98.
		{"trt-llm total requests", dropLine(t, trt, "Failed requests:"), 0, 5, "98", "100"},
		{"trt-llm total requests with failed count", trt, 0, 5, "98", "100"},
		{"trt-llm total requests, failed printed as zero", edit(t, trt, "Failed requests:", "0"), 0, 5, "98", "100"},
		{"workload num_prompts", edit(t, sharegptLog, "Successful requests:", "990"), 1000, 2, "990", "1000"},

		{"all succeeded", sharegptLog, 1000, 0, "", ""},
		{"all succeeded, failed printed as zero", insertAfter(t, sharegptLog, "Successful requests:", failedLine+"0"), 1000, 0, "", ""},
		{"no num_prompts published", edit(t, sharegptLog, "Successful requests:", "990"), 0, 0, "", ""},
		{"trt-llm all succeeded", edit(t, edit(t, trt, "Successful requests:", "100"), "Failed requests:", "0"), 100, 0, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newStudy(model32B, 1, logRun(t, "r", 1, "sharegpt", tt.text))
			s.Workloads[0].NumPrompts = tt.numPrompts
			res := assessed(s)
			d := byRule(res.Diagnostics, RuleRequests)
			if tt.line == 0 {
				if len(d) != 0 {
					t.Errorf("want no requests-failed, got %v", d)
				}
				return
			}
			if len(d) != 1 {
				t.Fatalf("%d requests-failed diagnostics, want 1: %v", len(d), res.Diagnostics)
			}
			wantDiag(t, d[0], RuleRequests, Warning, file, tt.line, "r/sharegpt",
				"run r completed "+tt.printed+" of "+tt.sent+" requests on sharegpt")
			if d[0].Printed != tt.printed || d[0].Computed != tt.sent {
				t.Errorf("Printed %q, Computed %q; want %q, %q", d[0].Printed, d[0].Computed, tt.printed, tt.sent)
			}
		})
	}
	// The TRT-LLM block is recognised as such: its total is num_prompts.
	b := parseBlock(t, "x.log", dropLine(t, trt, "Failed requests:"))
	if b.Format != benchlog.FormatTRTLLMServe || b.Metrics["num_prompts"].Value != 100 {
		t.Errorf("format %q, num_prompts %v", b.Format, b.Metrics["num_prompts"])
	}

	// Acknowledged with a pattern over the run's workloads; a warning never fails.
	s := newStudy(model32B, 1, logRun(t, "r", 1, "sharegpt", edit(t, sharegptLog, "Successful requests:", "990")))
	s.Workloads[0].NumPrompts = 1000
	s.Acks = []study.Ack{{Rule: RuleRequests, Subject: "r/*", Reason: reasons(), Pos: study.Pos{File: studyFile, Line: 80}}}
	res := assessed(s)
	if d := byRule(res.Diagnostics, RuleRequests); len(d) != 1 || !d[0].Acknowledged() {
		t.Errorf("acknowledged requests-failed: %v", d)
	}
	if d := byRule(res.Diagnostics, RuleAckUnused); len(d) != 0 {
		t.Errorf("used acknowledgement reported unused: %v", d)
	}
}

// sameDataStudy has one sharegpt run per entry of tokens, named r0, r1, ...,
// printing that many total input tokens; a run in failed has 5 failed
// requests, a run in other serves another model.
func sameDataStudy(t *testing.T, tokens []string, failed, other map[int]bool) *study.Study {
	t.Helper()
	var runs []*study.Run
	for i, tok := range tokens {
		text := edit(t, sharegptLog, "Total input tokens:", tok)
		if failed[i] {
			text = insertAfter(t, text, "Successful requests:", failedLine+"5")
		}
		r := logRun(t, "r"+string(rune('0'+i)), 8, "sharegpt", text)
		if other[i] {
			r.Command = "vllm serve Qwen/Qwen3-14B -tp 8"
		} else {
			r.Command = "vllm serve " + model32B + " -tp 8"
		}
		runs = append(runs, r)
	}
	return newStudy(model32B, 8, runs...)
}

func TestSameData(t *testing.T) {
	res := assessed(sameDataStudy(t, []string{"217393", "217393", "215000", "217393"}, nil, nil))
	d := byRule(res.Diagnostics, RuleSameData)
	if len(d) != 1 {
		t.Fatalf("%d same-data diagnostics, want 1: %v", len(d), res.Diagnostics)
	}
	wantDiag(t, d[0], RuleSameData, Error, "results/test/runs/r2/sharegpt.log", 4, "r2/sharegpt",
		"run r2 sent 215000 input tokens on sharegpt", "3 other runs", "217393")
	if d[0].Printed != "215000" || d[0].Computed != "217393" {
		t.Errorf("Printed %q, Computed %q", d[0].Printed, d[0].Computed)
	}
	if !Failed([]Result{res}) {
		t.Error("an unacknowledged same-data error must fail the check")
	}

	// Acknowledged with its subject.
	s := sameDataStudy(t, []string{"217393", "217393", "215000", "217393"}, nil, nil)
	s.Acks = []study.Ack{{Rule: RuleSameData, Subject: "r2/sharegpt", Reason: reasons(), Pos: study.Pos{File: studyFile, Line: 81}}}
	res = assessed(s)
	// (Its edited token count also breaks the block's arithmetic, which
	// cannot be acknowledged: only same-data is looked at.)
	if d := byRule(res.Diagnostics, RuleSameData); len(d) != 1 || !d[0].Acknowledged() {
		t.Errorf("acknowledged same-data: %v", res.Diagnostics)
	}

	quiet := []struct {
		name          string
		tokens        []string
		failed, other map[int]bool
	}{
		{"all the same", []string{"217393", "217393", "217393", "217393"}, nil, nil},
		{"the run that differs has failed requests", []string{"217393", "217393", "215000", "217393"}, map[int]bool{2: true}, nil},
		{"the run that differs is excluded", []string{"217393", "217393", "215000", "217393"}, nil, map[int]bool{2: true}},
		// Excluded runs do not vote either: without exclusion r0 and r1
		// would be the odd ones out.
		{"excluded runs are the majority", []string{"217393", "217393", "215000", "215000", "215000"}, nil, map[int]bool{2: true, 3: true, 4: true}},
		{"a single run", []string{"215000"}, nil, nil},
	}
	for _, tt := range quiet {
		t.Run(tt.name, func(t *testing.T) {
			res := assessed(sameDataStudy(t, tt.tokens, tt.failed, tt.other))
			if d := byRule(res.Diagnostics, RuleSameData); len(d) != 0 {
				t.Errorf("want no same-data, got %v", d)
			}
		})
	}
	// The excluded runs were excluded by model-mismatch, not silently.
	res = assessed(sameDataStudy(t, []string{"217393", "217393", "215000", "215000", "215000"}, nil, map[int]bool{2: true, 3: true, 4: true}))
	if d := byRule(res.Diagnostics, RuleModel); len(d) != 3 {
		t.Errorf("model-mismatch: %v, want 3", d)
	}
}

// tradeOffStudy has baseline run "base" and recommended run "opt", each with
// a sharegpt and a random-32k log; m gives each run's metrics as printed.
func tradeOffStudy(m map[string]map[string]string, acks ...study.Ack) *study.Study {
	var runs []*study.Run
	for _, id := range []string{"base", "opt"} {
		r := newRun(id, "vllm serve "+model32B, 1, "")
		for _, w := range []string{"sharegpt", "random-32k"} {
			file := "results/test/runs/" + id + "/" + w + ".log"
			metrics := map[string]benchlog.Metric{}
			line := 10
			for key, raw := range m[id] {
				v, _ := strconv.ParseFloat(raw, 64)
				dec := 0
				if i := strings.IndexByte(raw, '.'); i >= 0 {
					dec = len(raw) - i - 1
				}
				metrics[key] = benchlog.Metric{Value: v, Decimals: dec, Line: line, Raw: raw}
				line++
			}
			r.Logs = append(r.Logs, study.Log{Workload: w, File: file, Blocks: []benchlog.Block{{File: file, Line: 1,
				Format: benchlog.FormatVLLM, Definition: benchlog.CountOverDuration, Metrics: metrics}}})
		}
		runs = append(runs, r)
	}
	s := newStudy(model32B, 1, runs...)
	s.Baseline = study.Config{Runs: []string{"base"}, Pos: study.Pos{File: studyFile, Line: 19}}
	s.Recommended = study.Config{Runs: []string{"opt"}, Pos: study.Pos{File: studyFile, Line: 20}}
	s.Acks = acks
	return s
}

// metrics is one run's headline, mean TTFT and mean TPOT.
func metrics(tput, ttft, tpot string) map[string]string {
	return map[string]string{"total_token_throughput": tput, "mean_ttft_ms": ttft, "mean_tpot_ms": tpot}
}

func TestTradeOff(t *testing.T) {
	base := metrics("1798.45", "100.00", "50.00")
	fires := []struct {
		name string
		opt  map[string]string
		want []string
	}{
		{"slower", metrics("1580.36", "100.00", "50.00"), []string{"total_token_throughput -12.1 %"}},
		{"mean TPOT grows", metrics("2000.00", "100.00", "60.00"), []string{"mean_tpot_ms +20.0 % (50.00 -> 60.00 ms)"}},
		{"mean TTFT grows", metrics("2000.00", "150.00", "50.00"), []string{"mean_ttft_ms +50.0 % (100.00 -> 150.00 ms)"}},
		{"just above the threshold", metrics("2000.00", "110.01", "50.00"), []string{"mean_ttft_ms +10.0 % (100.00 -> 110.01 ms)"}},
		{"every cost at once", metrics("1580.36", "150.00", "60.00"), []string{"total_token_throughput -12.1 %", "mean_ttft_ms +50.0 %", "mean_tpot_ms +20.0 %"}},
	}
	for _, tt := range fires {
		t.Run(tt.name, func(t *testing.T) {
			res := assessed(tradeOffStudy(map[string]map[string]string{"base": base, "opt": tt.opt}))
			d := byRule(res.Diagnostics, RuleTradeOff)
			if len(d) != 2 {
				t.Fatalf("%d trade-off diagnostics, want one per workload: %v", len(d), res.Diagnostics)
			}
			// Sorted by message: random-32k before sharegpt.
			for i, w := range []string{"random-32k", "sharegpt"} {
				wantDiag(t, d[i], RuleTradeOff, Warning, studyFile, 20, "conclusion/"+w,
					append([]string{"on " + w + " the recommended configuration is worse"}, tt.want...)...)
			}
			if Failed([]Result{res}) {
				t.Error("a trade-off warning fails the check")
			}
		})
	}

	quiet := []struct {
		name string
		opt  map[string]string
	}{
		{"faster, same latency", metrics("2000.00", "100.00", "50.00")},
		{"latency exactly at the threshold", metrics("2000.00", "110.00", "55.00")},
		{"latency below the threshold", metrics("2000.00", "105.00", "52.50")},
		{"latency better", metrics("2000.00", "80.00", "40.00")},
		{"same headline", metrics("1798.45", "100.00", "50.00")},
	}
	for _, tt := range quiet {
		t.Run(tt.name, func(t *testing.T) {
			res := assessed(tradeOffStudy(map[string]map[string]string{"base": base, "opt": tt.opt}))
			if d := byRule(res.Diagnostics, RuleTradeOff); len(d) != 0 {
				t.Errorf("want no trade-off, got %v", d)
			}
		})
	}

	// Without a baseline TTFT there is nothing to compare it with.
	res := assessed(tradeOffStudy(map[string]map[string]string{
		"base": {"total_token_throughput": "1798.45"}, "opt": metrics("2000.00", "900.00", "900.00")}))
	if d := byRule(res.Diagnostics, RuleTradeOff); len(d) != 0 {
		t.Errorf("no baseline latency: %v", d)
	}

	// One acknowledgement with a pattern acknowledges every row.
	ack := study.Ack{Rule: RuleTradeOff, Subject: "conclusion/*", Reason: reasons(), Pos: study.Pos{File: studyFile, Line: 90}}
	res = assessed(tradeOffStudy(map[string]map[string]string{"base": base, "opt": metrics("1580.36", "150.00", "60.00")}, ack))
	d := byRule(res.Diagnostics, RuleTradeOff)
	if len(d) != 2 {
		t.Fatalf("acknowledged: %d trade-off diagnostics, want 2", len(d))
	}
	for _, x := range d {
		if !x.Acknowledged() || x.Ack.Subject != "conclusion/*" || x.Ack.Reason["en"] != "Known." {
			t.Errorf("%s not acknowledged: %+v", x.Subject, x.Ack)
		}
	}
	if u := byRule(res.Diagnostics, RuleAckUnused); len(u) != 0 {
		t.Errorf("used acknowledgement reported unused: %v", u)
	}
	// The same acknowledgement with nothing to accept is unused.
	res = assessed(tradeOffStudy(map[string]map[string]string{"base": base, "opt": metrics("2000.00", "100.00", "50.00")}, ack))
	if u := byRule(res.Diagnostics, RuleAckUnused); len(u) != 1 || u[0].Line != 90 {
		t.Errorf("ack-unused: %v, want one at line 90", u)
	}
}

func TestTradeOffLatencyObjective(t *testing.T) {
	// The headline is mean E2EL: lower is better.
	mk := func(opt string) *study.Study {
		s := tradeOffStudy(map[string]map[string]string{
			"base": {"mean_e2el_ms": "2000.00", "total_token_throughput": "1000.00"},
			"opt":  {"mean_e2el_ms": opt, "total_token_throughput": "1000.00"},
		})
		s.Objective = study.Latency
		return s
	}
	if d := byRule(assessed(mk("1500.00")).Diagnostics, RuleTradeOff); len(d) != 0 {
		t.Errorf("lower latency: %v", d)
	}
	d := byRule(assessed(mk("2500.00")).Diagnostics, RuleTradeOff)
	if len(d) != 2 {
		t.Fatalf("higher latency: %v, want one per workload", d)
	}
	wantDiag(t, d[0], RuleTradeOff, Warning, studyFile, 20, "conclusion/random-32k", "mean_e2el_ms +25.0 %")
}

func TestImplausible(t *testing.T) {
	const file = "results/test/runs/r/sharegpt.log"
	tests := []struct {
		name, label, value string
		gpus               int
		severity           Severity
		line               int // 0: none expected
		want               string
	}{
		{"zero output throughput", "Output token throughput (tok/s):", "0.00", 8, Error, 7, "output_throughput is 0.00"},
		{"zero total throughput", "Total Token throughput (tok/s):", "0.00", 8, Error, 10, "total_token_throughput is 0.00"},
		{"zero request throughput", "Request throughput (req/s):", "0.00", 8, Error, 6, "request_throughput is 0.00"},
		{"P99 TTFT above the duration", "P99 TTFT (ms):", "200000.00", 8, Error, 14, "p99_ttft_ms is 200000.00 ms, longer than the whole benchmark (109.00 s)"},
		{"mean TTFT above the duration", "Mean TTFT (ms):", "110000.00", 8, Error, 12, "mean_ttft_ms is 110000.00 ms"},
		{"peak beyond 1e6 tok/s on a node", "Peak output token throughput (tok/s):", "8000001.00", 8, Error, 8, "max_output_tokens_per_s 8000001.00 tok/s on 1 node(s) is beyond what a node reaches"},
		{"peak beyond 1e6 tok/s on one GPU", "Peak output token throughput (tok/s):", "1500000.00", 1, Error, 8, "on 1 node(s)"},
		{"peak of 100M tok/s", "Peak output token throughput (tok/s):", "100000000.00", 8, Error, 8, "beyond what a node reaches"},
		{"median ITL of zero", "Median ITL (ms):", "0.00", 8, Warning, 21, "median_itl_ms is 0.00 while requests produced more than one output token each"},

		{"TTFT equal to the duration", "P99 TTFT (ms):", "109000.00", 8, "", 0, ""},
		{"peak at 1e6 tok/s on a node", "Peak output token throughput (tok/s):", "1000000.00", 8, "", 0, ""},
		{"as published", "", "", 8, "", 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text := sharegptLog
			if tt.label != "" {
				text = edit(t, text, tt.label, tt.value)
			}
			s := newStudy(model32B, 8, logRun(t, "r", tt.gpus, "sharegpt", text))
			d := byRule(assessed(s).Diagnostics, RulePlausibility)
			if tt.line == 0 {
				if len(d) != 0 {
					t.Errorf("want no implausible, got %v", d)
				}
				return
			}
			if len(d) != 1 {
				t.Fatalf("%d implausible diagnostics, want 1: %v", len(d), d)
			}
			wantDiag(t, d[0], RulePlausibility, tt.severity, file, tt.line, "r", tt.want)
		})
	}

	// guidellm prints peaks over a time series: 20132659.20 tok/s on one GPU
	// is what it printed, not an edit.
	guide := readFile(t, "../benchlog/testdata/guidellm_gpustack.txt")
	r := logRun(t, "r", 1, "sharegpt", guide)
	if b := r.Logs[0].Blocks[0]; b.Definition != benchlog.TimeSeriesMean || b.Metrics["max_output_tokens_per_s"].Value < 2e7 {
		t.Fatalf("guidellm block: Definition %q, peak %v", b.Definition, b.Metrics["max_output_tokens_per_s"])
	}
	if d := byRule(assessed(newStudy(model32B, 1, r)).Diagnostics, RulePlausibility); len(d) != 0 {
		t.Errorf("guidellm block: %v", d)
	}
	// The same values read as counts over the duration are implausible.
	r.Logs[0].Blocks[0].Definition = benchlog.CountOverDuration
	d := byRule(assessed(newStudy(model32B, 1, r)).Diagnostics, RulePlausibility)
	if len(d) == 0 || d[0].Severity != Error || d[0].Line != 11 {
		t.Errorf("guidellm values as count/duration: %v, want an error at line 11", d)
	}

	// The real block of results/, on its run's 8 GPUs.
	const real = "../../results/qwen3-235b-a22b-a100/runs/vllm-tp8/sharegpt.log"
	r = logRun(t, "vllm-tp8", 8, "sharegpt", readFile(t, real))
	s := newStudy("Qwen/Qwen3-235B-A22B-Instruct-2507", 8, r)
	r.Command = "vllm serve Qwen/Qwen3-235B-A22B-Instruct-2507 -tp 8"
	s.Workloads[0].NumPrompts = 1000
	res := assessed(s)
	if len(res.Diagnostics) != 0 {
		t.Errorf("real block: %v", res.Diagnostics)
	}

	// Acknowledged with the run id.
	s = newStudy(model32B, 8, logRun(t, "r", 8, "sharegpt", edit(t, sharegptLog, "Output token throughput (tok/s):", "0.00")))
	s.Acks = []study.Ack{{Rule: RulePlausibility, Subject: "r", Reason: reasons(), Pos: study.Pos{File: studyFile, Line: 95}}}
	res = assessed(s)
	if d := byRule(res.Diagnostics, RulePlausibility); len(d) != 1 || !d[0].Acknowledged() {
		t.Errorf("acknowledged implausible: %v", d)
	}
}

func TestCopiedBlockQuiet(t *testing.T) {
	// Blocks that differ in one value are not copies.
	a := logRun(t, "a", 1, "sharegpt", sharegptLog)
	b := logRun(t, "b", 1, "sharegpt", edit(t, sharegptLog, "P99 ITL (ms):", "185.42"))
	res := assessAll([]*study.Study{newStudy(model32B, 1, a, b)})[0]
	if d := byRule(res.Diagnostics, RuleCopy); len(d) != 0 {
		t.Errorf("blocks that differ: %v", d)
	}
	// The same block twice in one run's logs is not a copy of another run's.
	c := logRun(t, "c", 1, "sharegpt", sharegptLog)
	c.Logs = append(c.Logs, study.Log{Workload: "random-32k", File: "results/test/runs/c/random-32k.log", Blocks: c.Logs[0].Blocks})
	res = assessAll([]*study.Study{newStudy(model32B, 1, c)})[0]
	if d := byRule(res.Diagnostics, RuleCopy); len(d) != 0 {
		t.Errorf("one run's own block: %v", d)
	}
	// A copy across studies is reported in the study that has the later one.
	s1, s2 := newStudy(model32B, 1, logRun(t, "a", 1, "sharegpt", sharegptLog)), newStudy(model32B, 1, logRun(t, "a", 1, "sharegpt", sharegptLog))
	s1.ID, s2.ID = "test", "zz-other"
	all := assessAll([]*study.Study{s2, s1})
	if d := byRule(all[0].Diagnostics, RuleCopy); len(d) != 0 {
		t.Errorf("first study: %v", d)
	}
	if d := byRule(all[1].Diagnostics, RuleCopy); len(d) != 1 || d[0].Study != "zz-other" || d[0].Subject != "a/sharegpt" || !strings.Contains(d[0].Message, "results/test/runs/a/sharegpt.log:1 (run a)") {
		t.Errorf("second study: %v", d)
	}
}

// On a random dataset the client's token round trip moves a few tokens per
// prompt: within 1 % or 4 tokens per request (1000 here) is the same data,
// beyond it is not.
func TestSameDataRandomSlack(t *testing.T) {
	for _, tc := range []struct {
		odd  string
		want int
	}{{"216500", 0}, {"214000", 0}, {"212000", 1}} {
		s := sameDataStudy(t, []string{"217393", "217393", tc.odd}, nil, nil)
		s.Workloads[0].Dataset = "random"
		if d := byRule(assessed(s).Diagnostics, RuleSameData); len(d) != tc.want {
			t.Errorf("random workload, %s against 217393: %d same-data diagnostics, want %d", tc.odd, len(d), tc.want)
		}
		s.Workloads[0].Dataset = "sharegpt"
		if d := byRule(assessed(s).Diagnostics, RuleSameData); len(d) != 1 {
			t.Errorf("sharegpt workload, %s against 217393: %d same-data diagnostics, want 1", tc.odd, len(d))
		}
	}
}
