package check

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/perflab/perflab/internal/report"
	"github.com/perflab/perflab/internal/study"
)

// RuleProseFact: a statement of prose about the study (a figure with its
// unit, a factor, a superlative, an order, a parallel size, a GPU, an
// engine version, a workload setting) binds to a fact and holds.
const RuleProseFact = "prose-fact"

// proseReading is the reading of one section of prose in one language.
type proseReading struct {
	f        *StudyFacts
	id, file string
	section  string
	runs     []*RunFacts // the section's own runs
	ref      *RunFacts   // its step's reference, or nil
	names    []nameOf    // workloads by display name, longest first
	out      []Diagnostic
	line     int
	sentence string
	judged   bool // a check found what it needs to judge its statement
}

type nameOf struct{ name, workload string }

// proseFacts checks every statement of a section that binds to a fact.
func proseFacts(id, file, section string, sec study.Section, c *study.Content, f *StudyFacts) []Diagnostic {
	if f == nil {
		return nil
	}
	p := &proseReading{f: f, id: id, file: file, section: section}
	p.runs, p.ref = f.scope(section)
	for _, w := range f.Workloads {
		p.names = append(p.names, nameOf{strings.ToLower(w.ID), w.ID})
		if n := c.Workloads[w.ID]; n != "" {
			p.names = append(p.names, nameOf{strings.ToLower(n), w.ID})
		}
	}
	sort.SliceStable(p.names, func(i, j int) bool { return len(p.names[i].name) > len(p.names[j].name) })
	inCode := false
	for i, line := range strings.Split(sec.Markdown, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			inCode = !inCode
		}
		if inCode || strings.HasPrefix(strings.TrimSpace(line), "<!--") {
			continue
		}
		if strings.ContainsAny(line, "`](") {
			line = proseCode.ReplaceAllString(dropLinkTargets(line), "")
		}
		line = foldDigits(dropListMarker(line))
		p.line = sec.TextLine + i
		for _, s := range splitSentences(line) {
			p.sentence = s
			p.read(s)
		}
	}
	return p.out
}

// read checks the statements of one sentence.
func (p *proseReading) read(s string) {
	digits := strings.ContainsAny(s, "0123456789")
	if digits {
		low := lowerForSpellings(s)
		p.quantities(s)
		p.settings(s)
		p.gpus(s)
		if strings.Contains(s, ".") && len(enginesInLower(low)) > 0 {
			p.versions(s)
		}
		if mayStateWorkload(low) {
			p.workloadSettings(s)
		}
	}
	if strings.Contains(lowerForSpellings(s), "gpu") && perGPUWord.MatchString(s) {
		return
	}
	for _, c := range splitClauses(s) {
		low := lowerForSpellings(c)
		if mayStateFactor(low) {
			p.factors(c)
		}
		if mayBeSuperlative(low) {
			p.acrossSteps(c, (*proseReading).superlative)
		}
		if mayCompare(low) {
			p.acrossSteps(c, (*proseReading).comparative)
		}
	}
	if strings.ContainsAny(s, "<>＜＞") {
		p.acrossSteps(s, (*proseReading).order)
	}
}

func (p *proseReading) fail(format string, args ...any) {
	p.out = append(p.out, Diagnostic{Study: p.id, Rule: RuleProseFact, Severity: Error, File: p.file, Line: p.line, Subject: "prose/" + p.section,
		Message: fmt.Sprintf("%q: ", p.sentence) + fmt.Sprintf(format, args...)})
}

// acrossSteps runs a check of an order between engines stated outside a
// step's section in every step: an engine's runs differ from step to
// step (default settings, then tuned), so the statement is wrong only if
// every step that can judge it says so, as prose-figure's comparison does.
func (p *proseReading) acrossSteps(c string, check func(*proseReading, string)) {
	engines := false
	for _, sub := range p.subjectsIn(c) {
		engines = engines || sub.engine
	}
	if p.ref != nil || len(p.f.Steps) == 0 || !engines {
		check(p, c)
		return
	}
	ids := make([]string, 0, len(p.f.Steps))
	for id := range p.f.Steps {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	var first *Diagnostic
	for _, id := range ids {
		q := *p
		q.out, q.judged = nil, false
		q.runs, q.ref = p.f.scope(id)
		check(&q, c)
		if !q.judged {
			continue
		}
		if len(q.out) == 0 {
			return // it holds in this step
		}
		if first == nil {
			d := q.out[0]
			d.Message += fmt.Sprintf(" (in %s, and so in every step that ran them)", id)
			first = &d
		}
	}
	if first != nil {
		p.out = append(p.out, *first)
	}
}

// workloadOf is the workload a sentence names, or the main one.
func (p *proseReading) workloadOf(s string) (string, bool) {
	low := strings.ToLower(s)
	for _, n := range p.names {
		if i := strings.Index(low, n.name); i >= 0 && wordAt(low, i, len(n.name)) {
			return n.workload, true
		}
	}
	return p.f.Workload, false
}

// subject is a run, or an engine standing for its runs, that a clause
// names.
type subject struct {
	name   string
	runs   []*RunFacts
	engine bool // an engine's name, standing for its runs
	at     int  // where the clause names it
	end    int  // and where the name ends
}

// subjectsIn finds the subjects of a clause in their order: run display
// names first (the longest first; a name not among the section's runs is
// looked up in the study), then engines, standing for the section's runs
// of that engine.
func (p *proseReading) subjectsIn(c string) []subject {
	low := lowerForSpellings(c)
	taken := make([]bool, len(low))
	type hit struct {
		at int
		s  subject
	}
	var hits []hit
	for _, rn := range p.f.runNames {
		for from := 0; ; {
			i := strings.Index(low[from:], rn.name)
			if i < 0 {
				break
			}
			i += from
			from = i + len(rn.name)
			if !wordAt(low, i, len(rn.name)) || taken[i] {
				continue
			}
			for k := i; k < i+len(rn.name); k++ {
				taken[k] = true
			}
			hits = append(hits, hit{i, subject{name: rn.runs[0].Name, runs: p.inScope(rn.runs), at: i, end: i + len(rn.name)}})
		}
	}
	var engines [][]int
	if mayNameEngine(c) {
		engines = engineName.FindAllStringIndex(c, -1)
	}
	for _, loc := range engines {
		if taken[loc[0]] {
			continue
		}
		es := enginesIn(c[loc[0]:loc[1]])
		if len(es) != 1 {
			continue
		}
		s := subject{name: es[0].Name, engine: true, at: loc[0], end: loc[1]}
		for _, r := range p.pool() {
			if r.Engine == es[0] {
				s.runs = append(s.runs, r)
			}
		}
		hits = append(hits, hit{loc[0], s})
	}
	sort.SliceStable(hits, func(i, j int) bool { return hits[i].at < hits[j].at })
	var out []subject
	for _, h := range hits {
		if len(out) == 0 || out[len(out)-1].name != h.s.name {
			out = append(out, h.s)
		}
	}
	return out
}

// inScope are the runs of a name that the section speaks of: those of
// its pool, or, if none is, all of them.
func (p *proseReading) inScope(runs []*RunFacts) []*RunFacts {
	var out []*RunFacts
	for _, r := range runs {
		if ownsRun(subject{runs: p.pool()}, r) {
			out = append(out, r)
		}
	}
	if len(out) == 0 {
		return runs
	}
	return out
}

// pool is the section's runs and its reference.
func (p *proseReading) pool() []*RunFacts {
	if p.ref == nil {
		return p.runs
	}
	for _, r := range p.runs {
		if r == p.ref {
			return p.runs
		}
	}
	return append([]*RunFacts{p.ref}, p.runs...)
}

// ranked is a run's value of a metric, for orders.
type ranked struct {
	run *RunFacts
	v   report.Value
}

// extreme is the run of runs with the largest (max) or smallest value of
// a metric on a workload.
func extreme(runs []*RunFacts, workload, key string, largest bool) (ranked, bool) {
	var best ranked
	found := false
	for _, r := range runs {
		v, ok := r.value(workload, key)
		if !ok || !r.Comparable {
			continue
		}
		if !found || (v.Effective() > best.v.Effective()) == largest && v.Effective() != best.v.Effective() {
			best, found = ranked{r, v}, true
		}
	}
	return best, found
}

// printed is a value as its log printed it, projected when it is.
func printed(v report.Value) string {
	s := report.FormatNumber(v.Measured, v.Decimals)
	if v.Replicas > 1 {
		s += fmt.Sprintf(" x %d", v.Replicas)
	}
	return s
}

// place is a value's log file and line.
func place(v report.Value) string { return at(v.Source.File, v.Source.Line) }

// metricName is a metric key as prose reads it: "mean TTFT", "total
// token throughput".
func metricName(key string) string {
	if k, ok := strings.CutSuffix(key, "_ms"); ok {
		stat, what, _ := strings.Cut(k, "_")
		return stat + " " + strings.ToUpper(what)
	}
	return strings.ReplaceAll(key, "_", " ")
}

// sameAtRounding: two values print alike, a tie prose may order either way.
func sameAtRounding(a, b report.Value) bool {
	d := min(a.Decimals, b.Decimals)
	return report.FormatNumber(a.Effective(), d) == report.FormatNumber(b.Effective(), d)
}

// superlative checks "X delivers the highest total token throughput":
// among the section's runs, X's must be first by that metric.
func (p *proseReading) superlative(c string) {
	sup, ok := superlativeIn(c)
	if !ok || negation.MatchString(c) {
		return
	}
	subs := p.subjectsIn(c)
	if len(subs) != 1 || len(subs[0].runs) == 0 || amongWord.MatchString(strings.TrimSpace(c[subs[0].end:])) {
		return
	}
	// "the fastest vLLM configuration" ranks within vLLM's runs: the
	// superlative qualifies its subject, and states no order between engines.
	if i := strings.Index(c, sup.Raw); i >= 0 && i < subs[0].at && strings.TrimSpace(c[i+len(sup.Raw):subs[0].at]) == "" {
		return
	}
	key := metricIn(c)
	if key == "" {
		if !sup.Better && !sup.Worse {
			return
		}
		key = p.f.Headline
	}
	largest := sup.Max
	switch {
	case sup.Better:
		largest = higherBetter(key)
	case sup.Worse:
		largest = !higherBetter(key)
	}
	// Among the step's own runs: its reference is what they are measured
	// against, unless the sentence names it.
	among := p.runs
	if p.ref != nil && ownsRun(subs[0], p.ref) {
		among = p.pool()
	}
	workload, _ := p.workloadOf(p.sentence)
	top, ok := extreme(among, workload, key, largest)
	own, ok2 := extreme(subs[0].runs, workload, key, largest)
	p.judged = p.judged || ok && ok2
	if !ok || !ok2 || top.run == own.run || sameAtRounding(top.v, own.v) || ownsRun(subs[0], top.run) {
		return
	}
	p.fail("%q puts %s first by %s on %s, but run %s has %s (%s) against %s for %s (%s)", sup.Raw, subs[0].name, metricName(key), workload,
		top.run.ID, printed(top.v), place(top.v), printed(own.v), own.run.ID, place(own.v))
}

func ownsRun(s subject, r *RunFacts) bool {
	for _, x := range s.runs {
		if x == r {
			return true
		}
	}
	return false
}

// order checks an ordered list, "vLLM BF16 > vLLM FP8 > SGLang", by the
// metric the sentence names or the headline: each operator must hold.
func (p *proseReading) order(s string) {
	for _, c := range splitClauses(s) {
		ops := orderOperator.FindAllString(c, -1)
		parts := orderOperator.Split(c, -1)
		if len(ops) == 0 || strings.Contains(c, "->") || strings.Contains(c, "=>") {
			continue
		}
		key := metricIn(c)
		if key == "" {
			key = p.f.Headline
		}
		workload, _ := p.workloadOf(s)
		var vals []ranked
		for _, part := range parts {
			subs := p.subjectsIn(part)
			if len(subs) != 1 {
				vals = nil
				break
			}
			best, ok := extreme(subs[0].runs, workload, key, higherBetter(key))
			if !ok {
				vals = nil
				break
			}
			vals = append(vals, best)
		}
		p.judged = p.judged || len(vals) > 1
		for i := 1; i < len(vals); i++ {
			a, b := vals[i-1], vals[i]
			greater := strings.Contains(ops[i-1], ">") || strings.Contains(ops[i-1], "＞")
			if sameAtRounding(a.v, b.v) || (a.v.Effective() > b.v.Effective()) == greater {
				continue
			}
			p.fail("the order %s %s %s by %s does not hold: run %s has %s (%s), run %s %s (%s)", strings.TrimSpace(parts[i-1]), strings.TrimSpace(ops[i-1]),
				strings.TrimSpace(parts[i]), metricName(key), a.run.ID, printed(a.v), place(a.v), b.run.ID, printed(b.v), place(b.v))
			return
		}
	}
}

// amongWord: a superlative within one engine's runs ("vLLM 中最快的配置").
var amongWord = regexp.MustCompile(`^(?:的?(?:各种?|所有)?(?:配置|运行)?(?:中|里|之中)|の中で|のうち|の(?:構成|実行)(?:の中で|のうち|で)|(?:runs|configurations)? ?(?:among|of) its own)`)

// Words of a comparison by value: the first subject's value is larger
// ("higher TTFT than") or smaller.
var (
	moreWord = regexp.MustCompile(`(?i)\b(higher|more|larger|greater|longer)\b|高于|多于|大于|长于|更高|更多|更大|更长|比.{1,40}(?:高|多|大|长)|より高|より多|より大き|より長`)
	lessWord = regexp.MustCompile(`(?i)\b(lower|less|fewer|smaller|shorter)\b|低于|少于|小于|短于|更低|更少|更小|更短|比.{1,40}(?:低|少|小|短)|より低|より少な|より小さ|より短`)
	thanWord = gate(regexp.MustCompile(`(?i)\bthan\b|比|より`), "than", "比", "より")
)

// comparative checks "vLLM FP8 is faster than vLLM BF16" and "vLLM FP8
// has a higher TTFT than vLLM BF16" between two runs (two engines alone
// are prose-figure's): by the metric named, or the headline.
func (p *proseReading) comparative(c string) {
	if !thanWord.MatchString(c) && !ahead.MatchString(c) && !behind.MatchString(c) || negation.MatchString(c) {
		return
	}
	subs := p.subjectsIn(c)
	if len(subs) != 2 || subs[0].engine && subs[1].engine {
		return
	}
	first, second := subs[0], subs[1]
	// "B より A のほうが速い": what stands right before より is the other.
	if i := strings.Index(c, "より"); i >= 0 && second.at > i {
		first, second = second, first
	}
	key := metricIn(c)
	up, down := ahead.MatchString(c), behind.MatchString(c)
	more, less := moreWord.MatchString(c), lessWord.MatchString(c)
	byValue := key != "" && more != less
	if up == down && !byValue || !thanWord.MatchString(c) && !up && !down {
		return
	}
	if key == "" {
		key = p.f.Headline
	}
	workload, _ := p.workloadOf(p.sentence)
	a, okA := extreme(first.runs, workload, key, higherBetter(key))
	b, okB := extreme(second.runs, workload, key, higherBetter(key))
	p.judged = p.judged || okA && okB
	if !okA || !okB || sameAtRounding(a.v, b.v) {
		return
	}
	larger := a.v.Effective() > b.v.Effective()
	if byValue && larger != more || !byValue && larger == higherBetter(key) != up {
		p.fail("it compares %s with %s the wrong way by %s: run %s has %s (%s), run %s %s (%s)", first.name, second.name, metricName(key),
			a.run.ID, printed(a.v), place(a.v), b.run.ID, printed(b.v), place(b.v))
	}
}
