package report

import (
	"testing"

	"github.com/perflab/perflab/internal/study"
)

// withHistory gives run r earlier measurements: version, then workload,
// printed value pairs, as the loader would have read them.
func withHistory(r *study.Run, version string, workloadValues ...string) {
	v, err := study.ParseVersion(version)
	if err != nil {
		panic(err)
	}
	h := &study.Run{ID: r.ID + "/history/" + version}
	for i := 0; i+1 < len(workloadValues); i += 2 {
		setMetric(h, workloadValues[i], TotalThroughput.Key, workloadValues[i+1], 10)
	}
	r.History = append(r.History, study.History{Version: v, Dir: "runs/" + r.ID + "/history/" + version, Logs: h.Logs})
}

func historyStudy(obj study.Objective, current string) *study.Study {
	run := testRun("vllm", "vLLM", 8, "sharegpt", current, "random-32k", "500.00")
	other := testRun("sglang", "SGLang", 8, "sharegpt", "900.00")
	s := testStudy(obj, 8, run, other)
	s.Engines = []study.Engine{{ID: "vllm", Name: "vLLM", Version: "v0.11.0"}}
	s.Baseline = study.Config{Runs: []string{"vllm"}}
	s.Recommended = study.Config{Runs: []string{"vllm"}}
	return s
}

func TestHistoryTrend(t *testing.T) {
	s := historyStudy(study.Throughput, "1000.00")
	run := s.Run("vllm")
	withHistory(run, "v0.9.2", "sharegpt", "800.00")
	withHistory(run, "v0.10.1", "sharegpt", "1100.00", "random-32k", "499.00")
	r := Build(s, nil)
	if len(r.History) != 1 || r.History[0].Run.ID != "vllm" || r.History[0].Engine.Version != "v0.11.0" {
		t.Fatalf("History = %+v, want run vllm only (sglang has no history)", r.History)
	}
	trends := r.History[0].Trends
	if len(trends) != 2 || trends[0].Workload.ID != "sharegpt" || trends[1].Workload.ID != "random-32k" {
		t.Fatalf("trends = %+v, want sharegpt (main) then random-32k", trends)
	}
	sg := trends[0].Points
	want := []struct {
		version    string
		current    bool
		value      string
		change     string // "" for none
		regression bool
	}{
		{"v0.9.2", false, "800.00", "", false},
		{"v0.10.1", false, "1100.00", "+37.5 %", false},
		{"v0.11.0", true, "1000.00", "-9.1 %", true},
	}
	if len(sg) != len(want) {
		t.Fatalf("points = %+v", sg)
	}
	for i, w := range want {
		p := sg[i]
		if p.Version != w.version || p.Current != w.current || p.Value == nil || p.Value.Expr() != w.value || p.Regression != w.regression {
			t.Errorf("point %d = %+v (value %v), want %+v", i, p, p.Value, w)
		}
		if got := ""; p.Change != nil {
			got = FormatPercent(p.Change.Percent)
			if got != w.change {
				t.Errorf("point %d change %s, want %s", i, got, w.change)
			}
		} else if w.change != "" {
			t.Errorf("point %d has no change, want %s", i, w.change)
		}
	}
	if src := sg[1].Value.Source; src.File != "runs/vllm/history/v0.10.1/sharegpt.log" || src.Line != 10 {
		t.Errorf("history value from %+v, want its own log's file and line", src)
	}
	if n := len(trends[0].Regressions()); n != 1 {
		t.Errorf("%d regressions on sharegpt, want 1", n)
	}
	// random-32k: v0.9.2 has no result; 499 -> 500 is noise, not a regression.
	rp := trends[1].Points
	if rp[0].Value != nil || rp[1].Change != nil || rp[2].Change == nil || !rp[2].Change.Noise || rp[2].Regression {
		t.Errorf("random-32k points = %+v", rp)
	}
}

// TestHistoryNoise: one run a version, a drop under what one run a side
// can tell (1.96 x sqrt(2) x 2.5 % = 6.93 % for a throughput) is no
// regression; one past it is.
func TestHistoryNoise(t *testing.T) {
	for _, c := range []struct {
		old, current string
		regression   bool
	}{
		{"1000.00", "935.00", false}, // -6.5 %
		{"1000.00", "925.00", true},  // -7.5 %
		{"1000.00", "1200.00", false},
	} {
		s := historyStudy(study.Throughput, c.current)
		withHistory(s.Run("vllm"), "v0.10.1", "sharegpt", c.old)
		r := Build(s, nil)
		p := r.History[0].Trends[0].Points[1]
		if p.Regression != c.regression {
			t.Errorf("%s -> %s: regression %v, want %v", c.old, c.current, p.Regression, c.regression)
		}
	}
}

// TestHistoryLatency: on a latency study a longer latency is the regression.
func TestHistoryLatency(t *testing.T) {
	s := historyStudy(study.Latency, "1.00")
	run := s.Run("vllm")
	setMetric(run, "sharegpt", MeanE2EL.Key, "1200.00", 12)
	h := &study.Run{ID: "h"}
	setMetric(h, "sharegpt", MeanE2EL.Key, "1000.00", 12)
	v, _ := study.ParseVersion("v0.10.1")
	run.History = []study.History{{Version: v, Logs: h.Logs}}
	r := Build(s, nil)
	if len(r.History) != 1 {
		t.Fatalf("History = %+v", r.History)
	}
	p := r.History[0].Trends[0].Points[1]
	if !p.Regression || p.Value.Replicas != 1 {
		t.Errorf("1000 ms -> 1200 ms: %+v, want a regression, not projected", p)
	}
}

// TestHistoryNothingToCompare: a history without a result for any
// workload of the run gives no trend.
func TestHistoryNothingToCompare(t *testing.T) {
	s := historyStudy(study.Throughput, "1000.00")
	withHistory(s.Run("vllm"), "v0.10.1", "other", "900.00")
	if r := Build(s, nil); len(r.History) != 0 {
		t.Errorf("History = %+v, want none", r.History)
	}
}

// TestHistoryDrift: a steady -4 % per version is never a step one run a
// side can tell (6.93 %), but against the earliest of the window it is: a
// drift.
func TestHistoryDrift(t *testing.T) {
	s := historyStudy(study.Throughput, "884.74")
	run := s.Run("vllm")
	withHistory(run, "v0.8.0", "sharegpt", "1000.00")
	withHistory(run, "v0.9.0", "sharegpt", "960.00")
	withHistory(run, "v0.10.0", "sharegpt", "921.60")
	pts := Build(s, nil).History[0].Trends[0].Points
	if len(pts) != 4 {
		t.Fatalf("%d points", len(pts))
	}
	if pts[1].Regression || pts[1].Drift != nil {
		t.Errorf("v0.9.0: %+v; one step inside the band, nothing to drift from", pts[1])
	}
	// v0.10.0 against v0.8.0: -7.8 %; v0.11.0 against v0.8.0 (3 back): -11.5 %.
	for _, i := range []int{2, 3} {
		p := pts[i]
		if !p.Regression || p.Rule != RegressionDrift || p.DriftFrom != "v0.8.0" || !p.Change.Noise {
			t.Errorf("%s: regression %v by %q from %q, step noise %v; want a drift from v0.8.0", p.Version, p.Regression, p.Rule, p.DriftFrom, p.Change.Noise)
		}
	}
}

// TestHistoryTails: the main workload's P99 TPOT over versions, judged
// like the headline against the variation assumed for a tail latency
// (8 %: one run a side must pass 22.2 %): a steady +12 % a version, within
// noise step by step, is a drift once two steps add up beyond it.
func TestHistoryTails(t *testing.T) {
	s := historyStudy(study.Throughput, "1000.00")
	run := s.Run("vllm")
	tpot := []string{"30.00", "33.60", "37.63"}
	for i, v := range []string{"v0.8.0", "v0.9.0", "v0.10.0"} {
		withHistory(run, v, "sharegpt", "1000.00")
		h := &run.History[len(run.History)-1]
		h.Logs[0].Blocks[0].Metrics[P99TPOT.Key] = metric(tpot[i], 20)
	}
	setMetric(run, "sharegpt", P99TPOT.Key, "42.15", 20)
	r := Build(s, nil)
	if len(r.History) != 1 || len(r.History[0].Tails) != 1 {
		t.Fatalf("history %+v, want one run with one tail (P99 TPOT; no log prints P99 TTFT)", r.History)
	}
	tail := r.History[0].Tails[0]
	if tail.Metric.Key != P99TPOT.Key || tail.Workload.ID != "sharegpt" || len(tail.Points) != 4 {
		t.Fatalf("tail %+v", tail)
	}
	p := tail.Points
	if p[1].Regression || p[1].Change == nil || !p[1].Change.Noise {
		t.Errorf("v0.9.0: %+v, want +12 %% within noise", p[1])
	}
	if !p[2].Regression || p[2].Rule != RegressionDrift || p[2].DriftFrom != "v0.8.0" || p[2].Change.Better {
		t.Errorf("v0.10.0: rule %q from %q, want a drift from v0.8.0", p[2].Rule, p[2].DriftFrom)
	}
	for _, hr := range r.History {
		for _, tr := range hr.Trends {
			if len(tr.Regressions()) > 0 {
				t.Errorf("the throughput, unchanged, regressed: %+v", tr.Regressions())
			}
		}
	}
}
