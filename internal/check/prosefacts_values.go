package check

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/perflab/perflab/internal/report"
	"github.com/perflab/perflab/internal/serving"
)

// unitClass is the kind of metric a unit measures.
func unitClass(unit, key string) bool {
	switch unit {
	case "ms", "s":
		return strings.HasSuffix(key, "_ms") || key == "duration"
	case "req/s":
		return key == "request_throughput"
	case "tok/s":
		return strings.HasSuffix(key, "_throughput") && key != "request_throughput"
	}
	return false
}

// boundValue is a metric value a figure may state, in the unit's base.
type boundValue struct {
	v     float64
	value report.Value
	run   *RunFacts
}

// candidates are the values a figure of a unit may state: every run's
// value of every metric of that unit, measured, projected and per GPU
// (throughputs), and each repeat's.
func candidates(runs []*RunFacts, unit string) []boundValue {
	var out []boundValue
	for _, r := range runs {
		for _, byKey := range r.Metrics {
			for key, v := range byKey {
				if !unitClass(unit, key) {
					continue
				}
				xs := []float64{v.Measured, v.Effective()}
				if key == "duration" {
					xs = []float64{v.Measured * 1000} // seconds, as ms
				}
				if !strings.HasSuffix(key, "_ms") && v.GPUs > 1 {
					xs = append(xs, v.PerGPU())
				}
				for _, s := range v.Samples {
					xs = append(xs, s.Measured)
				}
				for _, x := range xs {
					out = append(out, boundValue{x, v, r})
				}
			}
		}
	}
	return out
}

// holds: a true value x rounds to the figure printed at its precision, or
// is within 5 % of it when the sentence says it is approximate.
func holds(x, figure, precision float64, approx bool) bool {
	if approx && math.Abs(x-figure) <= 0.05*math.Abs(x) {
		return true
	}
	return math.Abs(x-figure) <= precision/2*(1+1e-9)+1e-9
}

// quantities binds each figure with a unit to a metric of some run of the
// study. A latency that binds only in the other unit (149.67 s for 149.67
// ms) is an error naming the unit; a figure near a value of the section's
// runs but at no rounding of it is a mistyped figure. Anything else stays
// unbound (prose-figure warns about it).
func (p *proseReading) quantities(s string) {
	for _, q := range quantities(s) {
		if q.Unit == "req/s" && rateWord.MatchString(s) {
			continue // a request rate the client sends: workloadSettings' to check
		}
		base, prec := q.Value, q.Precision
		if q.Unit == "s" {
			base, prec = base*1000, prec*1000
		}
		if _, bound := firstHolding(candidates(p.f.Runs, q.Unit), base, prec, q.Approx); bound || p.isLimit(q.Unit, base, prec) {
			continue
		}
		if q.Unit == "s" || q.Unit == "ms" {
			// The same digits in the other unit: 149.67 s for 149.67 ms.
			other, otherPrec, unit := q.Value, q.Precision, "ms"
			if q.Unit == "ms" {
				other, otherPrec, unit = q.Value*1000, q.Precision*1000, "s"
			}
			if c, ok := firstHolding(candidates(p.pool(), q.Unit), other, otherPrec, q.Approx); ok && !limitWord.MatchString(s) {
				logged := "ms"
				if c.value.Metric == "duration" {
					logged = "s"
				}
				p.fail("%s is written in %s, but the logs give run %s's %s as %s %s (%s): the unit is %s", q.Raw, q.Unit, c.run.ID, metricName(c.value.Metric),
					printed(c.value), logged, place(c.value), unit)
				continue
			}
		}
		// A figure near a value is a mistyped one only when the sentence
		// speaks of runs or metrics, not of a budget or a guess.
		if q.Approx || limitWord.MatchString(s) || hypothetical.MatchString(s) || metricIn(s) == "" && len(p.subjectsIn(s)) == 0 {
			continue
		}
		if near, ok := nearest(candidates(p.pool(), q.Unit), base); ok && math.Abs(near.v-base) <= 0.1*math.Abs(near.v) {
			p.fail("%s is at no rounding of a value the logs give; the nearest is run %s's %s, %s (%s)", q.Raw, near.run.ID, metricName(near.value.Metric),
				printed(near.value), place(near.value))
		}
	}
}

var rateWord = regexp.MustCompile(`(?i)\brate\b|速率|レート`)

// isLimit: a latency the study sets as a budget.
func (p *proseReading) isLimit(unit string, figure, precision float64) bool {
	if unit != "ms" && unit != "s" {
		return false
	}
	for _, l := range p.f.Limits {
		if holds(l, figure, precision, false) {
			return true
		}
	}
	return false
}

// firstHolding is the first candidate the figure is a rounding of.
func firstHolding(cs []boundValue, figure, precision float64, approx bool) (boundValue, bool) {
	for _, c := range cs {
		if holds(c.v, figure, precision, approx) {
			return c, true
		}
	}
	return boundValue{}, false
}

// nearest is the candidate closest to x.
func nearest(cs []boundValue, x float64) (boundValue, bool) {
	var best boundValue
	found := false
	for _, c := range cs {
		if !found || math.Abs(c.v-x) < math.Abs(best.v-x) {
			best, found = c, true
		}
	}
	return best, found
}

// factors checks a factor ("doubles", "1.27x", "2倍", "半分") against the
// ratio it binds to: of the two subjects the clause names, or, naming
// fewer, of the section's changes (a step's runs against its reference,
// the conclusion rows elsewhere). A clause that names no metric and no
// speed ("halves the weight memory") binds to nothing.
func (p *proseReading) factors(c string) {
	fs := factors(c)
	if len(fs) == 0 {
		return
	}
	key := metricIn(c)
	if key == "" {
		if !speedWord.MatchString(c) {
			return
		}
		key = p.f.Headline
	}
	approx := approxWord.MatchString(c)
	workload, named := p.workloadOf(p.sentence)
	subs := p.subjectsIn(c)
	type ratio struct {
		r         float64
		what, src string
	}
	var rs []ratio
	switch {
	case len(subs) >= 2:
		a, okA := extreme(subs[0].runs, workload, key, higherBetter(key))
		b, okB := extreme(subs[1].runs, workload, key, higherBetter(key))
		if okA && okB && b.v.Effective() > 0 {
			rs = append(rs, ratio{a.v.Effective() / b.v.Effective(), fmt.Sprintf("run %s against run %s (%s, %s)", a.run.ID, b.run.ID, place(a.v), place(b.v)), ""})
		}
	case p.ref != nil:
		ref, ok := p.ref.value(workload, key)
		for _, r := range p.runs {
			v, okR := r.value(workload, key)
			if !ok || !okR || r == p.ref || !r.Comparable || ref.Effective() <= 0 || len(subs) == 1 && !ownsRun(subs[0], r) {
				continue
			}
			rs = append(rs, ratio{v.Effective() / ref.Effective(), fmt.Sprintf("run %s against the reference %s (%s, %s)", r.ID, p.ref.ID, place(v), place(ref)), ""})
		}
	case key == p.f.Headline && p.f.Steps[p.section].Reference == nil:
		for _, ch := range p.f.Changes[""] {
			if !named || ch.Workload == workload {
				rs = append(rs, ratio{ch.Ratio, ch.What + " (" + ch.At + ")", ""})
			}
		}
	}
	if len(rs) == 0 {
		return
	}
	for _, f := range fs {
		bestGap, best := math.Inf(1), rs[0]
		for _, r := range rs {
			if gap := factorGap(f, r.r, approx); gap < bestGap {
				bestGap, best = gap, r
			}
		}
		if bestGap > 0 {
			p.fail("%q states a factor of %s, but the logs give %s: %s", f.Raw, strconv.FormatFloat(f.Value, 'f', -1, 64), fmtRatio(best.r), best.what)
		}
	}
}

// factorGap is how far a stated factor is from a ratio beyond what its
// wording allows (0: it holds). Either way round: "halves" and "doubles"
// both speak of the larger value against the smaller.
func factorGap(f factor, r float64, approx bool) float64 {
	if r <= 0 {
		return math.Inf(1)
	}
	big := math.Max(r, 1/r)
	want := f.Value
	if want < 1 {
		want = 1 / want
	}
	allowed := 0.1 * want // a factor in words, or a whole one, is a rounding
	if f.Exact {
		allowed = 0.5*math.Pow(10, -float64(f.Decimal)) + 1e-9
	}
	if approx {
		allowed = math.Max(allowed, 0.15*want)
	}
	return math.Max(0, math.Abs(big-want)-allowed)
}

func fmtRatio(r float64) string {
	if r < 1 {
		return fmt.Sprintf("%.2fx (%.2fx the other way)", r, 1/r)
	}
	return fmt.Sprintf("%.2fx", r)
}

// settings checks the parallel sizes a sentence names against the
// section's own runs: a step that says TP8 while its runs use -tp 4 is
// wrong even if another step ran TP8. The reference counts when the
// sentence compares; outside a step, every run of the study counts.
func (p *proseReading) settings(s string) {
	if !mayNameParallel(s) && !strings.Contains(s, "并行") && !strings.Contains(s, "並列") && !strings.Contains(strings.ToLower(s), "parallel") || hypothetical.MatchString(s) {
		return
	}
	runs := p.runs
	if p.ref != nil && contrastWord.MatchString(s) {
		runs = p.pool()
	}
	for _, st := range settingsIn(s) {
		var used []string
		var first *RunFacts
		ok := false
		for _, r := range runs {
			n := sizeOf(r.Sizes, st.Kind)
			if n == st.Size {
				ok = true
				break
			}
			used = append(used, fmt.Sprintf("%s%d", st.Kind, n))
			if first == nil {
				first = r
			}
		}
		if ok || first == nil {
			continue
		}
		p.fail("%s is no setting of this section's runs, which use %s (run %s, %s)", st.Raw, strings.Join(dedupe(used), ", "), first.ID, at(first.File, first.Line))
	}
}

func sizeOf(s serving.Sizes, kind string) int {
	switch kind {
	case "TP":
		return s.TP
	case "PP":
		return s.PP
	case "DP":
		return s.DP
	}
	return s.EP
}

func dedupe(xs []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// gpus checks GPU counts and GPU models a sentence names: a count is the
// node's or one of the section's runs'; a model is the study's hardware,
// unless the sentence sets it against another.
func (p *proseReading) gpus(s string) {
	counts := gpuCountsIn(s)
	if len(counts) > 0 && hypothetical.MatchString(s) {
		counts = nil
	}
	for _, n := range counts {
		ok := n == p.f.NodeGPUs || n == 1 && strings.Contains(strings.ToLower(s), "per gpu")
		runs := p.pool()
		if p.ref == nil {
			runs = p.f.Runs
		}
		var used []string
		for _, r := range runs {
			ok = ok || r.GPUs == n
			used = append(used, fmt.Sprintf("%s: %d (%s)", r.ID, r.GPUs, at(r.File, r.Line)))
		}
		if !ok {
			p.fail("%d GPUs is neither the node's %d (%s) nor the GPUs of a run of this section: %s", n, p.f.NodeGPUs, p.f.GPUAt, strings.Join(used, ", "))
		}
	}
	if !mayNameGPU(s) && !strings.Contains(s, "MI") && !strings.Contains(s, "910") {
		return
	}
	gpu := strings.ToUpper(p.f.GPU)
	for _, m := range gpuModelWord.FindAllString(s, -1) {
		if strings.Contains(gpu, strings.ToUpper(strings.ReplaceAll(m, " ", ""))) || strings.Contains(gpu, strings.ToUpper(m)) || contrastWord.MatchString(s) {
			continue
		}
		p.fail("%s is not the study's GPU: hardware.gpu is %s (%s)", m, p.f.GPU, p.f.GPUAt)
	}
}

// versions checks an engine named with a version against the versions
// the study ran it on.
func (p *proseReading) versions(s string) {
	for _, m := range versionWord.FindAllStringSubmatchIndex(s, -1) {
		e := serving.Named(s[m[2]:m[3]])
		if e == nil {
			continue
		}
		// A version is written as one: with a v, after the word, or with
		// three parts; "vLLM's 38.07 s" is a figure.
		said := s[m[8]:m[9]]
		if m[4] < 0 && m[6] < 0 && strings.Count(said, ".") < 2 || m[10] < m[11] && isAlnum(s[m[10]]) {
			continue
		}
		if rest := strings.TrimLeft(s[m[9]:], " "); quantityWord.MatchString(said+" "+rest) && strings.Count(said, ".") < 2 || strings.HasPrefix(rest, "倍") || strings.HasPrefix(rest, "x") || strings.HasPrefix(rest, "%") {
			continue
		}
		known := p.f.Versions[e.Name]
		if len(known) == 0 || hypothetical.MatchString(s) {
			continue
		}
		ok := false
		for _, v := range known {
			stated := strings.TrimPrefix(strings.ToLower(v.Value), "v")
			ok = ok || sameRelease(said, v.Value) || strings.HasPrefix(stated, said+".")
		}
		if !ok {
			p.fail("%s %s is not the version the study ran %s on: %s (%s)", e.Name, said, e.Name, known[len(known)-1].Value, known[len(known)-1].At)
		}
	}
}

// workloadSettings checks prompt counts, lengths, concurrency and rates
// against the workloads (the one the sentence names, else any).
func (p *proseReading) workloadSettings(s string) {
	for _, c := range splitClauses(s) {
		p.workloadSettingsOf(c)
	}
}

// workloadSettingsOf checks the workload settings of one clause.
func (p *proseReading) workloadSettingsOf(s string) {
	named, isNamed := p.workloadOf(s)
	for _, ws := range workloadSettingsIn(s) {
		if ws.Kind == "prompts" && partWord.MatchString(s) || hypothetical.MatchString(s) {
			continue
		}
		var allowed []float64
		var where []string
		for _, w := range p.f.Workloads {
			if isNamed && w.ID != named {
				continue
			}
			vals, key := workloadValues(w.InputLen, w.OutputLen, w.NumPrompts, w.MaxConcurrency, ws.Kind)
			if w.Sweep != nil && (ws.Kind == "concurrency" && w.Sweep.Key == "max_concurrency" || ws.Kind == "rate" && w.Sweep.Key == "request_rate") {
				for _, pt := range w.Sweep.Points {
					vals = append(vals, pt.Value)
				}
				key = "sweep"
			}
			if ws.Kind == "concurrency" && w.MaxConcurrency == nil && w.NumPrompts > 0 {
				vals = append(vals, float64(w.NumPrompts)) // no limit: every prompt at once
			}
			if len(vals) > 0 {
				allowed = append(allowed, vals...)
				where = append(where, fmt.Sprintf("%s %s (%s)", w.ID, key, at(p.f.StudyFile, w.Lines[key])))
			}
		}
		for w, byKind := range p.f.Counts {
			if !isNamed || w == named {
				allowed = append(allowed, byKind[ws.Kind]...)
			}
		}
		if len(where) == 0 {
			continue
		}
		ok := false
		for _, v := range allowed {
			ok = ok || v == ws.Value || ws.K && (v == ws.Value*1000 || v == ws.Value*1024)
		}
		if !ok {
			p.fail("%s matches no workload's %s: %s", ws.Raw, ws.Kind, strings.Join(where, ", "))
		}
	}
}

// workloadValues are a workload's settings of a kind, and their key.
func workloadValues(in, out, prompts int, conc *int, kind string) ([]float64, string) {
	switch {
	case kind == "prompts" && prompts > 0:
		return []float64{float64(prompts)}, "num_prompts"
	case kind == "input" && in > 0:
		return []float64{float64(in)}, "input_len"
	case kind == "output" && out > 0:
		return []float64{float64(out)}, "output_len"
	case kind == "concurrency" && conc != nil:
		return []float64{float64(*conc)}, "max_concurrency"
	}
	return nil, ""
}
