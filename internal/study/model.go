// Package study is the data model of perflab: studies, their runs, workloads,
// claims and acknowledgements, loaded from a results/ tree with the file and
// line of everything that was read.
//
// It knows nothing about templates, HTML or languages other than the
// per-language strings a study's metadata may carry.
package study

import (
	"bytes"
	"math"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/perflab/perflab/internal/benchlog"
)

// Pos is where a value was read.
type Pos struct {
	File string `json:"file"`
	Line int    `json:"line"`
}

// Objective says which headline metric a study compares.
type Objective string

const (
	Throughput Objective = "throughput" // total token throughput, higher is better
	Latency    Objective = "latency"    // mean end-to-end latency, lower is better
)

// Study is one folder of results/.
type Study struct {
	ID string
	// Kind is "" for a study of runs and logs, KindArticle for a published
	// article with tables but no logs: only its table arithmetic is
	// checked, and it is never rendered (no figure without a log);
	// KindExample for simulated logs, rendered with a warning on each page.
	Kind      string
	Dir       string // path of the study folder, slash-separated, relative to the results root's parent
	Pos       Pos    // the study.yaml file
	Model     string
	Hardware  Hardware
	Objective Objective
	// SLO, when the study states one, is the latency a configuration must
	// keep to be recommended at that budget.
	SLO *SLO
	// Price, when the study states one, is what a GPU-hour of its hardware
	// costs: reports then give each configuration's cost per token.
	Price *Price
	// Unpriced is the first price of results/prices.yaml when that file
	// prices other GPUs but not this study's, and the study has no price.
	Unpriced  *Pos
	Source    *Source // the published report the study was imported from, if any
	Engines   []Engine
	Benchmark Benchmark
	Workloads []Workload
	// Baseline and Recommended list runs; each workload is taken from the
	// first run listed that has a log for it. The first run's command is the
	// configuration's serving command.
	Baseline    Config
	Recommended Config
	Steps       []Step
	Claims      []Claim
	Acks        []Ack
	Runs        []*Run // sorted by ID
	// Sums are the SHA-256 (hex) of the metadata files the loader read,
	// by file as Pos names it: a study's evidence cites them without
	// reading them again. Logs keep their bytes (Log.Raw) instead.
	Sums map[string]string
	// Guesses are the values of study.yaml and its run.yaml files that
	// perflab add or record marked "# guessed ..." and nobody has
	// confirmed yet (the comment is still there).
	Guesses []Guess
}

// A Guess is a value perflab inferred and marked with a comment for a
// person to confirm: its key and value (the first line of it), and the
// comment without its "#", at the key's line.
type Guess struct {
	Pos        Pos
	Key, Value string
	Comment    string
}

// SLO is a latency budget: limits in ms on a statistic (Stat) of each
// request latency; a zero limit is not part of it.
type SLO struct {
	Stat             string // "mean", "median", "p90", "p95", "p99"...
	TTFT, TPOT, E2EL float64
	Pos              Pos
}

// Limits lists the SLO's latencies and their limits, as benchlog keys of
// its statistic ("p99_ttft_ms"), in a fixed order.
func (s *SLO) Limits() []SLOLimit {
	var out []SLOLimit
	for _, l := range []struct {
		name  string
		limit float64
	}{{"ttft", s.TTFT}, {"tpot", s.TPOT}, {"e2el", s.E2EL}} {
		if l.limit > 0 {
			out = append(out, SLOLimit{Metric: l.name, Key: s.Stat + "_" + l.name + "_ms", Limit: l.limit})
		}
	}
	return out
}

// Price is the cost of one GPU for one hour, as the study states it.
type Price struct {
	PerGPUHour float64
	Currency   string // "USD"
	Raw        string // as written, for the pages
	Pos        Pos
	Shared     bool // from results/prices.yaml, not the study's own
}

// SLOLimit is one latency of an SLO.
type SLOLimit struct {
	Metric string  // ttft, tpot, e2el
	Key    string  // the benchlog key compared: p99_ttft_ms
	Limit  float64 // ms
}

// KindArticle marks a study imported from an article without logs.
const KindArticle = "article"

// KindExample marks a study whose logs a simulator wrote to show what
// reports can do: every page says they are not measurements.
const KindExample = "example"

// Example reports whether the study's logs are simulated.
func (s *Study) Example() bool { return s.Kind == KindExample }

// Article reports whether the study is an article without logs.
func (s *Study) Article() bool { return s.Kind == KindArticle }

// Hardware is the node a study ran on.
type Hardware struct {
	GPU         string
	GPUsPerNode int
	Nodes       int
	Pos         Pos
}

// GPUs is the number of GPUs the study's hardware has.
func (h Hardware) GPUs() int { return h.GPUsPerNode * h.Nodes }

// Engine is an inference engine and the version the study used.
type Engine struct {
	ID          string
	Name        string
	Version     string
	Pos         Pos
	VersionLine int // line of the version field
}

// Benchmark is the tool and commands that produced the logs.
type Benchmark struct {
	Tool         string
	Commands     string // as published, comments included
	Pos          Pos
	CommandsLine int // line of the commands field
}

// Workload is one benchmark case.
type Workload struct {
	ID             string
	Dataset        string // "sharegpt" or "random"
	InputLen       int    // random only
	OutputLen      int    // random only
	NumPrompts     int    // 0: not published
	Seed           *int
	MaxConcurrency *int // nil: no limit
	// Sweep, when set, says the workload was measured at several loads:
	// one log per point, or one log of a tool that writes all its points.
	Sweep   *Sweep
	Command string
	Main    bool // the workload steps are compared on
	Pos     Pos
	Lines   map[string]int // line of each field written, by key
}

// Sweep is the loads a workload was measured at.
type Sweep struct {
	// Key is the benchlog key of the load: SweepConcurrency or SweepRate.
	Key    string
	Points []SweepPoint // as declared, increasing
	Pos    Pos
}

// The loads a sweep may vary, as benchlog keys and study.yaml keys.
const (
	SweepConcurrency = "max_concurrency" // --max-concurrency; logs <workload>.c<N>.log
	SweepRate        = "request_rate"    // --request-rate, req/s; logs <workload>.rps<R>.log
)

// MaxSweepPoints bounds the points of one sweep: each is a log, a row and
// a marker on every page.
const MaxSweepPoints = 64

// SweepPoint is one load of a sweep, as written.
type SweepPoint struct {
	Value float64
	Raw   string // "16", "0.5"
}

// Prefix is what a log's file name puts before the point: "c" or "rps".
func (s *Sweep) Prefix() string {
	if s.Key == SweepRate {
		return "rps"
	}
	return "c"
}

// Has reports whether v is one of the sweep's points.
func (s *Sweep) Has(v float64) bool {
	for _, p := range s.Points {
		if p.Value == v {
			return true
		}
	}
	return false
}

// Matches reports whether a load a block printed is this point: equal once
// rounded to the decimals the point is written with (a guidellm report's
// rate 7.1299 is the point 7.13).
func (p SweepPoint) Matches(v float64) bool {
	d := 0
	if i := strings.IndexByte(p.Raw, '.'); i >= 0 {
		d = len(p.Raw) - i - 1
	}
	scale := math.Pow10(d)
	return math.Round(v*scale)/scale == p.Value
}

// Point returns the sweep's point a printed load matches, if any.
func (s *Sweep) Point(v float64) (SweepPoint, bool) {
	for _, p := range s.Points {
		if p.Matches(v) {
			return p, true
		}
	}
	return SweepPoint{}, false
}

// PointBlock is a run's result at one load of a sweep.
type PointBlock struct {
	Point SweepPoint
	Log   *Log
	Block *benchlog.Block
	// Repeats are the results of every repeat of the load when it was
	// measured more than once (<workload>.c16.run-1.log, .run-2.log ...),
	// the first being Log and Block, in repeat order; nil for a load
	// measured once.
	Repeats []LogBlock
}

// LogBlock is one result block and the log it was read from.
type LogBlock struct {
	Log   *Log
	Block *benchlog.Block
}

// SweepBlocks returns a run's results on a swept workload, by increasing
// load: the first block of each log named after a load, and the blocks of
// a log named after the workload alone (a tool's sweep, such as
// guidellm's) whose printed load is a point of the sweep, the first at
// each load. A block of such a log that prints no load (guidellm's
// synchronous and throughput benchmarks) is no point.
//
// Repeats (<workload>.c16.run-2.log, or <workload>.run-2.log of a tool
// that writes every load) are gathered by load: a load whose first result
// comes from a repeat collects the same load of every later repeat in
// Repeats. Two blocks of one log at one load are still one result, the
// first.
func (r *Run) SweepBlocks(w *Workload) []PointBlock {
	if w.Sweep == nil {
		return nil
	}
	var out []PointBlock
	at := map[float64]int{} // load -> its index in out
	add := func(p SweepPoint, lg *Log, b *benchlog.Block) {
		k, seen := at[p.Value]
		if !seen {
			at[p.Value] = len(out)
			out = append(out, PointBlock{Point: p, Log: lg, Block: b})
			if lg.Repeat > 0 {
				out[len(out)-1].Repeats = []LogBlock{{lg, b}}
			}
			return
		}
		pb := &out[k]
		if last := pb.Repeats; len(last) > 0 && lg.Repeat > last[len(last)-1].Log.Repeat {
			pb.Repeats = append(pb.Repeats, LogBlock{lg, b})
		}
	}
	for i := range r.Logs {
		lg := &r.Logs[i]
		switch {
		case lg.Workload != w.ID || len(lg.Blocks) == 0:
		case lg.Point != nil:
			add(*lg.Point, lg, &lg.Blocks[0])
		default:
			for j := range lg.Blocks {
				if m, ok := lg.Blocks[j].Metrics[w.Sweep.Key]; ok {
					if p, ok := w.Sweep.Point(m.Value); ok {
						add(p, lg, &lg.Blocks[j])
					}
				}
			}
		}
	}
	for i := range out {
		if len(out[i].Repeats) < 2 {
			out[i].Repeats = nil
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Point.Value < out[j].Point.Value })
	return out
}

// Config is a configuration shown in the conclusion.
type Config struct {
	Runs []string
	Pos  Pos
}

// Step is one optimisation step.
type Step struct {
	ID        string
	Runs      []string
	Reference string // run the step's runs are compared against
	Pos       Pos
}

// ClaimKind says what a published figure claims.
type ClaimKind string

const (
	ClaimConclusion ClaimKind = "conclusion"   // change of a workload in the conclusion table
	ClaimStep       ClaimKind = "step"         // change of a step in the summary of options
	ClaimRanking    ClaimKind = "ranking"      // the ranking line of a step
	ClaimValue      ClaimKind = "value"        // a figure printed for a configuration: "Total TPS: 3019.19x2"
	ClaimSummary    ClaimKind = "summary"      // a "- Summary:" line comparing two runs of a step
	ClaimSuccess    ClaimKind = "success-rate" // the share of requests a run completed
	ClaimCommand    ClaimKind = "command"      // the recommended serving command as published
	ClaimModel      ClaimKind = "model"        // the model the report's setup names
	ClaimTable      ClaimKind = "table"        // a change printed in a table next to the figures it compares
	ClaimAccuracy   ClaimKind = "accuracy"     // the most accuracy a configuration is said to lose: "1%"
	ClaimUnchecked  ClaimKind = "unchecked"    // a figure the source derived that perflab could not tie to the figures it derives from
)

// How a table claim's printed figure follows from its two figures.
const (
	CompareChange     = "change"     // a percentage, new / old - 1, or "1.3x faster" (the default)
	CompareDifference = "difference" // new - old, in the figures' unit: "+0.32", "-43.4"
	CompareRatio      = "ratio"      // new / old as a factor: "8x", "8 times", "1.26x"
	CompareShare      = "share"      // new / old x 100: a utilisation of a link's bandwidth, "87 %"
	CompareSame       = "same"       // new is old, printed again (in another unit, rounded): "271.2 s" for 271196.67 ms
	CompareQuotient   = "quotient"   // new / old as a figure: a throughput per GPU, old being the GPU count
)

// Configurations a value claim can name.
const (
	ConfigBaseline    = "baseline"    // baseline column of the conclusion table
	ConfigRecommended = "recommended" // optimized column of the conclusion table
	ConfigReference   = "reference"   // a step's reference run
	ConfigBest        = "best"        // a step's best run
)

// Claim is a figure as a published report printed it.
type Claim struct {
	Kind     ClaimKind
	Workload string // conclusion claims
	Step     string // step, ranking, summary and step value claims
	Config   string // value claims: baseline, recommended, reference or best
	Run      string // success-rate claims; accuracy claims (default: the recommended configuration)
	From, To string // table claims: the two printed figures, old then new, each with its unit if printed ("271196.67 ms")
	Compare  string // table claims: how Printed follows from From and To (CompareChange when empty)
	Better   string // table claims: "lower" or "higher" when the metric is known; a lower-is-better change may be printed as a gain
	Printed  string
	Source   string // where it was published, e.g. "report.md:23"
	Pos      Pos
}

// Ack acknowledges a problem found by perflab check.
type Ack struct {
	Rule    string
	Subject string // what the problem is about: a run id, "conclusion/<workload>", "step/<id>"
	Reason  map[string]string
	Pos     Pos
}

// Run is one serving configuration and its logs.
type Run struct {
	ID             string
	Name           string
	Engine         string
	Command        string
	CommandDerived bool   // not printed by the source; rebuilt from a log label or parameters
	Parameters     string // the engine parameters as printed, when the source printed only those
	Source         string // where the source published the run, e.g. "report.md:243"
	GPUs           int
	Error          string // set for a run that failed
	Pos            Pos
	EngineLine     int     // line of the engine field in run.yaml
	CommandLine    int     // line of the command field
	GPUsLine       int     // line of the gpus field
	NameLine       int     // line of the name field
	Logs           []Log   // sorted by workload order of the study
	Accuracy       []Score // from the run's accuracy.json, by task and metric
	// History holds the same configuration's earlier measurements, on
	// older versions of its engine, oldest first (history/<version>/).
	History []History
	// Recorded is what perflab record captured; nil for a run written by hand.
	Recorded *Recorded
	// Reproduces is the run this one independently reran, "" for none.
	Reproduces     string
	ReproducesLine int
}

// Failed reports whether the run failed before producing results.
func (r *Run) Failed() bool { return r.Error != "" }

// Log is the raw output of one workload of one run.
type Log struct {
	Workload string
	// Repeat is the repeat a <workload>.run-<n> log holds, from 1; 0 for a
	// plain <workload>.log, the workload's only measurement.
	Repeat int
	// Point is the load the file name gives (<workload>.c16.log: 16), or
	// nil for a log named after its workload alone.
	Point  *SweepPoint
	File   string
	Raw    []byte // the log as read, for showing blocks verbatim
	Blocks []benchlog.Block
}

// BlockText returns the lines of a block exactly as the log printed them.
// Only the block's bytes are copied: a log may be far longer than its result.
func (l *Log) BlockText(b *benchlog.Block) string {
	raw := l.Raw
	lines := bytes.Count(raw, []byte{'\n'}) + 1 // as strings.SplitAfter counts them
	end := b.EndLine
	if end <= 0 || end > lines {
		end = lines
	}
	if b.Line < 1 || b.Line > end {
		return ""
	}
	start := lineOffset(raw, 0, b.Line-1)
	stop := lineOffset(raw, start, end-b.Line+1)
	return string(bytes.TrimRight(raw[start:stop], "\r\n"))
}

// lineOffset is the offset of the line n lines after the one starting at
// from, or len(raw) when there are fewer.
func lineOffset(raw []byte, from, n int) int {
	for ; n > 0; n-- {
		i := bytes.IndexByte(raw[from:], '\n')
		if i < 0 {
			return len(raw)
		}
		from += i + 1
	}
	return from
}

// Excerpt is the part of a block a report shows, and how much of the
// block it leaves out: MoreLines whole lines, or, when it stops inside a
// line, MoreBytes bytes (that line's rest and the lines after it).
type Excerpt struct {
	Text      string
	MoreLines int
	MoreBytes int
}

// BlockExcerpt returns the first lines of a block exactly as the log
// printed them: at most maxLines lines and about maxBytes bytes. A line
// that passes maxBytes (a --save-result JSON is one line, megabytes long
// with its per-request arrays) is cut after the last ", " before the limit
// or before its first '[', whichever comes first, so the excerpt ends
// between two keys; a block within both limits is returned whole, as
// BlockText returns it.
func (l *Log) BlockExcerpt(b *benchlog.Block, maxLines, maxBytes int) Excerpt {
	text := l.BlockText(b)
	lines := strings.SplitAfter(text, "\n")
	if len(lines) <= maxLines && len(text) <= maxBytes {
		return Excerpt{Text: text}
	}
	n, size := 0, 0
	for n < len(lines) && n < maxLines && size+len(lines[n]) <= maxBytes {
		size += len(lines[n])
		n++
	}
	if n == len(lines) {
		return Excerpt{Text: text}
	}
	if n > 0 {
		return Excerpt{Text: strings.TrimRight(text[:size], "\r\n"), MoreLines: len(lines) - n}
	}
	// The first line alone passes the limit: cut it between two keys,
	// before the first array (the per-request ones follow the aggregate
	// keys) when one starts within the limit.
	end := maxBytes
	if i := strings.IndexByte(lines[0][:maxBytes], '['); i > 0 {
		end = i
	}
	cut := strings.LastIndex(lines[0][:end], ", ")
	if cut < 0 {
		cut = maxBytes
		for cut > 0 && !utf8.RuneStart(text[cut]) {
			cut--
		}
	} else {
		cut++ // keep the comma
	}
	return Excerpt{Text: text[:cut], MoreBytes: len(text) - cut}
}

// Result returns the run's result block for a workload, if any.
func (r *Run) Result(workload string) *benchlog.Block {
	for i := range r.Logs {
		if r.Logs[i].Workload == workload && len(r.Logs[i].Blocks) > 0 {
			return &r.Logs[i].Blocks[0]
		}
	}
	return nil
}
