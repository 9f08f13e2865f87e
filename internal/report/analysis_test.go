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
	if single == nil || single.Verdict != "no measurable difference" || single.P != nil || single.Interval != nil || single.N != [2]int{5, 1} || single.Test != TestBand {
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
