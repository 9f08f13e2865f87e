package report

import (
	"math"

	"github.com/perflab/perflab/internal/stats"
)

// Analysis is every derived claim of a study's report in one document
// (data/<study>.analysis.json, docs/downloads.md): each comparison with its
// test, the noise bands, the budget verdicts, the frontiers, goodput and
// cost, so that each can be checked without reading the pages.
type Analysis struct {
	Study       string               `json:"study"`
	Alpha       float64              `json:"alpha"`
	Headline    AnalysisMetric       `json:"headline"`
	Bands       []Band               `json:"bands"`
	Comparisons []AnalysisComparison `json:"comparisons"`
	Budget      *AnalysisBudget      `json:"budget,omitempty"`
	Sweeps      []AnalysisSweep      `json:"sweeps,omitempty"`
	Cost        []AnalysisCost       `json:"cost,omitempty"`
	Accuracy    []AnalysisAccuracy   `json:"accuracy,omitempty"`
	// Path is the path from the baseline to the recommended configuration
	// through the steps (StepPath); absent without one.
	Path *AnalysisPath `json:"path,omitempty"`
}

// AnalysisPath lists the steps that built the recommended configuration,
// each with its own change (kind step-credit among the comparisons), and
// whether they were measured one at a time.
type AnalysisPath struct {
	Steps      []string `json:"steps"` // step ids, in order
	OneAtATime bool     `json:"one_at_a_time"`
	Reached    bool     `json:"reached"`
}

// AnalysisMetric names a metric and its direction.
type AnalysisMetric struct {
	Key          string `json:"key"`
	Unit         string `json:"unit"`
	HigherBetter bool   `json:"higher_better"`
}

// AnalysisComparison is one change a page prints. Kind is conclusion (a
// row: Subject is the workload), step (a step's best against its
// reference), step-run (each run of a step against its reference) or
// history (a version against the one before: Subject is the version).
type AnalysisComparison struct {
	Kind          string      `json:"kind"`
	Subject       string      `json:"subject"`
	Workload      string      `json:"workload"`
	Metric        string      `json:"metric"`
	From          string      `json:"from"`
	To            string      `json:"to"`
	FromValue     float64     `json:"from_value"`
	ToValue       float64     `json:"to_value"`
	ChangePercent float64     `json:"change_percent"`
	Interval      *[2]float64 `json:"interval_percent"` // null under the assumed variation
	P             *float64    `json:"p"`                // the test's: Welch's, the prediction t's or the assumed variation's
	PU            *float64    `json:"p_mann_whitney"`   // null below 4 repeats a side
	T             *float64    `json:"t,omitempty"`      // the prediction t, one run against repeats
	DF            *float64    `json:"df,omitempty"`     // its degrees of freedom
	N             [2]int      `json:"n"`
	Test          string      `json:"test"`
	BandPercent   float64     `json:"band_percent"`
	// AssumedVariation is the run-to-run variation, in percent, a test
	// without a measured spread used (Band.Sigma), with its degrees of
	// freedom (0: a default, taken as known) and whether it is the
	// default of the metric's class.
	AssumedVariation        float64 `json:"assumed_variation_percent"`
	AssumedVariationDF      int     `json:"assumed_variation_df"`
	AssumedVariationDefault bool    `json:"assumed_variation_default"`
	// Correction is "holm" when the comparison is one of a family of
	// FamilySize (a step's runs against its reference), PAdjusted its
	// Holm-adjusted p, and Level the share of alpha it was held to;
	// Correction is "none" for a comparison alone.
	Correction string   `json:"correction"`
	FamilySize int      `json:"family_size"`
	PAdjusted  *float64 `json:"p_adjusted"`
	Level      float64  `json:"level"`
	Verdict    string   `json:"verdict"` // better, worse, no measurable difference
	// Comparability is like-for-like, caveated or not comparable, with
	// what differs; absent for history, a run against itself.
	Comparability *Likeness `json:"comparability,omitempty"`
	// TiedWithBest, for a step's best (kind step), are the step's other
	// runs the verdict cannot tell from it (StepResult.Tied).
	TiedWithBest []string `json:"tied_with_best,omitempty"`
}

// AnalysisBudget is the latency budget's verdict on each run.
type AnalysisBudget struct {
	Runs []AnalysisBudgetRun `json:"runs"`
	Best string              `json:"best"` // "" when no run keeps it
	Tied []string            `json:"tied_with_best"`
}

// AnalysisBudgetRun is one run against the budget: yes, no or borderline.
type AnalysisBudgetRun struct {
	Run           string   `json:"run"`
	Verdict       string   `json:"verdict"`
	Goodput       *float64 `json:"goodput,omitempty"`        // printed by the benchmark, req/s
	BudgetGoodput *float64 `json:"budget_goodput,omitempty"` // at the budget, from per-request data, req/s
}

// AnalysisSweep is one swept workload: every point, its frontier mark,
// and the best point within the budget.
type AnalysisSweep struct {
	Workload string          `json:"workload"`
	Points   []AnalysisPoint `json:"points"`
	Best     *AnalysisPoint  `json:"best_within_budget,omitempty"`
	// Tied are the points within the budget that cannot be told from the
	// best one (SweepResult.Tied).
	Tied []AnalysisPointRef `json:"tied_with_best,omitempty"`
	// Goodput is each configuration's, where every load of its curve kept
	// per-request arrays; absent without a budget or arrays.
	Goodput []AnalysisGoodput `json:"goodput,omitempty"`
}

// AnalysisGoodput is a configuration's goodput as DistServe defines it:
// the highest load per GPU at which at least Target of the requests keep
// every limit of the budget.
type AnalysisGoodput struct {
	Run        string   `json:"run"`
	LoadKey    string   `json:"load_key"` // max_concurrency or request_rate
	Target     float64  `json:"target_attainment"`
	Load       *float64 `json:"load"` // null when no load attains Target
	GPUs       int      `json:"gpus"`
	LoadPerGPU *float64 `json:"load_per_gpu"`
	Attainment *float64 `json:"attainment"` // at Load
	// AttainmentInterval is its 95 % Wilson interval, [low, high].
	AttainmentInterval []float64 `json:"attainment_interval,omitempty"`
	Good               int       `json:"good_requests"`
	Total              int       `json:"requests"`
	// Borderline: at Load or a higher load, the count could go either
	// way (SweepGoodput.Borderline).
	Borderline bool `json:"borderline"`
}

// AnalysisPointRef names a point of a sweep: a run at a load.
type AnalysisPointRef struct {
	Run  string  `json:"run"`
	Load float64 `json:"load"`
}

// AnalysisPoint is a configuration at one load.
type AnalysisPoint struct {
	Run          string   `json:"run"`
	Load         float64  `json:"load"`
	OutputPerGPU float64  `json:"output_tok_s_per_gpu"`
	MedianTPOT   *float64 `json:"median_tpot_ms"`
	Frontier     bool     `json:"frontier"`
	// NearFrontier: off the frontier, but beaten by no frontier point measurably
	// (SweepPoint.NearFrontier).
	NearFrontier bool `json:"near_frontier"`
	Meets        bool `json:"meets_budget"`
	// Attainment is the share of requests that kept every limit; absent
	// without a budget or per-request arrays.
	Attainment *float64 `json:"slo_attainment,omitempty"`
	// AttainmentInterval is its 95 % Wilson interval, [low, high].
	AttainmentInterval []float64 `json:"slo_attainment_interval,omitempty"`
	// PerMillionOutput is what a million output tokens cost at the point,
	// at the study's price; absent without a price.
	PerMillionOutput *float64 `json:"per_million_output_tokens,omitempty"`
	// PerMillionTotal is the same for tokens in and out; absent without a
	// price or a total throughput.
	PerMillionTotal *float64 `json:"per_million_total_tokens,omitempty"`
}

// AnalysisCost is one run's cost per million output tokens.
type AnalysisCost struct {
	Run              string   `json:"run"`
	TokensPerGPUHour float64  `json:"output_tokens_per_gpu_hour"`
	PerMillionOutput float64  `json:"per_million_output_tokens"`
	PerMillionTotal  *float64 `json:"per_million_total_tokens"` // null without a total throughput
	Currency         string   `json:"currency"`
	// TiedWith is the run listed before it that its cost cannot be told
	// from (CostRun.TiedWith); absent when it costs measurably more.
	TiedWith string `json:"tied_with,omitempty"`
}

// Analysis gathers the report's derived claims.
func (r *Report) Analysis() *Analysis {
	a := &Analysis{Study: r.Study.ID, Alpha: stats.Alpha, Comparisons: []AnalysisComparison{},
		Headline: AnalysisMetric{Key: r.Headline.Key, Unit: r.Headline.Unit, HigherBetter: r.Headline.HigherBetter}}
	for _, key := range append([]string{r.Headline.Key}, latencyKeys()...) {
		a.Bands = append(a.Bands, r.BandOf(key))
	}
	for _, row := range r.Rows {
		if row.Change != nil {
			a.add("conclusion", row.Workload.ID, row.Workload.ID, row.Change)
		}
	}
	if p := r.Path; p != nil && len(p.Links) > 0 {
		a.Path = &AnalysisPath{Steps: []string{}, OneAtATime: p.OneAtATime, Reached: p.Reached}
		for _, l := range p.Links {
			a.Path.Steps = append(a.Path.Steps, l.Step.Step.ID)
		}
	}
	for _, sr := range r.Steps {
		// A step credited against another configuration than its
		// reference (on the path): that change, as the summary shows it.
		if c := sr.BestCredit(); c != nil && c != sr.Change {
			a.add("step-credit", sr.Step.ID, c.To.Workload, c)
		}
		if sr.Change != nil {
			a.add("step", sr.Step.ID, sr.Change.To.Workload, sr.Change)
			for _, rr := range sr.Tied {
				c := &a.Comparisons[len(a.Comparisons)-1]
				c.TiedWithBest = append(c.TiedWithBest, rr.Run.ID)
			}
		}
		for _, rr := range sr.Runs {
			if rr.Change != nil {
				a.add("step-run", sr.Step.ID, rr.Change.To.Workload, rr.Change)
			}
		}
	}
	for _, hr := range r.History {
		for _, t := range append(hr.Trends[:len(hr.Trends):len(hr.Trends)], hr.Tails...) {
			for _, p := range t.Points {
				if p.Change != nil {
					a.add("history", p.Version, t.Workload.ID, p.Change)
				}
			}
		}
	}
	a.Budget, a.Accuracy = r.analysisBudget(), r.analysisAccuracy()
	for _, sw := range r.Sweeps {
		a.Sweeps = append(a.Sweeps, analysisSweep(sw, r.Cost))
	}
	if r.Cost != nil {
		for _, c := range r.Cost.Runs {
			a.Cost = append(a.Cost, AnalysisCost{Run: c.Run.ID, TokensPerGPUHour: c.TokensPerGPUHour, PerMillionOutput: c.PerMillion, PerMillionTotal: positive(c.PerMillionTotal), Currency: r.Cost.Price.Currency,
				TiedWith: c.TiedWith})
		}
	}
	return a
}

func latencyKeys() []string {
	keys := make([]string, len(comparedLatencies))
	for i, m := range comparedLatencies {
		keys[i] = m.Key
	}
	return keys
}

func (a *Analysis) add(kind, subject, workload string, c *Change) {
	ac := AnalysisComparison{Kind: kind, Subject: subject, Workload: workload, Metric: c.From.Metric,
		From: c.From.Run, To: c.To.Run, FromValue: c.From.Effective(), ToValue: c.To.Effective(),
		ChangePercent: c.Percent, P: finite(c.P), PU: finite(c.PU), N: [2]int{c.NFrom, c.NTo},
		Test: c.Test, BandPercent: c.Band, Verdict: verdictWord(c),
		AssumedVariation: c.Sigma, AssumedVariationDF: c.SigmaDF, AssumedVariationDefault: c.SigmaDefault,
		Correction: "none", FamilySize: max(c.Family, 1), PAdjusted: finite(c.PAdjusted), Level: c.Level}
	if c.Corrected() {
		ac.Correction = CorrectionHolm
	}
	if c.Test == TestPrediction {
		ac.T, ac.DF = finite(c.T), finite(c.DF)
	}
	if !math.IsNaN(c.Lo) && !math.IsNaN(c.Hi) {
		ac.Interval = &[2]float64{c.Lo, c.Hi}
	}
	if c.Likeness != nil {
		ac.Comparability = c.Likeness
	}
	a.Comparisons = append(a.Comparisons, ac)
}

func verdictWord(c *Change) string {
	switch {
	case c.Noise:
		return "no measurable difference"
	case c.Better:
		return "better"
	}
	return "worse"
}

// positive is x, or nil when it is not above 0 (not known).
func positive(x float64) *float64 {
	if !(x > 0) {
		return nil
	}
	return &x
}

// finite is x, or nil for NaN: JSON has no NaN.
func finite(x float64) *float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil
	}
	return &x
}

func (r *Report) analysisBudget() *AnalysisBudget {
	res := r.SLO
	if res == nil {
		return nil
	}
	b := &AnalysisBudget{Runs: []AnalysisBudgetRun{}, Tied: []string{}}
	for _, sr := range res.Runs {
		br := AnalysisBudgetRun{Run: sr.Run.ID, Verdict: "no"}
		switch {
		case sr.Borderline:
			br.Verdict = "borderline"
		case sr.Meets:
			br.Verdict = "yes"
		}
		if sr.Goodput != nil {
			br.Goodput = finite(sr.Goodput.Measured)
		}
		if sr.BudgetGoodput != nil {
			br.BudgetGoodput = finite(sr.BudgetGoodput.Value.Measured)
		}
		b.Runs = append(b.Runs, br)
	}
	if res.Best != nil {
		b.Best = res.Best.Run.ID
	}
	for _, t := range res.Tied {
		b.Tied = append(b.Tied, t.Run.ID)
	}
	return b
}

func analysisSweep(sw SweepResult, cost *CostResult) AnalysisSweep {
	point := func(p *SweepPoint) AnalysisPoint {
		ap := AnalysisPoint{Run: p.Run.ID, Load: p.Load.Measured, OutputPerGPU: p.PerGPU(), Frontier: p.Frontier,
			NearFrontier: p.NearFrontier, Meets: p.Meets && sw.Limits != nil}
		if p.TPOT != nil {
			ap.MedianTPOT = finite(p.TPOT.Measured)
		}
		if p.Attainment != nil {
			ap.Attainment = finite(p.Attainment.Share())
			lo, hi := p.Attainment.Interval()
			ap.AttainmentInterval = []float64{lo, hi}
		}
		if cost != nil {
			if c := pointCost(cost.Price, p); c != nil {
				ap.PerMillionOutput, ap.PerMillionTotal = &c.Output, positive(c.Total)
			}
		}
		return ap
	}
	as := AnalysisSweep{Workload: sw.Workload.ID, Points: []AnalysisPoint{}}
	for i := range sw.Curves {
		for j := range sw.Curves[i].Points {
			as.Points = append(as.Points, point(&sw.Curves[i].Points[j]))
		}
	}
	if sw.Best != nil {
		p := point(sw.Best)
		as.Best = &p
	}
	for _, t := range sw.Tied {
		as.Tied = append(as.Tied, AnalysisPointRef{Run: t.Run.ID, Load: t.Load.Measured})
	}
	for _, c := range sw.Curves {
		if c.Goodput != nil {
			as.Goodput = append(as.Goodput, analysisGoodput(sw.Workload.Sweep.Key, c))
		}
	}
	return as
}

func analysisGoodput(key string, c SweepCurve) AnalysisGoodput {
	g := AnalysisGoodput{Run: c.Run.ID, LoadKey: key, Target: GoodputTarget, GPUs: c.Run.GPUs}
	if p := c.Goodput.Point; p != nil {
		g.Load, g.LoadPerGPU = finite(p.Load.Measured), finite(c.Goodput.PerGPU)
		g.Attainment, g.Good, g.Total = finite(p.Attainment.Share()), p.Attainment.Good, p.Attainment.Total
		lo, hi := p.Attainment.Interval()
		g.AttainmentInterval = []float64{lo, hi}
	}
	g.Borderline = c.Goodput.Borderline
	return g
}
