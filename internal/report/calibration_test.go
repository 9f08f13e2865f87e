package report

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/perflab/perflab/internal/study"
)

// A known-answer calibration: synthetic studies whose true effects are
// known go through Build, the same code as every report, and the rates of
// their verdicts are held to what the rule promises (docs/statistics.md,
// "Calibration"). Each run's throughput is 1000 x (1 + effect) x (1 + cv x
// a standard normal draw), printed with two decimals as a log would; the
// generator is seeded, so the rates are the same on every run.

// calibrationRuns is how many synthetic studies make each cell.
const calibrationRuns = 400

// simRun is a run of n repeats (one run when n is 1) around mean.
func simRun(rng *rand.Rand, id string, n int, mean, cv float64) *study.Run {
	values := make([]string, n)
	for i := range values {
		values[i] = strconv.FormatFloat(mean*(1+cv*rng.NormFloat64()), 'f', 2, 64)
	}
	if n == 1 {
		return testRun(id, id, 8, "sharegpt", values[0])
	}
	return repeated(id, values...)
}

// simStep builds a study whose one step compares alternatives with the
// reference "ref", each run with its n repeats and true effect (in
// percent), and returns the step.
func simStep(rng *rand.Rand, nRef int, cv float64, alts []simAlt) *StepResult {
	runs := []*study.Run{simRun(rng, "ref", nRef, 1000, cv)}
	ids := make([]string, len(alts))
	for i, a := range alts {
		ids[i] = "alt" + strconv.Itoa(i)
		runs = append(runs, simRun(rng, ids[i], a.n, 1000*(1+a.effect/100), cv))
	}
	s := testStudy(study.Throughput, 8, runs...)
	s.Baseline = study.Config{Runs: []string{"ref"}}
	s.Recommended = study.Config{Runs: []string{ids[0]}}
	s.Steps = []study.Step{{ID: "x", Runs: ids, Reference: "ref"}}
	return Build(s, nil).StepByID("x")
}

type simAlt struct {
	n      int
	effect float64 // true change, percent
}

// cell counts the verdicts of one cell of the calibration.
type cell struct {
	studies, wins, better, covered, intervals int
	tieNamed                                  int // steps whose best is named with a tied alternative
}

func (c cell) rate(k int) float64 { return float64(k) / float64(c.studies) }

// simulate runs a cell: each study's step, its alternatives' changes.
func simulate(seed uint64, nRef int, cv float64, alts []simAlt) cell {
	rng := rand.New(rand.NewPCG(seed, 43))
	var c cell
	for range calibrationRuns {
		sr := simStep(rng, nRef, cv/100, alts)
		c.studies++
		win := false
		for i, rr := range sr.Runs {
			ch := rr.Change
			if !ch.Noise {
				win = true
				if ch.Better {
					c.better++
				}
			}
			if !math.IsNaN(ch.Lo) {
				c.intervals++
				if truth := alts[i].effect; ch.Lo <= truth && truth <= ch.Hi {
					c.covered++
				}
			}
		}
		if win {
			c.wins++
		}
		if len(sr.Tied) > 0 {
			c.tieNamed++
		}
	}
	return c
}

// TestCalibrationNoChange: between identical configurations, the rate of
// printed wins or losses, by run-to-run variation and repeats a side.
func TestCalibrationNoChange(t *testing.T) {
	if testing.Short() {
		t.Skip("thousands of synthetic studies")
	}
	var all cell
	for _, cv := range []float64{1, 2, 5} {
		for n := 1; n <= 5; n++ {
			c := simulate(uint64(100*cv)+uint64(n), n, cv, []simAlt{{n, 0}})
			t.Logf("no change, variation %.0f %%, %d + %d: false wins %.1f %%", cv, n, n, 100*c.rate(c.wins))
			switch {
			case n >= 2:
				all.studies += c.studies
				all.wins += c.wins
				if c.rate(c.wins) > 0.09 {
					t.Errorf("variation %.0f %%, %d + %d: false wins %.1f %%, want at most 9 %%", cv, n, n, 100*c.rate(c.wins))
				}
			case cv <= 2 && c.rate(c.wins) > 0.09:
				t.Errorf("variation %.0f %%, one run a side: false wins %.1f %%, want at most 9 %%", cv, 100*c.rate(c.wins))
			}
		}
	}
	t.Logf("no change, two repeats or more a side: false wins %.2f %% of %d", 100*all.rate(all.wins), all.studies)
	if all.rate(all.wins) > 0.055 {
		t.Errorf("false wins over every cell with repeats: %.2f %%, want at most 5.5 %%", 100*all.rate(all.wins))
	}
}

// TestCalibrationOneAgainstRepeats: one run against n repeats, tested by
// the repeats' prediction interval, prints as few false wins.
func TestCalibrationOneAgainstRepeats(t *testing.T) {
	if testing.Short() {
		t.Skip("thousands of synthetic studies")
	}
	for _, cv := range []float64{1, 2, 5} {
		for n := 2; n <= 5; n++ {
			c := simulate(uint64(7000+100*cv)+uint64(n), n, cv, []simAlt{{1, 0}})
			t.Logf("no change, variation %.0f %%, %d + 1: false wins %.1f %%", cv, n, 100*c.rate(c.wins))
			if c.rate(c.wins) > 0.09 {
				t.Errorf("variation %.0f %%, %d + 1: false wins %.1f %%, want at most 9 %%", cv, n, 100*c.rate(c.wins))
			}
		}
	}
}

// TestCalibrationTwoEqualAlternatives: a step with two alternatives equal
// to its reference shows a win or a loss in few steps: Holm's correction
// holds the step's family of two comparisons; and the summary names the
// two alternatives as tied.
func TestCalibrationTwoEqualAlternatives(t *testing.T) {
	if testing.Short() {
		t.Skip("thousands of synthetic studies")
	}
	for _, cv := range []float64{1, 2, 5} {
		for n := 1; n <= 5; n++ {
			c := simulate(uint64(9000+100*cv)+uint64(n), n, cv, []simAlt{{n, 0}, {n, 0}})
			t.Logf("two equal alternatives, variation %.0f %%, %d a side: steps with a false win %.1f %%, the tie named in %.1f %%", cv, n, 100*c.rate(c.wins), 100*c.rate(c.tieNamed))
			if (n >= 2 || cv <= 2) && c.rate(c.wins) > 0.075 {
				t.Errorf("variation %.0f %%, %d a side: steps with a false win %.1f %%, want at most 7.5 %%", cv, n, 100*c.rate(c.wins))
			}
			// The summary names the two equal alternatives together.
			if (n >= 2 || cv <= 2) && c.rate(c.tieNamed) < 0.90 {
				t.Errorf("variation %.0f %%, %d a side: the tie named in %.1f %% of steps, want at least 90 %%", cv, n, 100*c.rate(c.tieNamed))
			}
		}
	}
}

// TestCalibrationPower: a true +30 % is still called better with one run
// a side at 1-2 % variation; and the rate with repeats, for the record.
func TestCalibrationPower(t *testing.T) {
	if testing.Short() {
		t.Skip("thousands of synthetic studies")
	}
	for _, cv := range []float64{1, 2} {
		c := simulate(uint64(11000+100*cv), 1, cv, []simAlt{{1, 30}})
		t.Logf("+30 %%, variation %.0f %%, one run a side: called better %.1f %%", cv, 100*c.rate(c.better))
		if c.rate(c.better) < 0.90 {
			t.Errorf("+30 %%, variation %.0f %%, one run a side: called better %.1f %%, want at least 90 %%", cv, 100*c.rate(c.better))
		}
	}
	// The price of the one-run rule: a +5 % gain, found by one run a side,
	// and by three repeats a side, for docs/statistics.md.
	for _, cv := range []float64{1, 2} {
		for _, n := range []int{1, 3} {
			c := simulate(uint64(12000+100*cv)+uint64(n), n, cv, []simAlt{{n, 5}})
			t.Logf("+5 %%, variation %.0f %%, %d + %d: called better %.1f %%", cv, n, n, 100*c.rate(c.better))
		}
	}
}

// TestCalibrationCoverage: the 95 % interval of the change covers the
// true change in 93-98 % of comparisons with repeats, with and without
// an effect.
func TestCalibrationCoverage(t *testing.T) {
	if testing.Short() {
		t.Skip("thousands of synthetic studies")
	}
	var all cell
	for _, cv := range []float64{1, 2, 5} {
		for _, effect := range []float64{0, 5} {
			for n := 2; n <= 5; n++ {
				for _, nTo := range []int{1, n} { // against one run: the prediction interval
					c := simulate(uint64(13000+100*cv+10*effect)+uint64(10*n+nTo), n, cv, []simAlt{{nTo, effect}})
					all.intervals += c.intervals
					all.covered += c.covered
				}
			}
		}
	}
	coverage := float64(all.covered) / float64(all.intervals)
	t.Logf("coverage of the 95 %% interval: %.1f %% of %d", 100*coverage, all.intervals)
	if coverage < 0.93 || coverage > 0.98 {
		t.Errorf("coverage %.1f %%, want 93-98 %%", 100*coverage)
	}
}

// TestThresholdInFamily: the smallest change one run a side can tell is
// the same on every comparison of a page, unless Holm's share of alpha
// turned a change past it into noise.
func TestThresholdInFamily(t *testing.T) {
	for _, c := range []struct {
		percent, level, want float64
	}{
		{0.5, 0.025, 6.93}, // under the threshold at alpha: the page's figure
		{7.5, 0.05, 6.93},
		{7.5, 0.025, 7.92}, // past it, held to alpha / 2: z(0.9875) x 2.5 x sqrt(2)
	} {
		ch := &Change{Percent: c.percent, NFrom: 1, NTo: 1, Sigma: 2.5, Level: c.level}
		if got := ch.Threshold(); math.Abs(got-c.want) > 0.005 {
			t.Errorf("%s: threshold %.3f, want %.2f", fmt.Sprint(c), got, c.want)
		}
	}
}
