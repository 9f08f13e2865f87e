package report

import (
	"math"

	"github.com/perflab/perflab/internal/stats"
	"github.com/perflab/perflab/internal/study"
)

// AccuracyChange is a score of one run against the same task and metric of
// a reference run, with a two-sided z test on the difference when both
// accuracy files give a standard error (docs/statistics.md#accuracy).
type AccuracyChange struct {
	From, To study.Score
	Diff     float64 // To - From, in the score's own unit
	// Tested: both scores have a standard error. Then StdErr is that of
	// the difference, sqrt(se1² + se2²), Low and High its 95 % interval,
	// P the test's p and Beyond whether P < stats.Alpha.
	Tested    bool
	StdErr    float64
	Low, High float64
	P         float64
	Beyond    bool
}

// z95 is the two-sided 95 % quantile of the normal distribution.
const z95 = 1.959963984540054

// AccuracyChanges compares each score of run with the same task and metric
// of ref, in run's order; nil when they share none.
func AccuracyChanges(ref, run *study.Run) []AccuracyChange {
	if ref == nil || run == nil || ref == run {
		return nil
	}
	var out []AccuracyChange
	for _, to := range run.Accuracy {
		for _, from := range ref.Accuracy {
			if from.Task == to.Task && from.Metric == to.Metric {
				out = append(out, accuracyChange(from, to))
				break
			}
		}
	}
	return out
}

func accuracyChange(from, to study.Score) AccuracyChange {
	c := AccuracyChange{From: from, To: to, Diff: to.Value - from.Value}
	if from.StdErr <= 0 || to.StdErr <= 0 {
		return c
	}
	c.Tested = true
	c.StdErr = math.Hypot(from.StdErr, to.StdErr)
	c.Low, c.High = c.Diff-z95*c.StdErr, c.Diff+z95*c.StdErr
	c.P = math.Erfc(math.Abs(c.Diff) / c.StdErr / math.Sqrt2)
	c.Beyond = c.P < stats.Alpha
	return c
}

// AnalysisAccuracy is one score of a step's run against its reference.
type AnalysisAccuracy struct {
	Step      string      `json:"step"`
	From      string      `json:"from"`
	To        string      `json:"to"`
	Task      string      `json:"task"`
	Metric    string      `json:"metric"`
	FromValue float64     `json:"from_value"`
	ToValue   float64     `json:"to_value"`
	Diff      float64     `json:"diff"`
	StdErr    *float64    `json:"std_err"`  // of the difference; null when untested
	Interval  *[2]float64 `json:"interval"` // 95 %; null when untested
	P         *float64    `json:"p"`        // two-sided z test; null when untested
	Verdict   string      `json:"verdict"`  // beyond noise, within noise, untested
}

// analysisAccuracy lists the accuracy changes of every step's runs
// against its reference.
func (r *Report) analysisAccuracy() []AnalysisAccuracy {
	var out []AnalysisAccuracy
	for _, sr := range r.Steps {
		if sr.Reference == nil {
			continue
		}
		for _, rr := range sr.Runs {
			for _, c := range AccuracyChanges(sr.Reference.Run, rr.Run) {
				a := AnalysisAccuracy{Step: sr.Step.ID, From: sr.Reference.Run.ID, To: rr.Run.ID, Task: c.To.Task, Metric: c.To.Metric,
					FromValue: c.From.Value, ToValue: c.To.Value, Diff: c.Diff, Verdict: "untested"}
				if c.Tested {
					a.StdErr, a.Interval, a.P = finite(c.StdErr), &[2]float64{c.Low, c.High}, finite(c.P)
					a.Verdict = "within noise"
					if c.Beyond {
						a.Verdict = "beyond noise"
					}
				}
				out = append(out, a)
			}
		}
	}
	return out
}
