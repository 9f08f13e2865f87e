package report

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/benchlog"
	"github.com/perflab/perflab/internal/study"
	"github.com/perflab/perflab/internal/studytest"
)

// metric, testRun, setMetric, testStudy and engineStudy are studytest's,
// with the report's headline metric.
func metric(raw string, line int) benchlog.Metric { return studytest.Metric(raw, line) }

func testRun(id, name string, gpus int, workloadValues ...string) *study.Run {
	return studytest.Run(TotalThroughput.Key, id, name, gpus, workloadValues...)
}

func setMetric(r *study.Run, workload, key, raw string, line int) {
	studytest.SetMetric(r, workload, key, raw, line)
}

func testStudy(obj study.Objective, node int, runs ...*study.Run) *study.Study {
	return studytest.Study(obj, node, runs...)
}

func engineStudy() *study.Study { return studytest.EngineStudy(TotalThroughput.Key) }

func near(a, b float64) bool { return math.Abs(a-b) < 1e-6 }

func TestProjection(t *testing.T) {
	s := testStudy(study.Throughput, 8,
		testRun("tp8", "TP8", 8, "sharegpt", "3792.50"),
		testRun("tp4", "TP4", 4, "sharegpt", "3019.19"),
		testRun("tp3", "TP3", 3, "sharegpt", "2000.00"),
	)
	s.Baseline = study.Config{Runs: []string{"tp8"}}
	s.Recommended = study.Config{Runs: []string{"tp4"}}
	r := Build(s, nil)
	row := r.RowByWorkload("sharegpt")
	if row == nil || row.Baseline == nil || row.Optimized == nil || row.Change == nil {
		t.Fatalf("sharegpt row incomplete: %+v", row)
	}
	opt, base := row.Optimized.Headline, row.Baseline.Headline
	if opt.Replicas != 2 || !opt.Projected() || opt.GPUs != 4 {
		t.Errorf("TP4 on 8 GPUs: Replicas %d, Projected %v, GPUs %d; want 2, true, 4", opt.Replicas, opt.Projected(), opt.GPUs)
	}
	if !near(opt.Effective(), 6038.38) {
		t.Errorf("Effective = %v, want 6038.38 (3019.19 x 2)", opt.Effective())
	}
	if got := opt.Expr(); got != "3019.19 x 2" {
		t.Errorf("Expr = %q, want %q", got, "3019.19 x 2")
	}
	if base.Replicas != 1 || base.Projected() || base.Expr() != "3792.50" {
		t.Errorf("TP8 on 8 GPUs: Replicas %d, Expr %q; want 1, %q", base.Replicas, base.Expr(), "3792.50")
	}
	c := row.Change
	if want := (3019.19*2/3792.50 - 1) * 100; !near(c.Percent, want) {
		t.Errorf("Percent = %v, want %v", c.Percent, want)
	}
	if got := FormatPercent(c.Percent); got != "+59.2 %" {
		t.Errorf("FormatPercent = %q, want %q", got, "+59.2 %")
	}
	// Per GPU: 3019.19/4 against 3792.50/8.
	if want := (3019.19/4/(3792.50/8) - 1) * 100; !near(c.PerGPUPercent, want) {
		t.Errorf("PerGPUPercent = %v, want %v", c.PerGPUPercent, want)
	}
	if !c.Better {
		t.Error("more throughput must be Better")
	}
	if want := "(3019.19 x 2 / 3792.50 - 1) x 100"; c.Formula != want {
		t.Errorf("Formula = %q, want %q", c.Formula, want)
	}

	// 3 GPUs do not divide 8: compared as measured, per GPU differs.
	s.Recommended = study.Config{Runs: []string{"tp3"}}
	r = Build(s, nil)
	row = r.RowByWorkload("sharegpt")
	v := row.Optimized.Headline
	if v.Replicas != 1 || v.Projected() || v.Expr() != "2000.00" {
		t.Errorf("TP3 on 8 GPUs: Replicas %d, Expr %q; want 1, %q", v.Replicas, v.Expr(), "2000.00")
	}
	if got := FormatPercent(row.Change.Percent); got != "-47.3 %" {
		t.Errorf("TP3 change = %q, want %q", got, "-47.3 %")
	}
	if got := FormatPercent(row.Change.PerGPUPercent); got != "+40.6 %" {
		t.Errorf("TP3 per-GPU change = %q, want %q", got, "+40.6 %")
	}
	if row.Change.Better {
		t.Error("less throughput must not be Better")
	}
}

func TestReplicas(t *testing.T) {
	tests := []struct {
		node, gpus, want int
	}{
		{8, 4, 2}, {8, 2, 4}, {8, 1, 8}, {8, 8, 1}, {8, 3, 1}, {8, 16, 1}, {8, 0, 1}, {2, 1, 2},
	}
	for _, tt := range tests {
		s := testStudy(study.Throughput, tt.node)
		if got := replicas(s, &study.Run{GPUs: tt.gpus}); got != tt.want {
			t.Errorf("replicas(node %d, run %d GPUs) = %d, want %d", tt.node, tt.gpus, got, tt.want)
		}
	}
}

func TestLatencyNeverProjects(t *testing.T) {
	tp8 := &study.Run{ID: "tp8", Name: "TP8", GPUs: 8}
	tp4 := &study.Run{ID: "tp4", Name: "TP4", GPUs: 4}
	setMetric(tp8, "sharegpt", MeanE2EL.Key, "1200.00", 20)
	setMetric(tp4, "sharegpt", MeanE2EL.Key, "1000.00", 20)
	s := testStudy(study.Latency, 8, tp8, tp4)
	s.Baseline = study.Config{Runs: []string{"tp8"}}
	s.Recommended = study.Config{Runs: []string{"tp4"}}
	s.Steps = []study.Step{{ID: "parallelism", Runs: []string{"tp4"}, Reference: "tp8"}}
	r := Build(s, nil)
	if r.Headline != MeanE2EL || r.Headline.HigherBetter {
		t.Fatalf("latency study compares %+v, want mean_e2el_ms, lower better", r.Headline)
	}

	row := r.RowByWorkload("sharegpt")
	if row == nil || row.Change == nil {
		t.Fatal("no conclusion change")
	}
	if got := row.Optimized.Headline; got.Replicas != 1 || got.Expr() != "1000.00" {
		t.Errorf("conclusion: latency of TP4 on 8 GPUs has Replicas %d, Expr %q; want 1, %q", got.Replicas, got.Expr(), "1000.00")
	}
	if got := FormatPercent(row.Change.Percent); got != "-16.7 %" {
		t.Errorf("conclusion change = %q, want %q", got, "-16.7 %")
	}
	if !row.Change.Better {
		t.Error("lower latency must be Better")
	}

	sr := r.StepByID("parallelism")
	if sr.Best == nil || sr.Best.Run.ID != "tp4" || sr.Change == nil {
		t.Fatalf("step: Best %+v, Change %+v; want tp4 and a change", sr.Best, sr.Change)
	}
	if sr.Best.Headline.Replicas != 1 {
		t.Errorf("step: latency projected with %d replicas", sr.Best.Headline.Replicas)
	}
	if !sr.Change.Better || FormatPercent(sr.Change.Percent) != "-16.7 %" {
		t.Errorf("step change: Better %v, %s; want true, -16.7 %%", sr.Change.Better, FormatPercent(sr.Change.Percent))
	}
	if got, want := r.RankingLine(sr), "TP4 (1000.00 ms) < TP8 (1200.00 ms)"; got != want {
		t.Errorf("RankingLine = %q, want %q", got, want)
	}

	// Higher latency is worse.
	setMetric(tp4, "sharegpt", MeanE2EL.Key, "1300.00", 20)
	r = Build(s, nil)
	if c := r.RowByWorkload("sharegpt").Change; c.Better {
		t.Errorf("1300 ms against 1200 ms marked Better (%s)", FormatPercent(c.Percent))
	}
	if got, want := r.RankingLine(r.StepByID("parallelism")), "TP8 (1200.00 ms) < TP4 (1300.00 ms)"; got != want {
		t.Errorf("RankingLine = %q, want %q", got, want)
	}
}

func TestFormatPercent(t *testing.T) {
	tests := []struct {
		p    float64
		want string
	}{
		{59.2193, "+59.2 %"},
		{-12.1272, "-12.1 %"},
		{0, "+0.0 %"},
		{math.Copysign(0, -1), "+0.0 %"},
		{-0.04, "+0.0 %"},
		{-0.0499, "+0.0 %"},
		{0.04, "+0.0 %"},
		{-0.06, "-0.1 %"},
		{12.3496, "+12.3 %"}, // rounding to 12.35 first would give +12.4 %
		{-12.3496, "-12.3 %"},
		{100, "+100.0 %"},
	}
	for _, tt := range tests {
		if got := FormatPercent(tt.p); got != tt.want {
			t.Errorf("FormatPercent(%v) = %q, want %q", tt.p, got, tt.want)
		}
		if strings.Contains(FormatPercent(tt.p), "-0.0") {
			t.Errorf("FormatPercent(%v) prints -0.0", tt.p)
		}
	}
}

func TestPercentFromUnroundedValues(t *testing.T) {
	// 1123.496 / 1000 is +12.3496 %: rounded once, +12.3 %. Rounding the
	// percentage to two decimals first (12.35) would print +12.4 %.
	s := testStudy(study.Throughput, 1,
		testRun("a", "A", 1, "sharegpt", "1000"),
		testRun("b", "B", 1, "sharegpt", "1123.496"),
	)
	s.Baseline = study.Config{Runs: []string{"a"}}
	s.Recommended = study.Config{Runs: []string{"b"}}
	r := Build(s, nil)
	c := r.RowByWorkload("sharegpt").Change
	if !near(c.Percent, 12.3496) {
		t.Errorf("Percent = %v, want 12.3496 (unrounded)", c.Percent)
	}
	if got := FormatPercent(c.Percent); got != "+12.3 %" {
		t.Errorf("FormatPercent = %q, want %q", got, "+12.3 %")
	}
	if got := r.RowByWorkload("sharegpt").Optimized.Headline.Expr(); got != "1123.496" {
		t.Errorf("Expr = %q, want the printed decimals %q", got, "1123.496")
	}
}

func rankingIDs(sr *StepResult) []string {
	var ids []string
	for _, rr := range sr.Ranking {
		ids = append(ids, rr.Run.ID)
	}
	return ids
}

func TestStepEngine(t *testing.T) {
	r := Build(engineStudy(), nil)
	sr := r.StepByID("engine")
	if sr == nil {
		t.Fatal("no engine step")
	}
	if got, want := strings.Join(rankingIDs(sr), ","), "sglang-tp8,vllm-tp8"; got != want {
		t.Errorf("ranking = %s, want %s", got, want)
	}
	if got, want := r.RankingLine(sr), "SGLang (4635.31 tok/s) > vLLM (3792.50 tok/s)"; got != want {
		t.Errorf("RankingLine = %q, want %q", got, want)
	}
	if sr.Reference == nil || sr.Reference.Run.ID != "vllm-tp8" {
		t.Fatalf("Reference = %+v, want vllm-tp8", sr.Reference)
	}
	if sr.Best == nil || sr.Best.Run.ID != "sglang-tp8" {
		t.Fatalf("Best = %+v, want sglang-tp8", sr.Best)
	}
	if sr.Change == nil || FormatPercent(sr.Change.Percent) != "+22.2 %" || !sr.Change.Better {
		t.Fatalf("Change = %+v, want +22.2 %% and better", sr.Change)
	}
	if sr.Change.From.Run != "vllm-tp8" || sr.Change.To.Run != "sglang-tp8" {
		t.Errorf("Change compares %s -> %s, want vllm-tp8 -> sglang-tp8", sr.Change.From.Run, sr.Change.To.Run)
	}
	// Per run: the reference has no change of its own, the other one does.
	for _, rr := range sr.Runs {
		switch rr.Run.ID {
		case "vllm-tp8":
			if rr.Change != nil {
				t.Errorf("reference has a change: %+v", rr.Change)
			}
		case "sglang-tp8":
			if rr.Change == nil || FormatPercent(rr.Change.Percent) != "+22.2 %" {
				t.Errorf("sglang change = %+v, want +22.2 %%", rr.Change)
			}
		}
	}
	if rr := sr.Runs[0]; rr.Headline == nil || rr.LogFile != "runs/vllm-tp8/sharegpt.log" || rr.Headline.Source.Line != 10 {
		t.Errorf("first run result: %+v, want the headline of runs/vllm-tp8/sharegpt.log line 10", rr)
	}
}

func TestStepReferenceBestWhenNothingBeatsIt(t *testing.T) {
	// When the reference is the best run, Best is still the best other run
	// and the change is negative.
	s := engineStudy()
	setMetric(s.Run("sglang-tp8"), "sharegpt", TotalThroughput.Key, "3000.00", 10)
	r := Build(s, nil)
	sr := r.StepByID("engine")
	if got := strings.Join(rankingIDs(sr), ","); got != "vllm-tp8,sglang-tp8" {
		t.Errorf("ranking = %s", got)
	}
	if sr.Best == nil || sr.Best.Run.ID != "sglang-tp8" {
		t.Fatalf("Best = %+v, want sglang-tp8 (the reference is never Best)", sr.Best)
	}
	if sr.Change.Better || FormatPercent(sr.Change.Percent) != "-20.9 %" {
		t.Errorf("Change = %s, Better %v; want -20.9 %%, false", FormatPercent(sr.Change.Percent), sr.Change.Better)
	}
}

func TestStepTiesKeepListedOrder(t *testing.T) {
	s := testStudy(study.Throughput, 8,
		testRun("base", "Base", 8, "sharegpt", "1100.00"),
		testRun("a", "A", 8, "sharegpt", "1000.00"),
		testRun("b", "B", 8, "sharegpt", "1200.00"),
		testRun("c", "C", 8, "sharegpt", "1200.00"),
	)
	for _, tt := range []struct {
		runs []string
		want string
	}{
		{[]string{"a", "b", "c"}, "b,c,base,a"},
		{[]string{"a", "c", "b"}, "c,b,base,a"},
	} {
		s.Steps = []study.Step{{ID: "step", Runs: tt.runs, Reference: "base"}}
		r := Build(s, nil)
		sr := r.StepByID("step")
		// The reference is not one of the step's runs, yet it is ranked.
		if got := strings.Join(rankingIDs(sr), ","); got != tt.want {
			t.Errorf("runs %v: ranking %s, want %s", tt.runs, got, tt.want)
		}
		if sr.Best.Run.ID != tt.want[:1] {
			t.Errorf("runs %v: Best %s, want %s", tt.runs, sr.Best.Run.ID, tt.want[:1])
		}
		if len(sr.Runs) != 3 {
			t.Errorf("runs %v: %d run results, want 3 (the reference is not one of them)", tt.runs, len(sr.Runs))
		}
	}
}

func TestStepFailedAndExcludedRuns(t *testing.T) {
	failed := testRun("failed", "Failed", 8, "sharegpt", "9999.00")
	failed.Error = "CUDA out of memory"
	s := testStudy(study.Throughput, 8,
		testRun("base", "Base", 8, "sharegpt", "1000.00"),
		failed,
		testRun("other-model", "Other model", 8, "sharegpt", "9000.00"),
		testRun("ok", "OK", 8, "sharegpt", "1200.00"),
	)
	s.Steps = []study.Step{{ID: "step", Runs: []string{"failed", "other-model", "ok"}, Reference: "base"}}
	r := Build(s, map[string]string{"other-model": "model-mismatch"})
	sr := r.StepByID("step")
	if got := strings.Join(rankingIDs(sr), ","); got != "ok,base" {
		t.Errorf("ranking = %s, want ok,base", got)
	}
	if sr.Best == nil || sr.Best.Run.ID != "ok" {
		t.Fatalf("Best = %+v, want ok", sr.Best)
	}
	if got := FormatPercent(sr.Change.Percent); got != "+20.0 %" {
		t.Errorf("Change = %s, want +20.0 %%", got)
	}
	if got, want := r.RankingLine(sr), "OK (1200.00 tok/s) > Base (1000.00 tok/s)"; got != want {
		t.Errorf("RankingLine = %q, want %q", got, want)
	}
	for _, rr := range sr.Runs {
		switch rr.Run.ID {
		case "failed":
			if rr.Headline != nil || rr.Change != nil || rr.Comparable() {
				t.Errorf("failed run: %+v, want no headline, no change", rr)
			}
		case "other-model":
			if rr.Excluded != "model-mismatch" || rr.Change != nil || rr.Comparable() {
				t.Errorf("excluded run: Excluded %q, Change %+v, Comparable %v", rr.Excluded, rr.Change, rr.Comparable())
			}
		}
	}
	if len(r.Excluded) != 1 {
		t.Errorf("Report.Excluded = %v", r.Excluded)
	}
}

func TestStepReferenceNotComparable(t *testing.T) {
	s := engineStudy()
	r := Build(s, map[string]string{"vllm-tp8": "model-mismatch"})
	sr := r.StepByID("engine")
	if sr.Change != nil {
		t.Errorf("step with excluded reference has a change: %+v", sr.Change)
	}
	if sr.Best == nil || sr.Best.Run.ID != "sglang-tp8" {
		t.Errorf("Best = %+v, want sglang-tp8", sr.Best)
	}
	for _, rr := range sr.Runs {
		if rr.Change != nil {
			t.Errorf("%s has a change against an excluded reference", rr.Run.ID)
		}
	}
	if got := strings.Join(rankingIDs(sr), ","); got != "sglang-tp8" {
		t.Errorf("ranking = %s, want sglang-tp8", got)
	}
}

func TestStepOnlyReference(t *testing.T) {
	s := engineStudy()
	s.Steps = []study.Step{{ID: "alone", Runs: []string{"vllm-tp8"}, Reference: "vllm-tp8"}}
	sr := Build(s, nil).StepByID("alone")
	if sr.Best != nil || sr.Change != nil {
		t.Errorf("a step whose only run is its reference has Best %+v, Change %+v", sr.Best, sr.Change)
	}
	if len(sr.Ranking) != 1 {
		t.Errorf("ranking has %d runs, want 1", len(sr.Ranking))
	}
}

func TestConclusionRows(t *testing.T) {
	long := testRun("tuned-long", "Tuned long", 8, "random-32k", "1900.00")
	tuned := testRun("tuned", "Tuned", 4, "sharegpt", "3019.19", "random-32k", "1000.00")
	setMetric(tuned, "sharegpt", MeanTPOT.Key, "98.76", 14)
	broken := testRun("broken", "Broken", 8, "sharegpt", "9999.00")
	broken.Error = "RuntimeError: CUDA error"
	s := testStudy(study.Throughput, 8,
		testRun("base", "Base", 8, "sharegpt", "3792.50", "random-32k", "1798.45"),
		long, tuned, broken,
	)
	s.Baseline = study.Config{Runs: []string{"broken", "base"}}
	s.Recommended = study.Config{Runs: []string{"tuned-long", "tuned"}}
	r := Build(s, nil)

	if len(r.Rows) != 2 || r.Rows[0].Workload.ID != "sharegpt" || r.Rows[1].Workload.ID != "random-32k" {
		t.Fatalf("rows not in workload order: %+v", r.Rows)
	}
	if got := len(r.Baseline); got != 2 {
		t.Errorf("Baseline lists %d runs, want 2 (as listed)", got)
	}
	share, long32 := r.Rows[0], r.Rows[1]
	if share.Baseline.Run.ID != "base" {
		t.Errorf("sharegpt baseline from %s, want base (broken failed)", share.Baseline.Run.ID)
	}
	if share.Optimized.Run.ID != "tuned" {
		t.Errorf("sharegpt optimized from %s, want tuned (tuned-long has no sharegpt log)", share.Optimized.Run.ID)
	}
	if long32.Optimized.Run.ID != "tuned-long" {
		t.Errorf("random-32k optimized from %s, want tuned-long (listed first)", long32.Optimized.Run.ID)
	}
	if got := FormatPercent(share.Change.Percent); got != "+59.2 %" {
		t.Errorf("sharegpt change %s, want +59.2 %%", got)
	}
	if got := FormatPercent(long32.Change.Percent); got != "+5.6 %" {
		t.Errorf("random-32k change %s, want +5.6 %%", got)
	}
	// The headline is projected, the TPOT next to it never.
	if share.Optimized.Headline.Replicas != 2 {
		t.Errorf("headline Replicas %d, want 2", share.Optimized.Headline.Replicas)
	}
	tpot := share.Optimized.TPOT
	if tpot == nil {
		t.Fatal("no TPOT cell")
	}
	if tpot.Replicas != 1 || tpot.Projected() || tpot.Expr() != "98.76" || tpot.Source.Line != 14 {
		t.Errorf("TPOT = %+v, want 98.76 unprojected from line 14", tpot)
	}
	if share.Baseline.TPOT != nil {
		t.Errorf("base has no TPOT, got %+v", share.Baseline.TPOT)
	}
	if share.Optimized.LogFile != "runs/tuned/sharegpt.log" {
		t.Errorf("LogFile = %q", share.Optimized.LogFile)
	}
}

func TestConclusionRowMissingSide(t *testing.T) {
	s := testStudy(study.Throughput, 8,
		testRun("base", "Base", 8, "sharegpt", "3792.50"),
		testRun("tuned", "Tuned", 8, "sharegpt", "4000.00", "random-32k", "1000.00"),
	)
	s.Baseline = study.Config{Runs: []string{"base"}}
	s.Recommended = study.Config{Runs: []string{"tuned"}}
	row := Build(s, nil).RowByWorkload("random-32k")
	if row.Baseline != nil || row.Change != nil || row.Optimized == nil {
		t.Errorf("random-32k row: Baseline %+v, Optimized %+v, Change %+v; want only Optimized", row.Baseline, row.Optimized, row.Change)
	}
}

// The strconv forms print exactly what fmt's %.*f and %+.1f printed.
func TestFormatLikeFmt(t *testing.T) {
	// Go reads the literal -0.0 as +0: the negative zero is made.
	values := []float64{0, math.Copysign(0, -1), 0.04, -0.04, 0.05, -0.05, 1.25, -13.849, 59.2, 3792.5, 1e21, math.Inf(1), math.Inf(-1), math.NaN()}
	for _, x := range values {
		for d := -1; d <= 3; d++ {
			if got, want := FormatNumber(x, d), fmt.Sprintf("%.*f", max(d, 0), x); got != want {
				t.Errorf("FormatNumber(%v, %d) = %q, want %q", x, d, got, want)
			}
		}
		r := math.Round(x*10) / 10
		if r == 0 {
			r = 0
		}
		if got, want := FormatPercent(x), fmt.Sprintf("%+.1f %%", r); got != want {
			t.Errorf("FormatPercent(%v) = %q, want %q", x, got, want)
		}
	}
}
