package report

import (
	"strconv"
	"time"

	"github.com/perflab/perflab/internal/benchlog"
	"github.com/perflab/perflab/internal/plain"
	"github.com/perflab/perflab/internal/study"
)

// Likeness verdicts (docs/statistics.md#comparability).
const (
	LikeForLike   = "like-for-like"
	Caveated      = "caveated"
	NotComparable = "not comparable"
)

// Reason codes: what differs between the two sides of a comparison. The
// first group makes a comparison not comparable, the second caveats it.
const (
	ReasonGPUModel    = "gpu-model"
	ReasonDataset     = "dataset"
	ReasonInputLen    = "input-length"
	ReasonOutputLen   = "output-length"
	ReasonConcurrency = "concurrency"
	ReasonRate        = "request-rate"

	ReasonGPUCount    = "gpu-count"
	ReasonLoadUnknown = "load-unknown"
	ReasonTool        = "tool"
	ReasonToolVersion = "tool-version"
	ReasonDefinition  = "metric-definition"
	ReasonCommand     = "command"
	ReasonDate        = "date"
)

// blocking are the reasons that leave no comparison at all: another GPU
// or another workload measured.
var blocking = map[string]bool{
	ReasonGPUModel: true, ReasonDataset: true, ReasonInputLen: true,
	ReasonOutputLen: true, ReasonConcurrency: true, ReasonRate: true,
}

// MeasurementGap is how far apart two measurements may be taken before a
// comparison says so: drivers, kernels and firmware move in between.
const MeasurementGap = 30 * 24 * time.Hour

// Likeness says whether the two sides of a change were measured alike
// (its comparability), and if not, what differs.
type Likeness struct {
	Verdict string   `json:"verdict"`
	Reasons []Reason `json:"reasons"`
}

// Reason is one difference: its code and each side's value, as text
// (for ReasonCommand, the run's name and id).
type Reason struct {
	Code string `json:"code"`
	From string `json:"from"`
	To   string `json:"to"`
}

// Side is what one side of a comparison was measured with.
type Side struct {
	Run      *study.Run
	Workload *study.Workload // nil: not known
	Block    *benchlog.Block // the first repeat's result
	GPUs     int             // GPUs the figure stands for (run GPUs x replicas)
	// Command is the serving command the side should have been measured
	// with (the configuration's); "" when any command will do.
	Command string
}

// Compare judges whether two sides were measured like for like.
func Compare(from, to Side) Likeness {
	var reasons []Reason
	// Names, versions and dates come from hostile files: kept as plain text.
	add := func(code, a, b string) { reasons = append(reasons, Reason{code, plain.Line(a), plain.Line(b)}) }
	if a, b := recordedGPUOf(from.Run), recordedGPUOf(to.Run); a != "" && b != "" && a != b {
		add(ReasonGPUModel, a, b)
	}
	if wa, wb := from.Workload, to.Workload; wa != nil && wb != nil && wa.ID != wb.ID {
		if wa.Dataset != wb.Dataset {
			add(ReasonDataset, wa.Dataset, wb.Dataset)
		}
		if wa.InputLen != wb.InputLen {
			add(ReasonInputLen, strconv.Itoa(wa.InputLen), strconv.Itoa(wb.InputLen))
		}
		if wa.OutputLen != wb.OutputLen {
			add(ReasonOutputLen, strconv.Itoa(wa.OutputLen), strconv.Itoa(wb.OutputLen))
		}
	}
	loadUnknown := false
	for _, l := range []struct{ key, code string }{{"max_concurrency", ReasonConcurrency}, {"request_rate", ReasonRate}} {
		a, okA := metricText(from.Block, l.key)
		b, okB := metricText(to.Block, l.key)
		switch {
		case okA && okB && a != b:
			add(l.code, a, b)
		case okA != okB:
			loadUnknown = true
		}
	}
	if loadUnknown {
		add(ReasonLoadUnknown, "", "")
	}
	if from.GPUs > 0 && to.GPUs > 0 && from.GPUs != to.GPUs {
		add(ReasonGPUCount, strconv.Itoa(from.GPUs), strconv.Itoa(to.GPUs))
	}
	toolReasons(from.Block, to.Block, add)
	for _, s := range []Side{from, to} {
		if s.Command != "" && s.Run != nil && s.Run.Command != s.Command {
			add(ReasonCommand, s.Run.Name, s.Run.ID)
		}
	}
	if a, b, ok := measuredApart(from.Run, to.Run); ok {
		add(ReasonDate, a, b)
	}
	return verdictOf(reasons)
}

func verdictOf(reasons []Reason) Likeness {
	c := Likeness{Verdict: LikeForLike, Reasons: []Reason{}}
	for _, r := range reasons {
		c.Reasons = append(c.Reasons, r)
		if blocking[r.Code] {
			c.Verdict = NotComparable
		} else if c.Verdict == LikeForLike {
			c.Verdict = Caveated
		}
	}
	return c
}

// toolReasons compares the benchmark programs, their versions and how
// they define their throughput.
func toolReasons(a, b *benchlog.Block, add func(code, a, b string)) {
	if a == nil || b == nil {
		return
	}
	switch {
	case a.Tool != "" && b.Tool != "" && a.Tool != b.Tool:
		add(ReasonTool, a.Tool, b.Tool)
	case a.Version != "" && b.Version != "" && a.Version != b.Version:
		add(ReasonToolVersion, a.Version, b.Version)
	}
	if a.Definition != "" && b.Definition != "" && a.Definition != b.Definition {
		add(ReasonDefinition, string(a.Definition), string(b.Definition))
	}
}

// metricText is a block's value of a load metric as the log printed it.
func metricText(b *benchlog.Block, key string) (string, bool) {
	if b == nil {
		return "", false
	}
	m, ok := b.Metrics[key]
	if !ok {
		return "", false
	}
	return FormatNumber(m.Value, max(m.Decimals, 0)), true
}

// recordedGPUOf is recordedGPU of a side's run, "" without one.
func recordedGPUOf(r *study.Run) string {
	if r == nil {
		return ""
	}
	return recordedGPU(r)
}

// measuredApart gives both dates when two recorded runs were measured
// more than MeasurementGap apart.
func measuredApart(a, b *study.Run) (string, string, bool) {
	if a == nil || b == nil || a.Recorded == nil || b.Recorded == nil {
		return "", "", false
	}
	ta, errA := time.Parse(time.RFC3339, a.Recorded.Date)
	tb, errB := time.Parse(time.RFC3339, b.Recorded.Date)
	if errA != nil || errB != nil {
		return "", "", false
	}
	if d := tb.Sub(ta); d > MeasurementGap || -d > MeasurementGap {
		return a.Recorded.Date, b.Recorded.Date, true
	}
	return "", "", false
}

// judgeComparability fills in the comparability of the conclusion rows'
// and the steps' changes: a row's figures should come from its
// configuration's serving command, a step's from the runs it lists.
func (r *Report) judgeComparability() {
	command := func(runs []*study.Run) string {
		if len(runs) == 0 || runs[0] == nil {
			return ""
		}
		return runs[0].Command
	}
	for i := range r.Rows {
		row := &r.Rows[i]
		if row.Change == nil {
			continue
		}
		w := r.Study.Workload(row.Workload.ID)
		from := Side{Run: row.Baseline.Run, Workload: w, Block: row.Baseline.Block, GPUs: sideGPUs(row.Change.From), Command: command(r.Baseline)}
		to := Side{Run: row.Optimized.Run, Workload: w, Block: row.Optimized.Block, GPUs: sideGPUs(row.Change.To), Command: command(r.Recommended)}
		c := Compare(from, to)
		row.Change.Likeness = &c
	}
	for i := range r.Steps {
		sr := &r.Steps[i]
		if sr.Reference == nil {
			continue
		}
		for j := range sr.Runs {
			r.judgeRun(sr.Reference, &sr.Runs[j])
		}
		if sr.Change != nil && sr.Best != nil {
			best := *sr.Best
			best.Change = sr.Change
			r.judgeRun(sr.Reference, &best)
		}
	}
}

// judgeRun judges a step's run against the step's reference.
func (r *Report) judgeRun(ref, rr *RunResult) {
	if rr.Change == nil {
		return
	}
	w := r.Study.Workload(rr.Change.To.Workload)
	c := Compare(Side{Run: ref.Run, Workload: w, Block: ref.Block, GPUs: sideGPUs(rr.Change.From)},
		Side{Run: rr.Run, Workload: w, Block: rr.Block, GPUs: sideGPUs(rr.Change.To)})
	rr.Change.Likeness = &c
}

// sideGPUs is how many GPUs a figure stands for.
func sideGPUs(v Value) int { return v.GPUs * max(v.Replicas, 1) }
