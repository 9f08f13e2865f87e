package report

import (
	"reflect"
	"testing"

	"github.com/perflab/perflab/internal/benchlog"
	"github.com/perflab/perflab/internal/study"
)

// side is a synthetic side: a vLLM block at a concurrency, on 8 GPUs.
func side(concurrency float64, version string) Side {
	run := &study.Run{ID: "r", Name: "r", Command: "vllm serve M -tp 8", GPUs: 8}
	b := &benchlog.Block{Tool: "vllm", Version: version, Definition: benchlog.CountOverDuration,
		Metrics: map[string]benchlog.Metric{"max_concurrency": {Value: concurrency}}}
	return Side{Run: run, Workload: &study.Workload{ID: "sharegpt", Dataset: "sharegpt"}, Block: b, GPUs: 8}
}

func codes(l Likeness) []string {
	out := []string{}
	for _, r := range l.Reasons {
		out = append(out, r.Code)
	}
	return out
}

func TestCompareKnownPairs(t *testing.T) {
	otherCommand := side(64, "v0.13+")
	otherCommand.Command = "vllm serve M -tp 4"
	rated := side(64, "v0.13+")
	rated.Block.Metrics = map[string]benchlog.Metric{}
	otherGPU, gpuA := side(64, "v0.13+"), side(64, "v0.13+")
	otherGPU.Run = &study.Run{Name: "b", Recorded: &study.Recorded{GPU: "NVIDIA H100 80GB HBM3"}}
	gpuA.Run = &study.Run{Name: "a", Recorded: &study.Recorded{GPU: "NVIDIA A100-SXM4-80GB"}}
	cases := []struct {
		name     string
		from, to Side
		verdict  string
		codes    []string
	}{
		{"same everything", side(64, "v0.13+"), side(64, "v0.13+"), LikeForLike, []string{}},
		{"another concurrency", side(64, "v0.13+"), side(32, "v0.13+"), NotComparable, []string{ReasonConcurrency}},
		{"another tool version", side(64, "v0.11"), side(64, "v0.13+"), Caveated, []string{ReasonToolVersion}},
		{"another command than recommended", side(64, "v0.13+"), otherCommand, Caveated, []string{ReasonCommand}},
		{"load on one side only", side(64, "v0.13+"), rated, Caveated, []string{ReasonLoadUnknown}},
		{"another GPU model", gpuA, otherGPU, NotComparable, []string{ReasonGPUModel}},
	}
	for _, c := range cases {
		got := Compare(c.from, c.to)
		if got.Verdict != c.verdict || !reflect.DeepEqual(codes(got), c.codes) {
			t.Errorf("%s: %s %v, want %s %v", c.name, got.Verdict, codes(got), c.verdict, c.codes)
		}
	}
}

func TestCompareWorkloadsAndCounts(t *testing.T) {
	a, b := side(64, ""), side(64, "")
	b.Workload = &study.Workload{ID: "random-4k", Dataset: "random", InputLen: 4096, OutputLen: 256}
	b.GPUs = 4
	got := Compare(a, b)
	want := []string{ReasonDataset, ReasonInputLen, ReasonOutputLen, ReasonGPUCount}
	if got.Verdict != NotComparable || !reflect.DeepEqual(codes(got), want) {
		t.Errorf("got %s %v, want not comparable %v", got.Verdict, codes(got), want)
	}
	if got.Reasons[3].From != "8" || got.Reasons[3].To != "4" {
		t.Errorf("GPU counts %q -> %q, want 8 -> 4", got.Reasons[3].From, got.Reasons[3].To)
	}
}

func TestCompareDates(t *testing.T) {
	a, b := side(64, ""), side(64, "")
	a.Run = &study.Run{Recorded: &study.Recorded{Date: "2026-01-01T00:00:00Z"}}
	b.Run = &study.Run{Recorded: &study.Recorded{Date: "2026-01-20T00:00:00Z"}}
	if got := Compare(a, b); got.Verdict != LikeForLike {
		t.Errorf("19 days apart: %s %v, want like-for-like", got.Verdict, codes(got))
	}
	b.Run.Recorded.Date = "2026-03-01T00:00:00Z"
	if got := Compare(a, b); got.Verdict != Caveated || codes(got)[0] != ReasonDate {
		t.Errorf("two months apart: %s %v, want caveated by date", got.Verdict, codes(got))
	}
}

// TestBuildJudgesComparability: Build gives the step and each of its runs
// the comparability of its two logs, and the conclusion row its own.
func TestBuildJudgesComparability(t *testing.T) {
	base := testRun("a", "a", 8, "sharegpt", "1000.00")
	opt := testRun("b", "b", 8, "sharegpt", "1100.00")
	setMetric(base, "sharegpt", "max_concurrency", "64", 3)
	setMetric(opt, "sharegpt", "max_concurrency", "32", 3)
	r, ch := stepChange(t, base, opt)
	if ch.Likeness == nil || ch.Likeness.Verdict != NotComparable {
		t.Fatalf("step at concurrency 64 against 32: %+v, want not comparable", ch.Likeness)
	}
	if rr := r.StepByID("x").Runs[0]; rr.Change == nil || rr.Change.Likeness == nil || rr.Change.Likeness.Verdict != NotComparable {
		t.Errorf("the step's run was not judged: %+v", rr.Change)
	}
	if row := r.RowByWorkload("sharegpt"); row == nil || row.Change.Likeness == nil || row.Change.Likeness.Verdict != NotComparable {
		t.Errorf("the conclusion row was not judged")
	}
	setMetric(opt, "sharegpt", "max_concurrency", "64", 3)
	if _, ch := stepChange(t, base, opt); ch.Likeness == nil || ch.Likeness.Verdict != LikeForLike {
		t.Errorf("same load: %+v, want like-for-like", ch.Likeness)
	}
}
