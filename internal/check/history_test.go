package check

import (
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/benchlog"
	"github.com/perflab/perflab/internal/study"
)

// historyOf returns the logs of newRun's sharegpt log with another
// throughput, as a history version of run id.
func historyOf(t *testing.T, id, version, throughput string) study.History {
	t.Helper()
	v, err := study.ParseVersion(version)
	if err != nil {
		t.Fatal(err)
	}
	h := newRun(id, "", 8, throughput)
	dir := "results/test/runs/" + id + "/history/" + version
	for i := range h.Logs {
		h.Logs[i].File = dir + "/sharegpt.log"
		h.Logs[i].Blocks[0].File = h.Logs[i].File
	}
	return study.History{Version: v, Dir: dir, Logs: h.Logs}
}

func regressionStudy(t *testing.T, old, current string) *study.Study {
	r := newRun("vllm", "vllm serve Qwen/Qwen3-32B -tp 8", 8, current)
	r.History = []study.History{historyOf(t, "vllm", "v0.10.1", old)}
	s := newStudy("Qwen/Qwen3-32B", 8, r)
	s.Engines = []study.Engine{{ID: "vllm", Name: "vLLM", Version: "v0.11.0"}}
	s.Baseline, s.Recommended = study.Config{Runs: []string{"vllm"}}, study.Config{Runs: []string{"vllm"}}
	return s
}

func TestRegression(t *testing.T) {
	res := assessed(regressionStudy(t, "1000.00", "900.00"))
	got := byRule(res.Diagnostics, RuleRegression)
	if len(got) != 1 {
		t.Fatalf("regression diagnostics = %v, want one", got)
	}
	d := got[0]
	if d.Severity != Warning || d.File != "results/test/runs/vllm/sharegpt.log" || d.Line != 10 || d.Subject != "vllm/sharegpt@v0.11.0" {
		t.Errorf("diagnostic = %+v", d)
	}
	for _, want := range []string{"900.00 tok/s on v0.11.0 against 1000.00", "-10.0 %", "subject vllm/sharegpt@v0.11.0"} {
		if !strings.Contains(d.Message, want) {
			t.Errorf("message %q lacks %q", d.Message, want)
		}
	}
}

// TestRegressionNoise: one run a version, a drop under the 6.9 % that one
// run a side can tell from noise (docs/checks.md's 935.00) is none.
func TestRegressionNoise(t *testing.T) {
	for _, current := range []string{"995.00", "935.00", "1000.00", "1100.00"} {
		res := assessed(regressionStudy(t, "1000.00", current))
		if got := byRule(res.Diagnostics, RuleRegression); len(got) != 0 {
			t.Errorf("1000.00 -> %s: %v, want no regression", current, got)
		}
	}
}

func TestRegressionAcknowledged(t *testing.T) {
	s := regressionStudy(t, "1000.00", "900.00")
	s.Acks = []study.Ack{{Rule: RuleRegression, Subject: "vllm/sharegpt@*", Reason: reasons()}}
	res := assessed(s)
	got := byRule(res.Diagnostics, RuleRegression)
	if len(got) != 1 || !got[0].Acknowledged() {
		t.Errorf("regression = %v, want it acknowledged", got)
	}
	if unused := byRule(res.Diagnostics, RuleAckUnused); len(unused) != 0 {
		t.Errorf("ack-unused = %v", unused)
	}
}

// TestHistoryBlocksChecked: a history log's block is checked like a run's.
func TestHistoryBlocksChecked(t *testing.T) {
	r := newRun("vllm", "vllm serve Qwen/Qwen3-32B -tp 8", 8, "1000.00")
	file := "results/test/runs/vllm/history/v0.10.1/sharegpt.log"
	b := parseBlock(t, file, edit(t, sharegptLog, "Total Token throughput", "4792.50"))
	v, _ := study.ParseVersion("v0.10.1")
	r.History = []study.History{{Version: v, Dir: "results/test/runs/vllm/history/v0.10.1", Logs: []study.Log{{Workload: "sharegpt", File: file, Blocks: []benchlog.Block{b}}}}}
	s := newStudy("Qwen/Qwen3-32B", 8, r)
	got := byRule(assessed(s).Diagnostics, RuleArithmetic)
	if len(got) != 1 || got[0].File != file {
		t.Errorf("log-arithmetic = %v, want one on %s", got, file)
	}
}

// TestHistoryModelMismatch: a version served with a command of another
// model is an error on its history.yaml line, and leaves that version
// without a result, so no regression is computed from it.
func TestHistoryModelMismatch(t *testing.T) {
	s := regressionStudy(t, "1000.00", "900.00")
	h := &s.Runs[0].History[0]
	h.Command, h.Pos = "vllm serve Qwen/Qwen3-8B", study.Pos{File: h.Dir + "/history.yaml", Line: 1}
	res := assessed(s)
	got := byRule(res.Diagnostics, RuleModel)
	if len(got) != 1 || got[0].File != "results/test/runs/vllm/history/v0.10.1/history.yaml" || got[0].Line != 1 || got[0].Subject != "vllm@v0.10.1" {
		t.Fatalf("model-mismatch = %+v", got)
	}
	if r := byRule(res.Diagnostics, RuleRegression); len(r) != 0 {
		t.Errorf("regression = %v, want none: the only earlier version served another model", r)
	}
	if len(res.Report.History) != 0 {
		t.Errorf("history = %+v, want none with a single comparable version", res.Report.History)
	}
	// The same model, quantised: no problem.
	h.Command = "vllm serve RedHatAI/Qwen3-32B-FP8-dynamic"
	if got := byRule(assessed(s).Diagnostics, RuleModel); len(got) != 0 {
		t.Errorf("a quantised checkpoint of the model: %v", got)
	}
}

// TestTailRegression: a P99 TTFT 30 % worse on the new version, the
// throughput unchanged, is a regression of its own, under the version's
// subject: one run a side, past the 22.2 % that a tail latency's assumed
// 8 % variation lets one run each tell from noise.
func TestTailRegression(t *testing.T) {
	s := regressionStudy(t, "1000.00", "1000.00")
	r := s.Runs[0]
	r.Logs[0].Blocks[0].Metrics["p99_ttft_ms"] = benchlog.Metric{Value: 260, Decimals: 2, Raw: "260.00", Line: 14}
	r.History[0].Logs[0].Blocks[0].Metrics["p99_ttft_ms"] = benchlog.Metric{Value: 200, Decimals: 2, Raw: "200.00", Line: 14}
	got := byRule(assessed(s).Diagnostics, RuleRegression)
	if len(got) != 1 {
		t.Fatalf("regression diagnostics = %v, want one, on P99 TTFT", got)
	}
	d := got[0]
	if d.Subject != "vllm/sharegpt@v0.11.0" || d.Line != 14 {
		t.Errorf("diagnostic %+v, want subject vllm/sharegpt@v0.11.0 (the version's) on line 14", d)
	}
	for _, want := range []string{"on sharegpt (p99_ttft_ms): 260.00 ms on v0.11.0 against 200.00 on the version before", "+30.0 %"} {
		if !strings.Contains(d.Message, want) {
			t.Errorf("message %q lacks %q", d.Message, want)
		}
	}
}
