package importer

// Completing the study: hardware from the commands, each step's
// reference, the compared configurations and the engines.

import (
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/perflab/perflab/internal/benchlog"
	"github.com/perflab/perflab/internal/serving"
)

func (p *parser) hardwareFromRuns() {
	s := p.s
	need := 1
	for _, r := range s.Runs {
		if g := serving.Parse(r.Command).GPUs(); g > need {
			need = g
		}
	}
	if !p.gpusKnown && need > s.GPUsPerNode {
		s.GPUsPerNode = need
	}
	node := s.GPUsPerNode * s.Nodes
	for _, r := range s.Runs {
		cmd := serving.Parse(r.Command)
		r.GPUs = cmd.GPUs()
		if outside := serving.ByID(r.Engine); r.GPUs == 1 && node > 1 && (cmd.Model == "" && cmd.Engine == nil || outside != nil && outside.ConfigOutside) {
			r.GPUs = node // the engine's parallelism is set outside the command (MindIE's config file)
		}
	}
}

// headline is a run's headline value on a workload, projected onto the node
// for throughput; ok is false when the run has no such result.
func (p *parser) headline(r *Run, workload string) (float64, string, bool) {
	if r.Error != "" {
		return 0, "", false
	}
	for _, lg := range r.Logs {
		if lg.Workload != workload {
			continue
		}
		b := parseBlock(lg.Text)
		if p.s.Objective == "latency" {
			if m, ok := b.Metrics["mean_e2el_ms"]; ok {
				return m.Value, formatSeconds(m), true
			}
			ttft, ok1 := b.Metrics["mean_ttft_ms"]
			tpot, ok2 := b.Metrics["mean_tpot_ms"]
			out, ok3 := b.Metrics["total_output_tokens"]
			n, ok4 := b.Metrics["completed"]
			if ok1 && ok2 && ok3 && ok4 && n.Value > 0 {
				v := ttft.Value + tpot.Value*(out.Value/n.Value-1)
				return v, strconv.FormatFloat(v/1000, 'f', 2, 64), true
			}
			return 0, "", false
		}
		m, ok := b.Metrics["total_token_throughput"]
		if !ok {
			return 0, "", false
		}
		return m.Value, m.Raw, true
	}
	return 0, "", false
}

func formatSeconds(m benchlog.Metric) string {
	if m.Decimals < 0 {
		return strconv.FormatFloat(m.Value/1000, 'f', m.Decimals+3, 64)
	}
	return m.Raw
}

// effective is a run's headline on the main workload as perflab compares
// it: throughput projected onto the node; +Inf or -Inf when not comparable.
func (p *parser) effective(r *Run) (float64, bool) {
	main := p.s.mainWorkload()
	if main == nil || !p.sameModel(r) {
		return 0, false
	}
	v, _, ok := p.headline(r, main.ID)
	if !ok {
		return 0, false
	}
	if p.s.Objective == "latency" {
		return -v, true
	}
	node := p.s.GPUsPerNode * p.s.Nodes
	if r.GPUs > node {
		return 0, false // cannot have run on the study's hardware
	}
	if r.GPUs > 0 && node > r.GPUs && node%r.GPUs == 0 {
		v *= float64(node / r.GPUs)
	}
	return v, true
}

func (p *parser) sameModel(r *Run) bool {
	m := serving.Parse(r.Command).Model
	if m == "" || r.Derived && r.Parameters != "" {
		return true
	}
	return serving.SameModel(m, p.s.Model)
}

// references sets each step's reference: the run whose result the summary
// of options prints as the step's baseline when it does; otherwise the
// first run of the first step, and for later steps the best run so far of
// the engine the step tunes.
func (p *parser) references() {
	printedRef := map[string]string{}
	if t := p.summary; t != nil {
		stepCol, baseCol := p.summaryCols(t)
		for _, row := range t.rows {
			if st := p.rowStep(row, stepCol); st != nil && baseCol >= 0 && baseCol < len(row) {
				printedRef[st.ID] = firstNumber(row[baseCol])
			}
		}
	}
	var seen []*Run
	// tunes is the engine a run counts for: the one its step's heading
	// names ("Quantization in TensorRT-LLM"), even when the run's command
	// starts another, so the next step of that engine starts from it.
	tunes := map[*Run]string{}
	for i, st := range p.s.Steps {
		var runs []*Run
		for _, id := range st.Runs {
			runs = append(runs, p.s.run(id))
		}
		stepEngine := ""
		if named := serving.NamedAll(st.Title); len(named) == 1 {
			stepEngine = named[0].ID // "in TensorRT-LLM/vLLM" tunes both: each run counts for its own
		}
		for _, r := range runs {
			tunes[r] = r.Engine
			if i > 0 && stepEngine != "" {
				tunes[r] = stepEngine
				if r.Engine != stepEngine && serving.ByID(r.Engine) != nil {
					p.s.note(r.Line, "warning: the heading %q names %s, but the command of run %q starts %s; the step is compared as a %s step",
						st.Title, serving.ByID(stepEngine).Name, r.Name, serving.ByID(r.Engine).Name, serving.ByID(stepEngine).Name)
				}
			}
		}
		if v := printedRef[st.ID]; v != "" {
			for _, r := range append(append([]*Run(nil), seen...), runs...) {
				if _, got, ok := p.headline(r, p.mainID()); ok && sameNumber(got, v) {
					st.Reference = r.ID
					break
				}
			}
		}
		if st.Reference == "" {
			if i == 0 || len(seen) == 0 {
				if len(runs) > 0 {
					st.Reference = runs[0].ID
				}
			} else {
				engine := stepEngine
				if engine == "" && len(runs) > 0 {
					engine = runs[0].Engine
				}
				st.Reference = p.best(seen, engine, func(r *Run) string { return tunes[r] }).ID
			}
		}
		seen = append(seen, runs...)
	}
}

func (p *parser) mainID() string {
	if w := p.s.mainWorkload(); w != nil {
		return w.ID
	}
	return ""
}

// best is the best comparable run of a list, preferring runs that count
// for the given engine.
func (p *parser) best(runs []*Run, engine string, engineOf func(*Run) string) *Run {
	var best *Run
	bv := math.Inf(-1)
	for pass := 0; pass < 2 && best == nil; pass++ {
		for _, r := range runs {
			if pass == 0 && engineOf(r) != engine {
				continue
			}
			if v, ok := p.effective(r); ok && v > bv {
				best, bv = r, v
			}
		}
	}
	if best == nil {
		best = runs[0]
	}
	return best
}

var numberRE = regexp.MustCompile(`\d[\d,]*(?:\.\d+)?`)

func firstNumber(s string) string {
	return strings.ReplaceAll(numberRE.FindString(stripTags(s)), ",", "")
}

func sameNumber(a, b string) bool {
	x, err1 := strconv.ParseFloat(strings.ReplaceAll(a, ",", ""), 64)
	y, err2 := strconv.ParseFloat(strings.ReplaceAll(b, ",", ""), 64)
	return err1 == nil && err2 == nil && x == y
}

// configs sets the baseline and recommended configurations: the runs of
// Other Benchmark Cases, completed on the main workload by the run whose
// result the conclusion table prints.
func (p *parser) configs() {
	s := p.s
	main := p.mainID()
	var base, opt *Run
	for _, r := range s.Runs {
		if r.role == "baseline" && base == nil {
			base = r
		}
		if r.role == "optimized" && opt == nil {
			opt = r
		}
	}
	printedBase, printedOpt := "", ""
	if t := p.table; t != nil {
		bc, oc := colIndex(t.header, "baseline"), colIndex(t.header, "optimized")
		for _, row := range t.rows {
			if w := p.labelWorkload(row[0], false); w != nil && w.ID == main {
				if bc < len(row) {
					printedBase = firstNumber(row[bc])
				}
				if oc < len(row) {
					printedOpt = firstNumber(row[oc])
				}
			}
		}
	}
	pick := func(first *Run, printed string, fallback func() *Run) []string {
		var ids []string
		if first != nil {
			ids = append(ids, first.ID)
			if _, _, ok := p.headline(first, main); ok {
				return ids
			}
		}
		var found *Run
		if printed != "" {
			for _, r := range s.Runs {
				if _, got, ok := p.headline(r, main); ok && sameNumber(got, printed) && r != first {
					found = r
					break
				}
			}
		}
		if found == nil {
			found = fallback()
		}
		if found != nil && found != first {
			ids = append(ids, found.ID)
		}
		return ids
	}
	s.Baseline = pick(base, printedBase, func() *Run {
		if st := s.Steps[0]; st.Reference != "" {
			return s.run(st.Reference)
		}
		return nil
	})
	s.Recommended = pick(opt, printedOpt, func() *Run {
		for _, r := range s.Runs {
			if p.recommended != "" && strings.TrimSpace(r.Command) == strings.TrimSpace(p.recommended) && r.step != nil {
				return r
			}
		}
		var all []*Run
		for _, r := range s.Runs {
			if r.step != nil {
				all = append(all, r)
			}
		}
		if len(all) == 0 {
			return nil
		}
		return p.best(all, "", func(r *Run) string { return r.Engine })
	})
}

func (p *parser) engines() {
	s := p.s
	for _, r := range s.Runs {
		found := false
		for _, e := range s.Engines {
			if e.ID == r.Engine {
				found = true
			}
		}
		if !found {
			name := r.Engine
			if e := serving.ByID(r.Engine); e != nil {
				name = e.Name
			}
			s.Engines = append(s.Engines, Engine{ID: r.Engine, Name: name, Version: "not published"})
		}
	}
}
