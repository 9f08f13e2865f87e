package report

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestAnalysis: the download carries each comparison with its test and
// verdict, null where no test was possible (JSON has no NaN), and the bands.
func TestAnalysis(t *testing.T) {
	r, _ := stepChange(t, repeated("a", "975.8", "987.9", "1000.0", "1012.1", "1024.2"), repeated("b", "1016.8", "1028.9", "1041.0", "1053.1", "1065.2"),
		testRun("s", "s", 8, "sharegpt", "1005.0"))
	r.Study.Steps[0].Runs = append(r.Study.Steps[0].Runs, "s")
	r = Build(r.Study, nil)
	a := r.Analysis()
	data, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	var step, single *AnalysisComparison
	for i := range a.Comparisons {
		c := &a.Comparisons[i]
		switch {
		case c.Kind == "step":
			step = c
		case c.Kind == "step-run" && c.To == "s":
			single = c
		}
	}
	if step == nil || step.Verdict != "better" || step.P == nil || *step.P > 0.01 || step.PU == nil || step.Interval == nil || step.N != [2]int{5, 5} || step.Test != TestMannWhitney {
		t.Errorf("step comparison %+v", step)
	}
	if single == nil || single.Verdict != "no measurable difference" || single.P == nil || single.Interval == nil || single.N != [2]int{5, 1} || single.Test != TestPrediction {
		t.Errorf("single-run comparison %+v", single)
	}
	if step != nil && (step.Comparability == nil || step.Comparability.Verdict != LikeForLike || len(step.Comparability.Reasons) != 0) {
		t.Errorf("step comparability %+v, want like-for-like", step.Comparability)
	}
	if len(a.Bands) == 0 || a.Bands[0].Metric != TotalThroughput.Key || a.Alpha != 0.05 {
		t.Errorf("bands %+v, alpha %v", a.Bands, a.Alpha)
	}
	if strings.Contains(string(data), "NaN") {
		t.Error("NaN in the JSON")
	}
}

// TestStepTiedWithBest: of a step's alternatives b (1100), c (1104) and
// d (1050), single runs against reference a (1000), c is the best and b,
// 0.4 % below it inside the 1 % band, is named tied with it; d, 4.9 %
// below, is not, nor is the reference. analysis.json gives the same.
func TestStepTiedWithBest(t *testing.T) {
	r, _ := stepChange(t, testRun("a", "A", 8, "sharegpt", "1000.00"), testRun("b", "B", 8, "sharegpt", "1100.00"),
		testRun("c", "C", 8, "sharegpt", "1104.00"), testRun("d", "D", 8, "sharegpt", "950.00"))
	r.Study.Steps[0].Runs = []string{"b", "c", "d"}
	r = Build(r.Study, nil)
	sr := r.StepByID("x")
	var tied []string
	for _, rr := range sr.Tied {
		tied = append(tied, rr.Run.ID)
	}
	if sr.Best == nil || sr.Best.Run.ID != "c" || strings.Join(tied, " ") != "b" {
		t.Errorf("best %v, tied %v; want c, tied b", sr.Best, tied)
	}
	for _, c := range r.Analysis().Comparisons {
		if c.Kind == "step" && strings.Join(c.TiedWithBest, " ") != "b" {
			t.Errorf("analysis: step tied with best %v, want [b]", c.TiedWithBest)
		}
		// The three runs against the reference are one family: Holm.
		if c.Kind == "step-run" && (c.Correction != CorrectionHolm || c.FamilySize != 3 || c.PAdjusted == nil || *c.PAdjusted < *c.P ||
			c.AssumedVariation != 2.5 || !c.AssumedVariationDefault || c.Test != TestAssumed) {
			t.Errorf("analysis: step-run %+v, want Holm over 3 at the assumed 2.5 %%", c)
		}
	}
}
