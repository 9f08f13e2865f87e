// Package report computes what a study's report shows: headline values,
// comparisons, rankings, the conclusion table and the summary of options,
// each number with the log file and line it came from and its formula.
//
// It does no I/O and knows no language: labels and sentences belong to
// render.
package report

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/perflab/perflab/internal/benchlog"
	"github.com/perflab/perflab/internal/study"
)

// Metric describes a canonical metric and which direction is better.
type Metric struct {
	Key          string
	Unit         string
	HigherBetter bool
}

// Headline metrics by objective.
var (
	TotalThroughput = Metric{Key: "total_token_throughput", Unit: "tok/s", HigherBetter: true}
	MeanE2EL        = Metric{Key: "mean_e2el_ms", Unit: "ms", HigherBetter: false}
	MeanTPOT        = Metric{Key: "mean_tpot_ms", Unit: "ms", HigherBetter: false}
)

// HeadlineFor returns the metric a study with the given objective compares.
func HeadlineFor(o study.Objective) Metric {
	if o == study.Latency {
		return MeanE2EL
	}
	return TotalThroughput
}

// Source is where a number was read: a log file and line, and the label
// printed there.
type Source struct {
	File  string `json:"file"`
	Line  int    `json:"line"`
	Label string `json:"label"`
}

// Value is one measured number, possibly projected onto the node as replicas.
type Value struct {
	Run      string  `json:"run"`
	Workload string  `json:"workload"`
	Metric   string  `json:"metric"`
	Measured float64 `json:"measured"`
	Decimals int     `json:"decimals"`
	Replicas int     `json:"replicas"` // 1 unless the run used part of the node
	GPUs     int     `json:"gpus"`     // GPUs the run used
	Source   Source  `json:"source"`
	// Derived: the log does not print it; it is worked out from other
	// figures (the mean latency from TTFT and TPOT), an approximation.
	Derived bool `json:"derived,omitempty"`
	// Repeats is how many repeats Measured is the mean of, when the run
	// measured the workload more than once; HalfWidth is then the
	// half-width of its 95 % interval (per replica, see repeats.go), and
	// Samples each repeat's value and line. Source is the first repeat's.
	Repeats   int      `json:"repeats,omitempty"`
	HalfWidth float64  `json:"half_width,omitempty"`
	Samples   []Sample `json:"samples,omitempty"`
}

// derived reports whether a block's value for key is worked out rather
// than printed.
func derived(b *benchlog.Block, key string) bool {
	_, printed := b.Metrics[key]
	return !printed && key == MeanE2EL.Key
}

// Effective is the value compared: the measurement times its replicas.
func (v Value) Effective() float64 { return v.Measured * float64(v.Replicas) }

// Projected reports whether the value is a projection, not a measurement.
func (v Value) Projected() bool { return v.Replicas > 1 }

// PerGPU is the measurement divided by the GPUs that produced it.
func (v Value) PerGPU() float64 { return v.Measured / float64(v.GPUs) }

// Change compares a value with a reference.
type Change struct {
	From, To Value
	// Percent is (to/from - 1) x 100 on effective values, unrounded.
	Percent float64
	// PerGPUPercent is the same on per-GPU values.
	PerGPUPercent float64
	// Better says whether To is better than From for the metric.
	Better bool
	// Noise says the change is no measurable difference, neither a win nor
	// a loss (see verdict.go).
	Noise bool
	// Test is how the verdict was reached (TestWelch, TestMannWhitney,
	// TestPrediction, TestAssumed); P its two-sided p-value (Welch's, the
	// prediction t's with T and DF, or the assumed variation's), PU the
	// Mann-Whitney U test's (NaN below four repeats a side) and [Lo, Hi]
	// the 95 % interval of the change in percent, NaN under TestAssumed.
	// NFrom and NTo are the repeats on each side (1 for a single run),
	// Band the noise band in percent the change was held against, and
	// Sigma the run-to-run variation assumed for the metric (Band.Sigma).
	Test         string
	P, PU        float64
	T, DF        float64
	Lo, Hi       float64
	NFrom, NTo   int
	Band         float64
	Sigma        float64
	SigmaDF      int
	SigmaDefault bool
	// Level is the significance level the change was held to: stats.Alpha,
	// or Holm's share of it as one of Family comparisons, whose
	// family-wise error Holm's step-down keeps at stats.Alpha; PAdjusted
	// is then its Holm-adjusted p (NaN outside a family).
	Level     float64
	Family    int
	PAdjusted float64
	// decisive is the p the verdict rests on (the largest of the tests
	// that must agree) and outside whether the change passes the band.
	decisive float64
	outside  bool
	Formula  string
	// Likeness says whether both sides were measured alike; nil where
	// it was not judged (history compares a run with itself).
	Likeness *Likeness
}

// NewChange compares to with from for the metric m.
func NewChange(m Metric, from, to Value) *Change { return newChangeBand(m, from, to, FloorBand(m.Key)) }

func newChangeBand(m Metric, from, to Value, band Band) *Change {
	c := &Change{From: from, To: to}
	c.Percent = (to.Effective()/from.Effective() - 1) * 100
	c.PerGPUPercent = (to.PerGPU()/from.PerGPU() - 1) * 100
	if m.HigherBetter {
		c.Better = to.Effective() > from.Effective()
	} else {
		c.Better = to.Effective() < from.Effective()
	}
	c.judge(from, to, band, true)
	c.Formula = fmt.Sprintf("(%s / %s - 1) x 100", to.Expr(), from.Expr())
	return c
}

// Expr writes the value as it enters a formula: "3019.19 x 2" when projected.
func (v Value) Expr() string {
	// JSON results carry full precision; a page shows what a log would.
	s := FormatNumber(v.Measured, min(v.Decimals, maxShownDecimals))
	if v.Projected() {
		s += " x " + strconv.Itoa(v.Replicas)
	}
	return s
}

// maxShownDecimals is the most decimals a value is shown with: what the
// most verbose text logs (trtllm-bench) print.
const maxShownDecimals = 4

// FormatNumber prints a number with a fixed count of decimals (none when
// decimals is negative: a value converted from seconds to ms, say).
func FormatNumber(x float64, decimals int) string {
	return strconv.FormatFloat(x, 'f', max(decimals, 0), 64) // as %.*f, without fmt's cost
}

// FormatPercent prints a signed percentage rounded once to one decimal.
func FormatPercent(p float64) string {
	r := math.Round(p*10) / 10
	if r == 0 {
		r = 0 // no "-0.0"
	}
	s := strconv.FormatFloat(r, 'f', 1, 64)
	if s[0] != '+' && s[0] != '-' {
		return "+" + s + " %" // as %+.1f
	}
	return s + " %"
}

// FormatP writes a p-value as "p = 0.009": three decimals below 0.1, two
// above, and "p < 0.001" for the smallest.
func FormatP(p float64) string {
	switch {
	case p < 0.001:
		return "p < 0.001"
	case p < 0.1:
		return "p = " + strconv.FormatFloat(p, 'f', 3, 64)
	}
	return "p = " + strconv.FormatFloat(p, 'f', 2, 64)
}

// RunResult is one run of a step.
type RunResult struct {
	Run      *study.Run
	Headline *Value  // nil when the run failed, was excluded or has no log for the workload
	Change   *Change // against the step's reference; nil for the reference itself
	Excluded string  // rule that made the run not comparable, if any
	Block    *benchlog.Block
	LogFile  string
}

// Comparable reports whether the run enters comparisons.
func (r RunResult) Comparable() bool { return r.Headline != nil && r.Excluded == "" }

// StepResult is one optimisation step.
type StepResult struct {
	Step      study.Step
	Reference *RunResult
	Runs      []RunResult
	Ranking   []RunResult // comparable runs, best first
	Best      *RunResult  // best comparable run other than the reference
	Change    *Change     // Best against the reference
	// Tied are the other runs, the reference aside, that the ranking's
	// family of comparisons cannot tell from Best: as good a choice, in
	// ranking order. RankTied[i] says whether Ranking[i] is joined to the
	// first of its group with ≈ (RankTies).
	Tied     []RunResult
	RankTied []bool
	// Changed is the configuration the step changed: its reference, or,
	// on the path to the recommended configuration, the configuration
	// the step before built (path.go). Credit holds each alternative's
	// change against Changed, by run id, one family.
	Changed *RunResult
	Credit  map[string]*Change
}

// Cell is one side of a conclusion row.
type Cell struct {
	Run      *study.Run
	Headline Value
	TPOT     *Value
	LogFile  string
	Block    *benchlog.Block
}

// Row is one workload of the conclusion table.
type Row struct {
	Workload  study.Workload
	Baseline  *Cell
	Optimized *Cell
	Change    *Change
}

// Report is everything a study's report shows, in a fixed order.
type Report struct {
	Study       *study.Study
	Headline    Metric
	Main        *study.Workload
	Baseline    []*study.Run // as listed in the study
	Recommended []*study.Run
	Rows        []Row
	Steps       []StepResult
	Others      []RunResult       // runs of no step and no configuration, still shown
	SLO         *SLOResult        // the runs against the study's latency budget; nil without one
	Cost        *CostResult       // the runs' cost per token at the study's price; nil without one
	History     []HistoryResult   // runs measured on earlier engine versions, their headline over versions
	Sweeps      []SweepResult     // one per swept workload with results, in workload order
	Excluded    map[string]string // run id -> rule
	// Bands holds the noise band of the metrics compared, by key.
	Bands map[string]Band
	// Path is the path from the baseline to the recommended configuration
	// through the steps, each with its own change; nil without both on
	// the main workload.
	Path *StepPath

	allRuns allRunsMemo
}

// Build computes a study's report. excluded maps run ids that must not enter
// comparisons to the rule that excluded them. Claims stays empty: package
// claims checks the published figures against the report.
func Build(s *study.Study, excluded map[string]string) *Report {
	r := &Report{Study: s, Headline: HeadlineFor(s.Objective), Main: s.MainWorkload(), Excluded: excluded}
	r.Bands = map[string]Band{r.Headline.Key: r.MeasureBand(r.Headline.Key)}
	for _, m := range comparedLatencies { // the all-runs table's, the charts'
		r.Bands[m.Key] = r.MeasureBand(m.Key)
	}
	for _, id := range s.Baseline.Runs {
		if run := s.Run(id); run != nil {
			r.Baseline = append(r.Baseline, run)
		}
	}
	for _, id := range s.Recommended.Runs {
		if run := s.Run(id); run != nil {
			r.Recommended = append(r.Recommended, run)
		}
	}
	for _, w := range s.Workloads {
		if w.Sweep != nil {
			continue // a curve, not one figure: the sweep's own section shows it
		}
		row := Row{Workload: w, Baseline: r.cell(r.Baseline, w.ID), Optimized: r.cell(r.Recommended, w.ID)}
		if row.Baseline != nil && row.Optimized != nil {
			row.Change = r.compare(r.Headline, row.Baseline.Headline, row.Optimized.Headline)
		}
		r.Rows = append(r.Rows, row)
	}
	for _, st := range s.Steps {
		r.Steps = append(r.Steps, r.step(st))
	}
	r.judgeComparability()
	r.Path = r.stepPath()
	for _, run := range UnplacedRuns(s) {
		r.Others = append(r.Others, r.runResult(run))
	}
	r.SLO = r.slo()
	r.Cost = r.cost()
	r.History = r.history()
	r.Sweeps = r.sweeps()
	return r
}

// UnplacedRuns are the runs a study lists in no step and in neither its
// baseline nor its recommended configuration, in id order: a report shows
// them under "Other runs", and check warns about each.
func UnplacedRuns(s *study.Study) []*study.Run {
	if len(s.Steps) == 0 {
		return nil // a study without steps places nothing: its runs are not lost, they are all there is
	}
	placed := map[string]bool{}
	for _, id := range append(append([]string(nil), s.Baseline.Runs...), s.Recommended.Runs...) {
		placed[id] = true
	}
	for _, st := range s.Steps {
		placed[st.Reference] = true
		for _, id := range st.Runs {
			placed[id] = true
		}
	}
	var out []*study.Run
	for _, run := range s.Runs {
		if !placed[run.ID] && run.Reproduces == "" { // a rerun is shown with its original
			out = append(out, run)
		}
	}
	return out
}

// replicas is how many copies of a run fit on the node: the study's GPUs
// divided by the run's, when that divides evenly.
func replicas(s *study.Study, run *study.Run) int {
	node := s.Hardware.GPUs()
	if run.GPUs <= 0 || node <= run.GPUs || node%run.GPUs != 0 {
		return 1
	}
	return node / run.GPUs
}

// value reads a metric of a run's workload: of its first log, and, when
// the run repeated the workload, the mean of every repeat that has it.
func (r *Report) value(run *study.Run, workload, key string) (*Value, *benchlog.Block, string) {
	return Measure(r.Study, run, workload, key)
}

// Measure reads a metric of a run's workload, with the block and the log
// file of its first repeat: nil when the first repeat does not have it.
// Repeats that do not have it are left out of the mean.
func Measure(s *study.Study, run *study.Run, workload, key string) (*Value, *benchlog.Block, string) {
	var (
		v     *Value
		first *benchlog.Block
		file  string
		xs    []float64
	)
	for i := range run.Logs {
		lg := &run.Logs[i]
		if lg.Workload != workload || len(lg.Blocks) == 0 {
			continue
		}
		b := &lg.Blocks[0]
		m, ok := MetricOf(b, key) // mean latency derived when not printed
		if v == nil {
			first, file = b, lg.File
			if !ok {
				return nil, b, lg.File
			}
			v = &Value{
				Run: run.ID, Workload: workload, Metric: key, Measured: m.Value, Decimals: m.Decimals,
				Replicas: replicas(s, run), GPUs: run.GPUs,
				Source:  Source{File: lg.File, Line: m.Line, Label: lineLabel(b, m.Line, key)},
				Derived: derived(b, key),
			}
		}
		if !ok || lg.Repeat == 0 {
			continue
		}
		xs = append(xs, m.Value)
		v.Samples = append(v.Samples, Sample{Measured: m.Value, Source: Source{File: lg.File, Line: m.Line, Label: lineLabel(b, m.Line, key)}})
	}
	if len(xs) > 1 {
		v.Repeats = len(xs)
		v.Measured, v.HalfWidth = MeanInterval(xs)
	} else if v != nil {
		v.Samples = nil
	}
	return v, first, file
}

// lineLabel is the label printed on a metric's line; a JSON result may
// hold several keys on one line, so the one named like the key is
// preferred.
func lineLabel(b *benchlog.Block, line int, key string) string {
	label := ""
	for _, l := range b.Labels {
		if l.Line == line && (label == "" || l.Label == key) {
			label = l.Label
		}
	}
	return label
}

// blockValue reads a metric of one block of a run's workload, or nil when
// the block does not have it.
func (r *Report) blockValue(run *study.Run, workload, file string, b *benchlog.Block, key string) *Value {
	return blockValue(r.Study, run, workload, file, b, key)
}

func blockValue(s *study.Study, run *study.Run, workload, file string, b *benchlog.Block, key string) *Value {
	m, ok := MetricOf(b, key) // mean latency derived when not printed
	if !ok {
		return nil
	}
	// The label printed on the metric's line; a JSON result may hold
	// several keys on one line, so prefer the one named like the key.
	label := ""
	for _, l := range b.Labels {
		if l.Line == m.Line && (label == "" || l.Label == key) {
			label = l.Label
		}
	}
	return &Value{
		Run: run.ID, Workload: workload, Metric: key, Measured: m.Value, Decimals: m.Decimals,
		Replicas: replicas(s, run), GPUs: run.GPUs,
		Source:  Source{File: file, Line: m.Line, Label: label},
		Derived: derived(b, key),
	}
}

func (r *Report) cell(runs []*study.Run, workload string) *Cell {
	for _, run := range runs {
		if run.Failed() {
			continue
		}
		v, b, file := r.value(run, workload, r.Headline.Key)
		if v == nil {
			continue
		}
		if !r.Headline.HigherBetter {
			v.Replicas = 1 // latency is per request: never projected
		}
		c := &Cell{Run: run, Headline: *v, LogFile: file, Block: b}
		if t, _, _ := r.value(run, workload, MeanTPOT.Key); t != nil {
			t.Replicas = 1 // latency is per request: never projected
			c.TPOT = t
		}
		return c
	}
	return nil
}

func (r *Report) runResult(run *study.Run) RunResult {
	rr := RunResult{Run: run, Excluded: r.Excluded[run.ID]}
	if run.Failed() || r.Main == nil {
		return rr
	}
	v, b, file := r.value(run, r.Main.ID, r.Headline.Key)
	rr.Headline, rr.Block, rr.LogFile = v, b, file
	if v != nil && !r.Headline.HigherBetter {
		rr.Headline.Replicas = 1
	}
	return rr
}

func (r *Report) step(st study.Step) StepResult {
	sr := StepResult{Step: st}
	if ref := r.Study.Run(st.Reference); ref != nil {
		rr := r.runResult(ref)
		sr.Reference = &rr
	}
	var family []*Change // the alternatives against the reference
	for _, id := range st.Runs {
		run := r.Study.Run(id)
		if run == nil {
			continue
		}
		rr := r.runResult(run)
		if sr.Reference != nil && sr.Reference.Comparable() && rr.Comparable() && id != st.Reference {
			rr.Change = r.compare(r.Headline, *sr.Reference.Headline, *rr.Headline)
			family = append(family, rr.Change)
		}
		sr.Runs = append(sr.Runs, rr)
	}
	holmFamily(family)
	// The ranking covers the step's runs and its reference, best first;
	// ties keep the listed order.
	pool := append([]RunResult(nil), sr.Runs...)
	if sr.Reference != nil && !contains(st.Runs, st.Reference) {
		pool = append(pool, *sr.Reference)
	}
	for _, rr := range pool {
		if rr.Comparable() {
			sr.Ranking = append(sr.Ranking, rr)
		}
	}
	sort.SliceStable(sr.Ranking, func(i, j int) bool {
		a, b := sr.Ranking[i].Headline.Effective(), sr.Ranking[j].Headline.Effective()
		if r.Headline.HigherBetter {
			return a > b
		}
		return a < b
	})
	vals := make([]Value, len(sr.Ranking))
	for i, rr := range sr.Ranking {
		vals[i] = *rr.Headline
	}
	var distinct [][]bool
	sr.RankTied, distinct = RankTies(r.BandOf(r.Headline.Key), vals)
	best := -1
	for i := range sr.Ranking {
		if sr.Ranking[i].Run.ID != st.Reference {
			best = i
			b := sr.Ranking[i]
			sr.Best, sr.Change = &b, b.Change // the change its family judged
			break
		}
	}
	for i, rr := range sr.Ranking {
		if best >= 0 && i != best && rr.Run.ID != st.Reference && !distinct[best][i] {
			sr.Tied = append(sr.Tied, rr)
		}
	}
	return sr
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// StepByID returns a step's result, or nil.
func (r *Report) StepByID(id string) *StepResult {
	for i := range r.Steps {
		if r.Steps[i].Step.ID == id {
			return &r.Steps[i]
		}
	}
	return nil
}

// RowByWorkload returns a conclusion row, or nil.
func (r *Report) RowByWorkload(id string) *Row {
	for i := range r.Rows {
		if r.Rows[i].Workload.ID == id {
			return &r.Rows[i]
		}
	}
	return nil
}

// RankingLine writes a step's ranking as "A (x tok/s) > B (y tok/s)".
func (r *Report) RankingLine(sr *StepResult) string {
	sep := " > "
	if !r.Headline.HigherBetter {
		sep = " < "
	}
	var parts []string
	for _, rr := range sr.Ranking {
		parts = append(parts, fmt.Sprintf("%s (%s %s)", rr.Run.Name, rr.Headline.Expr(), r.Headline.Unit))
	}
	return strings.Join(parts, sep)
}
