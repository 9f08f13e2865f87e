package check

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/benchlog"
	"github.com/perflab/perflab/internal/study"
)

// concurrencyBlock is a vLLM result that prints its concurrency on line 3.
func concurrencyBlock(n int) string {
	return fmt.Sprintf(`============ Serving Benchmark Result ============
Successful requests:                     200
Maximum request concurrency:             %d
Benchmark duration (s):                  100.00
Total input tokens:                      44000
Total generated tokens:                  56000
Request throughput (req/s):              2.00
Output token throughput (tok/s):         560.00
Total Token throughput (tok/s):          1000.00
==================================================
`, n)
}

// pointLog is a run's log of workload chat at a load, parsed.
func pointLog(t *testing.T, run, name, text string, point *study.SweepPoint) study.Log {
	t.Helper()
	file := "results/test/runs/" + run + "/" + name
	blocks, err := benchlog.Parse(file, strings.NewReader(text))
	if err != nil || len(blocks) == 0 {
		t.Fatalf("%s: %v, %d blocks", file, err, len(blocks))
	}
	return study.Log{Workload: "chat", Point: point, File: file, Raw: []byte(text), Blocks: blocks}
}

func sweepDiagnostics(s *study.Study) []string {
	var out []string
	for _, r := range s.Runs {
		sweepRules(s, r, func(d Diagnostic) {
			out = append(out, fmt.Sprintf("%s:%d: %s %s %s: %s", d.File, d.Line, d.Severity, d.Rule, d.Subject, d.Message))
		})
	}
	return out
}

func TestSweepRulesPerLoadLogs(t *testing.T) {
	pts := []study.SweepPoint{{Value: 1, Raw: "1"}, {Value: 4, Raw: "4"}, {Value: 16, Raw: "16"}}
	sweep := &study.Sweep{Key: study.SweepConcurrency, Points: pts, Pos: study.Pos{File: "results/test/study.yaml", Line: 21}}
	a := newRun("a", "vllm serve "+model32B, 1, "")
	a.Logs = []study.Log{
		pointLog(t, "a", "chat.c1.log", concurrencyBlock(1), &pts[0]),
		pointLog(t, "a", "chat.c4.log", concurrencyBlock(16), &pts[1]), // measured at 16, named 4
	}
	full := newRun("full", "vllm serve "+model32B, 1, "")
	for i, n := range []int{1, 4, 16} {
		full.Logs = append(full.Logs, pointLog(t, "full", fmt.Sprintf("chat.c%d.log", n), concurrencyBlock(n), &pts[i]))
	}
	none := newRun("none", "vllm serve "+model32B, 1, "1000.00") // no log of chat: nothing to say
	s := &study.Study{ID: "test", Workloads: []study.Workload{{ID: "chat", Sweep: sweep}, {ID: "sharegpt", Main: true}},
		Runs: []*study.Run{a, full, none}}
	got := sweepDiagnostics(s)
	want := []string{
		"results/test/runs/a/chat.c4.log:3: error sweep-point a/chat: the block prints max_concurrency 16, but its file name gives 4",
		"results/test/study.yaml:21: warning sweep-missing a/chat: run a has no result of workload chat at max_concurrency 16: its curve lacks these loads; add their logs (chat.c<load>.log)",
	}
	if len(got) != len(want) {
		t.Fatalf("diagnostics:\n%s\nwant %d", strings.Join(got, "\n"), len(want))
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("diagnostic %d:\n got %s\nwant %s...", i, got[i], want[i])
		}
	}
}

// A guidellm sweep in one log: a block at a rate the sweep does not list
// is an error; the synchronous and throughput benchmarks print no rate.
func TestSweepRulesToolLog(t *testing.T) {
	raw, err := os.ReadFile("../benchlog/testdata/guidellm_v02_sweep.txt")
	if err != nil {
		t.Fatal(err)
	}
	sweep := &study.Sweep{Key: study.SweepRate, Pos: study.Pos{File: "results/test/study.yaml", Line: 21},
		Points: []study.SweepPoint{{Value: 7.13, Raw: "7.13"}, {Value: 12.72, Raw: "12.72"}, {Value: 30, Raw: "30"}}}
	g := newRun("g", "vllm serve "+model32B, 1, "")
	g.Logs = []study.Log{pointLog(t, "g", "chat.log", string(raw), nil)}
	s := &study.Study{ID: "test", Workloads: []study.Workload{{ID: "chat", Sweep: sweep}}, Runs: []*study.Run{g}}
	got := sweepDiagnostics(s)
	want := []string{
		"results/test/runs/g/chat.log:41: error sweep-point g/chat: the block prints request_rate 18.30, which is not a point of the sweep of workload chat (results/test/study.yaml:21 lists 7.13, 12.72, 30)",
		"results/test/study.yaml:21: warning sweep-missing g/chat: run g has no result of workload chat at request_rate 30:",
	}
	if len(got) != len(want) {
		t.Fatalf("diagnostics:\n%s\nwant %d", strings.Join(got, "\n"), len(want))
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("diagnostic %d:\n got %s\nwant %s...", i, got[i], want[i])
		}
	}
}

// The runs of a sweep sent the same data load by load: a run whose lowest
// load is another run's second is compared at that load, not with the
// other's first.
func TestSameDataOfASweepByLoad(t *testing.T) {
	pts := []study.SweepPoint{{Value: 1, Raw: "1"}, {Value: 4, Raw: "4"}}
	sweep := &study.Sweep{Key: study.SweepConcurrency, Points: pts}
	withTokens := func(n int, tokens string) string {
		return strings.Replace(concurrencyBlock(n), "44000", tokens, 1)
	}
	run := func(id string, logs ...study.Log) *study.Run {
		r := newRun(id, "vllm serve "+model32B, 1, "")
		r.Logs = logs
		return r
	}
	s := &study.Study{ID: "test", Workloads: []study.Workload{{ID: "chat", Dataset: "sharegpt", Sweep: sweep}}, Runs: []*study.Run{
		run("a", pointLog(t, "a", "chat.c1.log", withTokens(1, "11000"), &pts[0]), pointLog(t, "a", "chat.c4.log", withTokens(4, "44000"), &pts[1])),
		run("b", pointLog(t, "b", "chat.c4.log", withTokens(4, "44000"), &pts[1])),
		run("c", pointLog(t, "c", "chat.c4.log", withTokens(4, "44000"), &pts[1])),
		run("d", pointLog(t, "d", "chat.c1.log", withTokens(1, "11000"), &pts[0]), pointLog(t, "d", "chat.c4.log", withTokens(4, "50000"), &pts[1])),
	}}
	var got []string
	sameDataRule(s, nil, func(d Diagnostic) { got = append(got, fmt.Sprintf("%s:%d: %s", d.File, d.Line, d.Message)) })
	const want = "results/test/runs/d/chat.c4.log:5: run d sent 50000 input tokens on chat at max_concurrency 4, but 3 other runs"
	if len(got) != 1 || !strings.HasPrefix(got[0], want) {
		t.Errorf("same-data:\n%s\nwant only %s...", strings.Join(got, "\n"), want)
	}
}
