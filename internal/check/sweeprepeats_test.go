package check

import (
	"fmt"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/study"
)

// The repeats of a sweep are compared load by load: two loads may send
// different prompts, two repeats of one load may not.
func TestRepeatDataOfASweepByLoad(t *testing.T) {
	pts := []study.SweepPoint{{Value: 1, Raw: "1"}, {Value: 4, Raw: "4"}}
	sweep := &study.Sweep{Key: study.SweepConcurrency, Points: pts}
	withTokens := func(n int, tokens string) string {
		return strings.Replace(concurrencyBlock(n), "44000", tokens, 1)
	}
	repeat := func(name, text string, p *study.SweepPoint, n int) study.Log {
		lg := pointLog(t, "a", name, text, p)
		lg.Repeat = n
		return lg
	}
	a := newRun("a", "vllm serve "+model32B, 1, "")
	a.Logs = []study.Log{
		repeat("chat.c1.run-1.log", withTokens(1, "11000"), &pts[0], 1),
		repeat("chat.c1.run-2.log", withTokens(1, "11000"), &pts[0], 2),
		repeat("chat.c4.run-1.log", withTokens(4, "44000"), &pts[1], 1),
		repeat("chat.c4.run-2.log", withTokens(4, "50000"), &pts[1], 2),
	}
	s := &study.Study{ID: "test", Workloads: []study.Workload{{ID: "chat", Dataset: "sharegpt", Sweep: sweep}}, Runs: []*study.Run{a}}
	var got []string
	repeatDataRule(s, a, func(d Diagnostic) { got = append(got, fmt.Sprintf("%s:%d: %s", d.File, d.Line, d.Message)) })
	const want = "results/test/runs/a/chat.c4.run-2.log:5: repeat 2 of run a on chat at max_concurrency 4 has total_input_tokens 50000, but its first repeat (results/test/runs/a/chat.c4.run-1.log:5) has 44000"
	if len(got) != 1 || !strings.HasPrefix(got[0], want) {
		t.Errorf("same-data:\n%s\nwant only %s...", strings.Join(got, "\n"), want)
	}
}
