package stats

import (
	"math"
	"testing"
)

// R: p.adjust(c(0.01, 0.04, 0.03, 0.005), "holm") gives 0.03 0.06 0.06 0.02.
func TestHolmKnownAnswer(t *testing.T) {
	got := Holm([]float64{0.01, 0.04, 0.03, 0.005})
	for i, want := range []float64{0.03, 0.06, 0.06, 0.02} {
		if !near(got[i], want, 1e-12) {
			t.Errorf("Holm[%d] = %v, want %v", i, got[i], want)
		}
	}
	levels := HolmLevels([]float64{0.01, math.NaN(), 0.03}, 0.05)
	if !near(levels[0], 0.025, 1e-12) || !math.IsNaN(levels[1]) || !near(levels[2], 0.05, 1e-12) {
		t.Errorf("HolmLevels = %v, want [0.025 NaN 0.05]", levels)
	}
	if one := Holm([]float64{0.2}); one[0] != 0.2 {
		t.Errorf("a family of one is adjusted: %v", one)
	}
}

// The case: one run 3.1 % above the mean of three repeats whose
// mean has a ±3.7 % interval: t = 1.80, df 2, p = 0.21 (scipy:
// 2 * t.sf(1.8028, 2) = 0.2132).
func TestPredictionKnownAnswer(t *testing.T) {
	sd := 3.7 * math.Sqrt(3) / TQuantile(0.975, 2) // the repeats' sd, from their interval
	s := Summary{N: 3, Mean: 100, SD: sd}
	tt, df, p, half, ok := Prediction(103.1, s)
	if !ok || !near(tt, 1.80, 0.005) || df != 2 || !near(p, 0.213, 0.001) {
		t.Fatalf("Prediction = t %v, df %v, p %v, ok %v; want t 1.80, df 2, p 0.21", tt, df, p, ok)
	}
	if !near(half, TQuantile(0.975, 2)*sd*math.Sqrt(4.0/3), 1e-9) {
		t.Errorf("half-width %v", half)
	}
	if _, _, _, _, ok := Prediction(1, Summary{N: 3, Mean: 1}); ok {
		t.Error("repeats without spread tested")
	}
}

// One run a side at 2.5 %: the change must pass 1.96 x 2.5 x sqrt(2) = 6.93 %.
func TestAssumedThreshold(t *testing.T) {
	x := AssumedThreshold(1, 1, 2.5, 0, 0.05)
	if !near(x, 6.9296, 1e-3) {
		t.Fatalf("threshold %v, want 6.93", x)
	}
	if p := AssumedP(x, 1, 1, 2.5, 0); !near(p, 0.05, 1e-9) {
		t.Errorf("p at the threshold %v, want 0.05", p)
	}
	// Estimated from 4 degrees of freedom: t(0.975, 4) = 2.776.
	if p := AssumedP(2.77644511*math.Sqrt(2), 1, 1, 1, 4); !near(p, 0.05, 1e-6) {
		t.Errorf("p with df 4: %v, want 0.05", p)
	}
	if q := NormalQuantile(0.975); !near(q, Z975, 1e-12) {
		t.Errorf("NormalQuantile(0.975) = %v", q)
	}
}
