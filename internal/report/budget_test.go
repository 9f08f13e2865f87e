package report

import (
	"testing"

	"github.com/perflab/perflab/internal/study"
)

func samplesOf(xs ...float64) []Sample {
	out := make([]Sample, len(xs))
	for i, x := range xs {
		out[i] = Sample{Measured: x}
	}
	return out
}

// TestBorderline: a mean inside the limit is borderline when its interval
// or one repeat crosses the limit; a single value never is.
func TestBorderline(t *testing.T) {
	for _, c := range []struct {
		name string
		v    *Value
		want bool
	}{
		{"single", &Value{Measured: 2990, Replicas: 1}, false},
		{"all repeats inside, interval inside", &Value{Measured: 2500, Replicas: 1, Repeats: 3, HalfWidth: 50, Samples: samplesOf(2480, 2500, 2520)}, false},
		{"a repeat across", &Value{Measured: 2900, Replicas: 1, Repeats: 3, HalfWidth: 40, Samples: samplesOf(2800, 3050, 2850)}, true},
		{"interval across, repeats not", &Value{Measured: 2950, Replicas: 1, Repeats: 3, HalfWidth: 100, Samples: samplesOf(2940, 2950, 2960)}, true},
		{"mean over, a repeat under", &Value{Measured: 3100, Replicas: 1, Repeats: 3, HalfWidth: 200, Samples: samplesOf(2950, 3150, 3200)}, true},
	} {
		if got := Borderline(c.v, 3000); got != c.want {
			t.Errorf("%s: Borderline = %v, want %v", c.name, got, c.want)
		}
	}
}

// TestBudgetTies: every run within the budget that the verdict cannot
// tell from the best is named with it; a measurably worse one is not.
func TestBudgetTies(t *testing.T) {
	a := testRun("a", "A", 8, "sharegpt", "1000.00")
	b := testRun("b", "B", 8, "sharegpt", "995.00") // -0.5 %: inside the 1 % band
	c := testRun("c", "C", 8, "sharegpt", "900.00") // -10 %
	for _, r := range []*study.Run{a, b, c} {
		setMetric(r, "sharegpt", "p99_ttft_ms", "100.0", 12)
	}
	s := testStudy(study.Throughput, 8, a, b, c)
	s.SLO = &study.SLO{Stat: "p99", TTFT: 500}
	res := Build(s, nil).SLO
	if res.Best == nil || res.Best.Run.ID != "a" || len(res.Tied) != 1 || res.Tied[0].Run.ID != "b" {
		t.Fatalf("best %v, tied %v; want a, tied b", res.Best, res.Tied)
	}
}
