package stats

import (
	"math"
	"testing"
)

func near(got, want, tol float64) bool { return math.Abs(got-want) <= tol }

// The t distribution's tails against R's qt and pt.
func TestTwoSidedPAndQuantile(t *testing.T) {
	for _, c := range []struct{ t, df, p float64 }{
		{2.22813885, 10, 0.05},
		{12.7062047, 1, 0.05},
		{2.57058184, 5, 0.05},
		{0, 7, 1},
		{1.95996398, 1e7, 0.05},
	} {
		if got := TwoSidedP(c.t, c.df); !near(got, c.p, 1e-6) {
			t.Errorf("TwoSidedP(%v, %v) = %v, want %v", c.t, c.df, got, c.p)
		}
	}
	for _, c := range []struct{ df, q float64 }{{1, 12.7062047}, {4, 2.77644511}, {30, 2.04227246}} {
		if got := TQuantile(0.975, c.df); !near(got, c.q, 1e-3) {
			t.Errorf("TQuantile(0.975, %v) = %v, want %v", c.df, got, c.q)
		}
	}
}

// R: t.test(1:3, 4:6) prints t = -3.6742, df = 4, p-value = 0.02131.
func TestWelchKnownAnswer(t *testing.T) {
	p, df, ok := Welch(Summarize([]float64{1, 2, 3}), Summarize([]float64{4, 5, 6}))
	if !ok || !near(df, 4, 1e-9) || !near(p, 0.02131, 5e-5) {
		t.Fatalf("Welch = p %v, df %v, ok %v; want p 0.02131, df 4", p, df, ok)
	}
	// Unequal spreads: va = 4/3, vb = (5/3)/4, df = (va+vb)² / (va²/2 + vb²/3),
	// t = 9.5 / sqrt(va+vb).
	va, vb := 4.0/3, 5.0/12
	wantDF := (va + vb) * (va + vb) / (va*va/2 + vb*vb/3)
	p, df, _ = Welch(Summarize([]float64{10, 12, 14}), Summarize([]float64{20, 21, 22, 23}))
	if !near(df, wantDF, 1e-9) || !near(p, TwoSidedP(9.5/math.Sqrt(va+vb), wantDF), 1e-12) {
		t.Errorf("Welch = p %v, df %v; want df %v", p, df, wantDF)
	}
}

// A side of one value, or two sides with no spread, cannot be tested.
func TestWelchNeedsSpread(t *testing.T) {
	for _, c := range [][2][]float64{
		{{5}, {6, 7, 8}},
		{{5, 5, 5}, {6, 6, 6}},
	} {
		if _, _, ok := Welch(Summarize(c[0]), Summarize(c[1])); ok {
			t.Errorf("Welch(%v, %v) tested", c[0], c[1])
		}
		if _, _, ok := RatioInterval(Summarize(c[0]), Summarize(c[1])); ok {
			t.Errorf("RatioInterval(%v, %v) computed", c[0], c[1])
		}
	}
}

// The ratio interval is centred on the ratio; here, clear separation
// gives an interval above 1.
func TestRatioInterval(t *testing.T) {
	a, b := Summarize([]float64{100, 101, 99}), Summarize([]float64{110, 111, 109})
	lo, hi, ok := RatioInterval(a, b)
	if !ok || !(lo > 1 && lo < 1.1 && hi > 1.1) {
		t.Fatalf("interval = [%v, %v], ok %v", lo, hi, ok)
	}
	if !near((lo+hi)/2, 1.1, 1e-9) {
		t.Errorf("interval [%v, %v] not centred on 1.1", lo, hi)
	}
	// cv 1/100 and 1/110, 3 + 3: se² = (0.01² + (1/110)²) / 3; the two
	// cvs are close, so df is close to 4 (t 2.776).
	half := TQuantile(0.975, 2*(1+1/1.21)*(1+1/1.21)/(1+1/1.21/1.21)) * math.Sqrt((0.0001+1/12100.0)/3)
	if !near(hi/1.1-1, half, 1e-4) {
		t.Errorf("relative half-width = %v, want %v", hi/1.1-1, half)
	}
}

func TestMannWhitneyExact(t *testing.T) {
	for _, c := range []struct {
		a, b []float64
		p    float64
	}{
		{[]float64{1, 2, 3, 4, 5}, []float64{6, 7, 8, 9, 10}, 2.0 / 252},
		{[]float64{6, 7, 8, 9, 10}, []float64{1, 2, 3, 4, 5}, 2.0 / 252},
		{[]float64{1, 2, 3, 4}, []float64{5, 6, 7, 8}, 2.0 / 70},
		{[]float64{1, 2, 3}, []float64{4, 5, 6}, 2.0 / 20},
		// Interleaved: U = 8 of 16 for 4 + 4, the middle, p = 1.
		{[]float64{1, 4, 5, 8}, []float64{2, 3, 6, 7}, 1},
	} {
		if got := MannWhitney(c.a, c.b); !near(got, c.p, 1e-12) {
			t.Errorf("MannWhitney(%v, %v) = %v, want %v", c.a, c.b, got, c.p)
		}
	}
}

// With ties, the normal approximation: identical samples give p = 1, and
// separated samples with a tie inside one of them stay significant.
func TestMannWhitneyTies(t *testing.T) {
	if p := MannWhitney([]float64{3, 3, 3, 3}, []float64{3, 3, 3, 3}); p != 1 {
		t.Errorf("identical samples: p = %v, want 1", p)
	}
	p := MannWhitney([]float64{1, 1, 2, 3, 4}, []float64{6, 7, 8, 9, 10})
	if !(p < Alpha && p > 0.005) {
		t.Errorf("separated samples with a tie: p = %v", p)
	}
}

// The recurrence's counts sum to the orderings, C(n1+n2, n1).
func TestUCountsSum(t *testing.T) {
	sum := 0.0
	for _, c := range uCounts(6, 4) {
		sum += c
	}
	if sum != 210 {
		t.Errorf("orderings of 6 + 4 = %v, want 210", sum)
	}
}

func TestPooledCV(t *testing.T) {
	cv, df := PooledCV([][]float64{{9, 10, 11}, {18, 20, 22}, {7}})
	if !near(cv, 0.1, 1e-12) || df != 4 {
		t.Errorf("PooledCV = %v, df %d; want 0.1, 4", cv, df)
	}
	if cv, df := PooledCV([][]float64{{5}, {6}}); cv != 0 || df != 0 {
		t.Errorf("no repeats: PooledCV = %v, df %d", cv, df)
	}
}

func FuzzMannWhitneyInRange(f *testing.F) {
	f.Add(1.0, 2.0, 3.0, 4.0, 5.0, 6.0)
	f.Fuzz(func(t *testing.T, a1, a2, a3, b1, b2, b3 float64) {
		for _, x := range []float64{a1, a2, a3, b1, b2, b3} {
			if math.IsNaN(x) {
				return
			}
		}
		p := MannWhitney([]float64{a1, a2, a3, a1}, []float64{b1, b2, b3, b2})
		if !(p >= 0 && p <= 1) {
			t.Fatalf("p = %v", p)
		}
	})
}

// TQuantile inverts TwoSidedP at degrees of freedom that are not whole.
func TestTQuantileInverts(t *testing.T) {
	for _, df := range []float64{1.5, 3.2347, 4.5, 17.9} {
		if p := TwoSidedP(TQuantile(0.975, df), df); !near(p, 0.05, 1e-9) {
			t.Errorf("df %v: p at the quantile = %v", df, p)
		}
	}
}

// RatioP < 0.05 exactly when RatioInterval leaves out 1.
func TestRatioPAgreesWithInterval(t *testing.T) {
	for _, c := range [][2][]float64{
		{{100, 101, 99}, {110, 111, 109}},
		{{100, 110, 90}, {105, 115, 95}},
		{{100, 102, 98, 101}, {97, 99, 95, 96}},
		{{10, 12, 14}, {13, 15, 17}},
	} {
		a, b := Summarize(c[0]), Summarize(c[1])
		lo, hi, _ := RatioInterval(a, b)
		p, ok := RatioP(a, b)
		if !ok || (p < 0.05) != (lo > 1 || hi < 1) {
			t.Errorf("%v, %v: p = %v, interval [%v, %v]", c[0], c[1], p, lo, hi)
		}
	}
}
