package study

import (
	"math"
	"regexp"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

func (l *loader) study(s *Study, n *yaml.Node) {
	f := s.Pos.File
	top := l.mapping(f, n, "study", "model", "hardware", "objective", "engines", "benchmark",
		"workloads", "baseline", "recommended", "steps", "claims", "acknowledged", "kind", "slo", "price", "source")
	switch s.Kind = top.str("kind", "study", false); s.Kind {
	case "", KindArticle, KindExample:
	default:
		l.problem(top.pos("kind"), "study: kind %q is not known; leave it out for a study of runs, or use %q or %q", s.Kind, KindArticle, KindExample)
	}
	// An article has no runs: what a study of runs must have is optional.
	must := !s.Article()
	s.Model = top.str("model", "study", must)

	if hw := top.fields["hardware"]; hw != nil || must {
		hw = top.require("hardware", "study")
		m := l.mapping(f, hw, "hardware", "gpu", "gpus_per_node", "nodes")
		s.Hardware = Hardware{
			GPU:         m.str("gpu", "hardware", true),
			GPUsPerNode: m.gpuCount("gpus_per_node", "hardware"),
			Nodes:       m.gpuCount("nodes", "hardware"),
			Pos:         Pos{f, hw.Line},
		}
		l.gpuProduct(&s.Hardware)
	}

	switch o := Objective(top.str("objective", "study", must)); o {
	case Throughput, Latency:
		s.Objective = o
	case "":
	default:
		l.problem(top.pos("objective"), "study: objective %q is not known; use %q or %q", o, Throughput, Latency)
	}

	for _, item := range top.list("engines", "study", must) {
		m := l.mapping(f, item, "engine", "id", "name", "version")
		s.Engines = append(s.Engines, Engine{
			ID: m.str("id", "engine", true), Name: m.str("name", "engine", true),
			Version: m.str("version", "engine", true), Pos: Pos{f, item.Line}, VersionLine: m.pos("version").Line,
		})
	}

	if b := top.fields["benchmark"]; b != nil || must {
		b = top.require("benchmark", "study")
		m := l.mapping(f, b, "benchmark", "tool", "commands")
		s.Benchmark = Benchmark{Tool: m.str("tool", "benchmark", true), Commands: m.str("commands", "benchmark", false), Pos: Pos{f, b.Line}, CommandsLine: m.pos("commands").Line}
	}

	for i, item := range top.list("workloads", "study", must) {
		if i == MaxWorkloads {
			l.problem(Pos{f, item.Line}, "a study has at most %d workloads, and this is one more: split the study", MaxWorkloads)
			break
		}
		s.Workloads = append(s.Workloads, l.workload(f, item))
	}

	if n := top.fields["slo"]; n != nil {
		s.SLO = l.slo(f, n)
	}

	if n := top.fields["price"]; n != nil {
		s.Price = l.price(l.mapping(f, n, "price", "gpu_hour", "currency"), Pos{f, n.Line})
	}
	if n := top.fields["source"]; n != nil {
		s.Source = l.source(l.mapping(f, n, "source", "title", "url"), Pos{f, n.Line})
	}

	s.Baseline = Config{Runs: top.strings("baseline", "study", must), Pos: top.pos("baseline")}
	s.Recommended = Config{Runs: top.strings("recommended", "study", must), Pos: top.pos("recommended")}

	for _, item := range top.list("steps", "study", must) {
		s.Steps = append(s.Steps, l.step(f, item))
	}

	for _, item := range top.list("claims", "study", false) {
		s.Claims = append(s.Claims, l.claim(s, f, item))
	}

	for _, item := range top.list("acknowledged", "study", false) {
		s.Acks = append(s.Acks, l.ack(f, item))
	}
}

// workload reads one item of a study's workloads.
func (l *loader) workload(f string, item *yaml.Node) Workload {
	m := l.mapping(f, item, "workload", "id", "dataset", "input_len", "output_len", "num_prompts", "seed", "max_concurrency", "sweep", "command", "main")
	w := Workload{
		ID: m.id("id", "workload"), Dataset: m.str("dataset", "workload", true),
		NumPrompts: m.positive("num_prompts", "workload", false),
		Seed:       m.integer("seed", "workload", false),
		Command:    m.str("command", "workload", false), Main: m.boolean("main", "workload"),
		Pos: Pos{f, item.Line}, Lines: m.valueLines(),
	}
	if m.fields["max_concurrency"] != nil {
		if mc := m.positive("max_concurrency", "workload", false); mc > 0 {
			w.MaxConcurrency = &mc
		}
	}
	if n := m.fields["sweep"]; n != nil {
		w.Sweep = l.sweep(f, n, w.ID)
		if w.Sweep != nil && w.Sweep.Key == SweepConcurrency && w.MaxConcurrency != nil {
			l.problem(m.pos("max_concurrency"), "workload %s: max_concurrency and a sweep of max_concurrency both set the concurrency; keep the sweep", w.ID)
		}
		if w.Sweep != nil && w.Main {
			l.problem(m.pos("main"), "workload %s: the main workload cannot be a sweep, whose loads give a curve, not the one figure steps compare; mark another workload main, or measure this one at one load", w.ID)
		}
	}
	switch w.Dataset {
	case "random":
		w.InputLen = m.positive("input_len", "workload", true)
		w.OutputLen = m.positive("output_len", "workload", true)
	case "sharegpt", "":
		for _, k := range []string{"input_len", "output_len"} {
			if _, ok := m.fields[k]; ok {
				l.problem(m.pos(k), "workload %s: %q applies to the random dataset only", w.ID, k)
			}
		}
	default:
		l.problem(m.pos("dataset"), "workload %s: dataset %q is not known; use sharegpt or random", w.ID, w.Dataset)
	}
	return w
}

// slo reads a study's service-level objective.
func (l *loader) slo(f string, n *yaml.Node) *SLO {
	m := l.mapping(f, n, "slo", "statistic", "ttft_ms", "tpot_ms", "e2el_ms")
	slo := &SLO{Stat: m.str("statistic", "slo", false), Pos: Pos{f, n.Line}}
	if slo.Stat == "" {
		slo.Stat = "p99"
	}
	if !sloStat.MatchString(slo.Stat) {
		l.problem(m.pos("statistic"), "slo: statistic %q is not known; use mean, median or a percentile such as p90, p95 or p99", slo.Stat)
	}
	slo.TTFT, slo.TPOT, slo.E2EL = float64(m.positive("ttft_ms", "slo", false)), float64(m.positive("tpot_ms", "slo", false)), float64(m.positive("e2el_ms", "slo", false))
	if len(slo.Limits()) == 0 {
		l.problem(slo.Pos, "slo: give at least one of ttft_ms, tpot_ms and e2el_ms")
	}
	return slo
}

// step reads one item of a study's steps.
func (l *loader) step(f string, item *yaml.Node) Step {
	m := l.mapping(f, item, "step", "id", "runs", "reference")
	// "runs: []" is an option the source lists without publishing a
	// run for it: it has nothing to compare, so no reference.
	m.require("runs", "step")
	runs := m.strings("runs", "step", false)
	noRuns := m.fields["runs"] != nil && m.fields["runs"].Kind == yaml.SequenceNode && len(m.fields["runs"].Content) == 0
	st := Step{ID: m.id("id", "step"), Runs: runs, Reference: m.str("reference", "step", !noRuns), Pos: Pos{f, item.Line}}
	if noRuns && st.Reference != "" {
		l.problem(m.pos("reference"), "step: a step with no runs compares nothing; remove its reference, or list the runs it was compared with")
	}
	return st
}

// claim reads one item of a study's claims.
func (l *loader) claim(s *Study, f string, item *yaml.Node) Claim {
	m := l.mapping(f, item, "claim", "kind", "workload", "step", "config", "run", "from", "to", "compare", "better", "printed", "source")
	c := Claim{
		Kind: ClaimKind(m.str("kind", "claim", true)), Workload: m.str("workload", "claim", false),
		Step: m.str("step", "claim", false), Config: m.str("config", "claim", false),
		Run: m.str("run", "claim", false), From: m.str("from", "claim", false), To: m.str("to", "claim", false),
		Compare: m.str("compare", "claim", false), Better: m.str("better", "claim", false),
		Printed: m.str("printed", "claim", true), Source: m.str("source", "claim", false), Pos: Pos{f, item.Line},
	}
	if s.Article() && c.Kind != ClaimTable && c.Kind != ClaimUnchecked && c.Kind != "" {
		l.problem(c.Pos, "claim: an article has no runs, so its claims are table claims (kind table) or unchecked ones, not %s", c.Kind)
	}
	switch c.Kind {
	case ClaimConclusion:
		if c.Workload == "" {
			l.problem(c.Pos, "claim: a conclusion claim needs the field \"workload\"")
		}
	case ClaimStep, ClaimRanking, ClaimSummary:
		if c.Step == "" {
			l.problem(c.Pos, "claim: a %s claim needs the field \"step\"", c.Kind)
		}
	case ClaimValue:
		switch {
		case c.Workload != "" && (c.Config == ConfigBaseline || c.Config == ConfigRecommended):
		case c.Step != "" && (c.Config == ConfigReference || c.Config == ConfigBest):
		default:
			l.problem(c.Pos, "claim: a value claim needs \"workload\" with config baseline or recommended, or \"step\" with config reference or best")
		}
	case ClaimSuccess:
		if c.Run == "" {
			l.problem(c.Pos, "claim: a success-rate claim needs the field \"run\"")
		}
	case ClaimCommand, ClaimModel, ClaimAccuracy, ClaimUnchecked:
	case ClaimTable:
		for _, k := range []string{"from", "to"} {
			if v := m.str(k, "claim", true); v != "" && !printedNumber.MatchString(v) {
				l.problem(m.pos(k), "claim: %q must be a figure as printed, such as 3869.3, 12,345 or 271.2 s", k)
			}
		}
		switch c.Compare {
		case "", CompareChange, CompareDifference, CompareRatio, CompareShare, CompareSame, CompareQuotient:
		default:
			l.problem(m.pos("compare"), "claim: compare %q is not known; use change, difference, ratio, share, same or quotient", c.Compare)
		}
		switch c.Better {
		case "", "lower", "higher":
		default:
			l.problem(m.pos("better"), "claim: better %q is not known; use lower or higher", c.Better)
		}
	case "":
	default:
		l.problem(m.pos("kind"), "claim: kind %q is not known; use conclusion, step, ranking, value, summary, success-rate, command, model, table, accuracy or unchecked", c.Kind)
	}
	return c
}

// ack reads one item of a study's acknowledged problems.
func (l *loader) ack(f string, item *yaml.Node) Ack {
	m := l.mapping(f, item, "acknowledgement", "rule", "subject", "reason")
	a := Ack{Rule: m.str("rule", "acknowledgement", true), Subject: m.str("subject", "acknowledgement", true), Pos: Pos{f, item.Line}}
	if r := m.require("reason", "acknowledgement"); r != nil {
		rm := l.mapping(f, r, "reason", Languages...)
		a.Reason = map[string]string{}
		for _, lang := range Languages {
			if txt := rm.str(lang, "reason", false); txt != "" {
				a.Reason[lang] = txt
			}
		}
	}
	return a
}

// sweep reads a workload's sweep: one key, max_concurrency or
// request_rate, whose list holds the loads in increasing order.
func (l *loader) sweep(file string, n *yaml.Node, workload string) *Sweep {
	what := "workload " + workload + ": sweep"
	if n.Kind != yaml.MappingNode || len(n.Content) != 2 {
		l.problem(Pos{file, n.Line}, "%s: give one of %s or %s with its loads, e.g. sweep: {%s: [1, 4, 16, 64]}", what, SweepConcurrency, SweepRate, SweepConcurrency)
		return nil
	}
	m := l.mapping(file, n, what, SweepConcurrency, SweepRate)
	sw := &Sweep{Key: n.Content[0].Value, Pos: Pos{file, n.Content[0].Line}}
	if m.fields[sw.Key] == nil {
		return nil // an unknown key, reported
	}
	items := m.list(sw.Key, what, true)
	if m.fields[sw.Key].Kind != yaml.SequenceNode {
		return nil // reported
	}
	if len(items) == 0 || len(items) > MaxSweepPoints {
		l.problem(m.pos(sw.Key), "%s: %s lists %d loads; give from 1 to %d", what, sw.Key, len(items), MaxSweepPoints)
		return nil
	}
	for _, it := range items {
		v, ok := sweepLoad(sw.Key, it.Value)
		if it.Kind != yaml.ScalarNode || (it.Tag != "!!int" && it.Tag != "!!float") || !ok {
			l.problem(Pos{file, it.Line}, "%s: %q is not a load; %s", what, it.Value, loadHint(sw.Key))
			continue
		}
		if k := len(sw.Points); k > 0 && v <= sw.Points[k-1].Value {
			l.problem(Pos{file, it.Line}, "%s: %s comes after %s; list the loads once each, in increasing order", what, it.Value, sw.Points[k-1].Raw)
			continue
		}
		sw.Points = append(sw.Points, SweepPoint{Value: v, Raw: it.Value})
	}
	return sw
}

// sweepLoad reads a load of a sweep as written in study.yaml or in a log's
// file name: a concurrency is a whole number, a rate any number; both are
// positive and finite.
func sweepLoad(key, raw string) (float64, bool) {
	v, err := strconv.ParseFloat(raw, 64)
	if err != nil || !(v > 0) || math.IsInf(v, 0) {
		return 0, false
	}
	if key == SweepConcurrency && (v != math.Trunc(v) || strings.ContainsAny(raw, ".eE")) {
		return 0, false
	}
	return v, true
}

func loadHint(key string) string {
	if key == SweepRate {
		return "a request rate is a positive number of requests per second, such as 0.5 or 4"
	}
	return "a concurrency is a positive whole number, such as 16"
}

// sloStat is a statistic an SLO may be stated on.
var sloStat = regexp.MustCompile(`^(mean|median|p\d+(\.\d+)?)$`)

// printedNumber is a figure as a table prints it.
// A unit may follow it ("271.2 s", "1.2 k tok/s"); claims says which
// units it converts, and leaves any other unchecked.
var printedNumber = regexp.MustCompile(`^\d[\d,]*(\.\d+)?(\s?[A-Za-z][A-Za-z/ ]{0,15})?$`)
