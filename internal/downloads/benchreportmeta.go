package downloads

import (
	"encoding/json"
	"math"
	"path"
	"strconv"
	"strings"

	"github.com/perflab/perflab/internal/benchlog"
	"github.com/perflab/perflab/internal/check"
	"github.com/perflab/perflab/internal/plain"
	"github.com/perflab/perflab/internal/report"
	"github.com/perflab/perflab/internal/study"
)

// benchReport builds the report of one block of a log of a run.
func benchReport(res check.Result, run *study.Run, lg *study.Log, bi int, root string) benchReportDoc {
	s, b := res.Study, &lg.Blocks[bi]
	stem := strings.TrimSuffix(path.Base(lg.File), path.Ext(lg.File))
	uid := s.ID + "/" + run.ID + "/" + stem
	if len(lg.Blocks) > 1 {
		uid += "#block-" + strconv.Itoa(bi+1)
	}
	doc := benchReportDoc{Version: brVersion, Run: brRunDoc{UID: txt(uid), EID: txt(s.ID), Description: txt(run.Name)}}
	if m, ok := b.Metrics["duration"]; ok && m.Value >= 0 && !math.IsInf(m.Value, 0) {
		doc.Run.Time = &brTime{Duration: isoDuration(m.Value)}
	}
	if load := brLoad(s, run, lg, b); load != nil {
		doc.Scenario = &brScenario{Load: load}
	}
	if agg := brAggregate(b); agg != nil {
		doc.Results.RequestPerformance = &brPerformance{Aggregate: agg}
	}
	doc.Results.Observability.Metadata = brMetadata(res, run, lg, b, root)
	return doc
}

// brSeqLen is a sequence length of the load: the block's mean (printed,
// or its total tokens over its completed requests), else the length
// study.yaml gives a random workload; nil when none is known.
func brSeqLen(b *benchlog.Block, key, total string, configured int) *brSeq {
	if m, ok := b.Metrics[key]; ok && m.Value >= 0 {
		return &brSeq{Distribution: "other", Value: m.Value}
	}
	t, okT := b.Metrics[total]
	done, okD := b.Metrics["completed"]
	if okT && okD && done.Value > 0 && t.Value >= 0 {
		return &brSeq{Distribution: "other", Value: t.Value / done.Value}
	}
	if configured > 0 {
		return &brSeq{Distribution: "other", Value: float64(configured)}
	}
	return nil
}

// brLoad builds scenario.load: the tool, the dataset and the load; nil
// when the input length, which the schema requires, is not known.
func brLoad(s *study.Study, run *study.Run, lg *study.Log, b *benchlog.Block) *brLoadDoc {
	w := s.Workload(lg.Workload)
	if w == nil {
		return nil
	}
	in := brSeqLen(b, "mean_input_len", "total_input_tokens", w.InputLen)
	if in == nil {
		return nil
	}
	source := "unknown"
	switch w.Dataset {
	case "sharegpt":
		source = "sampled"
	case "random":
		source = "random"
	}
	tool := txt(b.Tool)
	if tool == "" {
		tool = txt(s.Benchmark.Tool)
	}
	std := brStandardized{Tool: tool, ToolVersion: txt(b.Version), Source: source, InputSeqLen: in,
		OutputSeqLen: brSeqLen(b, "mean_output_len", "total_output_tokens", w.OutputLen)}
	if m, ok := b.Metrics["request_rate"]; ok && m.Value > 0 && !math.IsInf(m.Value, 0) {
		std.RateQPS = &m.Value
	} else if lg.Point != nil && w.Sweep != nil && w.Sweep.Key == study.SweepRate && lg.Point.Value > 0 {
		v := lg.Point.Value
		std.RateQPS = &v
	}
	if c, ok := brConcurrency(w, lg, b); ok {
		std.Concurrency = &c
	}
	load := &brLoadDoc{Metadata: brDescription{Description: txt("workload " + w.ID)}, Standardized: std}
	if w.Command != "" {
		load.Native.Args = &brArgs{Command: plain.Block(w.Command)}
	}
	return load
}

// brConcurrency is the concurrency limit of a block: printed, the load of
// its file name, or the workload's; whole and at least 1, as the schema
// wants.
func brConcurrency(w *study.Workload, lg *study.Log, b *benchlog.Block) (int64, bool) {
	v := -1.0
	switch {
	case b.Metrics["max_concurrency"].Raw != "":
		v = b.Metrics["max_concurrency"].Value
	case lg.Point != nil && w.Sweep != nil && w.Sweep.Key == study.SweepConcurrency:
		v = lg.Point.Value
	case w.MaxConcurrency != nil:
		v = float64(*w.MaxConcurrency)
	}
	if v < 1 || v != math.Trunc(v) || v > math.MaxInt32 {
		return 0, false
	}
	return int64(v), true
}

// brMetadata is perflab's part of a report: where the block and each of
// its figures come from, how its throughputs are defined, the checks and
// claims about it, and the intervals of its repeats.
func brMetadata(res check.Result, run *study.Run, lg *study.Log, b *benchlog.Block, root string) brMeta {
	s := res.Study
	meta := brMeta{Generator: "perflab", Study: txt(s.ID), Model: txt(s.Model), GPU: txt(s.Hardware.GPU),
		Run: txt(run.ID), RunName: txt(run.Name), Engine: txt(run.Engine), Command: plain.Block(run.Command), GPUs: run.GPUs,
		Workload: txt(lg.Workload), Format: string(b.Format), Tool: txt(b.Tool), ToolVersion: txt(b.Version),
		Source:     brSource{File: txt(repoPath(lg.File, root)), Line: b.Line, EndLine: b.EndLine},
		Definition: string(b.Definition)}
	if lg.Repeat > 0 {
		meta.Repeat = lg.Repeat
	}
	for _, e := range s.Engines {
		if e.ID == run.Engine {
			v := txt(e.Version)
			meta.EngineVersion = &v
		}
	}
	if w := s.Workload(lg.Workload); lg.Point != nil && w != nil && w.Sweep != nil {
		meta.Load = &brLoadPoint{Key: w.Sweep.Key, Value: json.Number(strconv.FormatFloat(lg.Point.Value, 'f', -1, 64))}
	}
	if rule := res.Report.Excluded[run.ID]; rule != "" {
		meta.ExcludedBy = txt(rule)
	}
	if len(b.Definitions) > 0 {
		meta.Definitions = make(map[string]string, len(b.Definitions))
		for k, d := range b.Definitions {
			meta.Definitions[k] = string(d)
		}
	}
	meta.Metrics = make(map[string]brFigure, len(b.Metrics))
	for k, m := range b.Metrics {
		meta.Metrics[k] = brFigure{Value: json.Number(strconv.FormatFloat(m.Value, 'f', -1, 64)), Line: m.Line}
	}
	meta.Checks = brChecks(res, run, lg, root)
	meta.Claims = brClaims(s, run, lg)
	meta.Intervals = brIntervals(s, run, lg, b)
	return meta
}

// brFigure is one figure of a block in the metadata.
type brFigure struct {
	Value json.Number `json:"value"`
	Line  int         `json:"line"`
}

// brCheckEntry is one diagnostic in the metadata.
type brCheckEntry struct {
	Rule         string `json:"rule"`
	Severity     string `json:"severity"`
	Message      string `json:"message"`
	File         string `json:"file"`
	Line         int    `json:"line"`
	Acknowledged bool   `json:"acknowledged"`
}

// brClaim is one published figure in the metadata.
type brClaim struct {
	Kind     string `json:"kind"`
	Printed  string `json:"printed"`
	Source   string `json:"source"`
	Workload string `json:"workload,omitempty"`
	Step     string `json:"step,omitempty"`
	Config   string `json:"config,omitempty"`
	Run      string `json:"run,omitempty"`
}

// brChecks are the diagnostics on the log or on the run.
func brChecks(res check.Result, run *study.Run, lg *study.Log, root string) []brCheckEntry {
	out := []brCheckEntry{}
	for _, d := range res.Diagnostics {
		if d.File != lg.File && d.Subject != run.ID {
			continue
		}
		out = append(out, brCheckEntry{Rule: txt(d.Rule), Severity: string(d.Severity), Message: plain.Block(repoText(d.Message, root)),
			File: txt(repoPath(d.File, root)), Line: d.Line, Acknowledged: d.Acknowledged()})
	}
	return out
}

// brClaims are the study's claims about the log's workload or its run.
func brClaims(s *study.Study, run *study.Run, lg *study.Log) []brClaim {
	out := []brClaim{}
	for _, c := range s.Claims {
		if c.Workload != lg.Workload && c.Run != run.ID {
			continue
		}
		out = append(out, brClaim{Kind: txt(string(c.Kind)), Printed: txt(c.Printed), Source: txt(c.Source),
			Workload: txt(c.Workload), Step: txt(c.Step), Config: txt(c.Config), Run: txt(c.Run)})
	}
	return out
}

// brIntervals are the 95 % intervals of the block: the headline's over
// the run's repeats, as the reports compute it, and those the tool
// printed over its own repeated runs.
func brIntervals(s *study.Study, run *study.Run, lg *study.Log, b *benchlog.Block) map[string]brInterval {
	out := map[string]brInterval{}
	var pb *study.PointBlock
	if lg.Point != nil {
		if w := s.Workload(lg.Workload); w != nil {
			for _, p := range run.SweepBlocks(w) {
				if p.Point.Raw == lg.Point.Raw {
					p := p
					pb = &p
				}
			}
		}
	}
	if c := repeatsOf(s, run, *lg, pb); c.mean != "" {
		mean, half := json.Number(c.mean), json.Number(c.halfWidth)
		out[report.HeadlineFor(s.Objective).Key] = brInterval{Mean: &mean, HalfWidth: &half, Level: 0.95,
			Repeats: c.repeats, By: "perflab"}
	}
	for k, iv := range b.Intervals {
		low, high, line := iv.Low, iv.High, iv.Line
		out[k] = brInterval{Low: &low, High: &high, Level: iv.Level, Repeats: iv.Runs, Line: &line, By: txt(b.Tool)}
	}
	return out
}

// repoText names the files a message mentions as the repository does,
// whatever folder the results were read from.
func repoText(msg, root string) string {
	root = strings.TrimSuffix(root, "/")
	if root == "" || root == "." || root == "results" {
		return msg
	}
	return strings.ReplaceAll(msg, root+"/", "results/")
}

// txt makes a one-line field safe to show as text (package plain): a
// report is read by people too, and a field may hold anything.
func txt(s string) string { return plain.Line(s) }
