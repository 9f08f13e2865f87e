package importer

// Reading the runs: the steps of the report, their serving commands and
// parameters, and the runs of Other Benchmark Cases.

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/perflab/perflab/internal/serving"
)

var (
	admonition = regexp.MustCompile(`^\s*(?:\?\?\?\+?|!!!)\s*[\w-]+\s*(?:"(.*)")?\s*$`)
	profileRE  = regexp.MustCompile("^\\s*[-*]\\s*Profile:\\s*`?([^`]+?)`?\\s*$")
	paramsRE   = regexp.MustCompile(`(?i)^\s*[-*]\s*(baseline\s+|optimized\s+)?backend parameters:\s*(.*?)\s*$`)
	summaryRE  = regexp.MustCompile(`^\s*[-*]\s*Summary:\s*(.+?)\s*$`)
	resultRE   = regexp.MustCompile(`^\s*(?:\*\*)?Result:?(?:\*\*)?:?\s*(.+?)\s*$`)
	rankingRE  = regexp.MustCompile(`\(\s*\d[\d,]*(?:\.\d+)?\s*(?:x\s*\d+)?[^)]*\)\s*[<>]`)
	fromToRE   = regexp.MustCompile(`(?i)\bfrom\s+\d[\d,]*(?:\.\d+)?\s*\S*\s+to\s+\d`)
	changeRE   = regexp.MustCompile(`(?i)\d+(?:\.\d+)?\s*%\s*(?:higher|more|faster|lower|less|slower)\b[^.,;]*`)
	stepNumber = regexp.MustCompile(`^\s*\d+(?:\.\d+)*\.?\s+`)
)

// runCtx follows the runs of a section as its lines are read.
type runCtx struct {
	step     *Step
	name     string // pending run name: a short line or a sub-heading
	cur      *Run
	expect   string // "command", "params" or "result"
	role     string
	profile  *Workload // workload of the next results (generated reports)
	inOther  bool
	workload *Workload // Other Benchmark Cases: the workload of a sub-heading
	derived  []*Run    // runs rebuilt from the labels of the current run's blocks
	bench    string    // the last benchmark command the section printed
}

func (p *parser) step(sec section) error {
	title := strings.TrimSpace(stepNumber.ReplaceAllString(sec.title, ""))
	if len(p.s.Steps) == MaxSteps {
		return p.fail(sec.line, "more than %d optimisation steps under Experiment Results: split the report, or make the other headings level 4 (####)", MaxSteps)
	}
	st := &Step{ID: p.stepIDs.unique(stepID(title)), Title: title, Line: sec.line}
	p.s.Steps = append(p.s.Steps, st)
	c := &runCtx{step: st}
	return p.walk(sec.items, c)
}

func (p *parser) stepByID(id string) *Step {
	for _, st := range p.s.Steps {
		if st.ID == id {
			return st
		}
	}
	return nil
}

func stepID(title string) string {
	t := norm(title)
	t = engineSuffix.ReplaceAllString(t, "")
	switch {
	case strings.Contains(t, "inference engine") || t == "engine selection" || t == "engine":
		return "engine"
	}
	return slug(t)
}

func (p *parser) otherCases(sec section) error {
	c := &runCtx{inOther: true}
	return p.walk(sec.items, c)
}

func (p *parser) walk(items []line, c *runCtx) error {
	for _, it := range items {
		if it.fence != nil {
			if err := p.fence(it, c); err != nil {
				return err
			}
			continue
		}
		t := strings.TrimSpace(it.text)
		if t == "" {
			continue
		}
		if lvl, h := heading(it.text); lvl > 0 {
			c.name = h
			if c.inOther {
				c.workload = p.labelWorkload(h, true)
			}
			continue
		}
		if m := admonition.FindStringSubmatch(t); m != nil {
			title := strings.ToLower(m[1])
			c.expect = ""
			switch {
			case strings.Contains(title, "serving script") || strings.Contains(title, "serving command") || strings.Contains(title, "launch"):
				p.newRun(c, roleOf(title), it.n)
				c.expect = "command"
			case strings.Contains(title, "result"):
				if c.cur == nil || (c.inOther && roleOf(title) != "" && roleOf(title) != c.cur.role) {
					p.s.note(it.n, "benchmark results without a serving script before them; imported under a run without command")
					p.newRun(c, roleOf(title), it.n)
				}
				c.expect = "result"
			}
			continue
		}
		if m := profileRE.FindStringSubmatch(t); m != nil {
			c.profile = p.labelWorkload(m[1], true)
			continue
		}
		if m := paramsRE.FindStringSubmatch(t); m != nil {
			role := roleOf(m[1])
			p.newRun(c, role, it.n)
			c.expect = "params"
			if m[2] != "" {
				p.params(c.cur, m[2], it.n)
				c.expect = ""
			}
			continue
		}
		if m := summaryRE.FindStringSubmatch(t); m != nil && c.step != nil {
			p.s.addClaim(Claim{Kind: "summary", Step: c.step.ID, Printed: m[1], Line: it.n})
			continue
		}
		if m := resultRE.FindStringSubmatch(t); m != nil && c.step != nil {
			r := m[1]
			r = strings.TrimPrefix(r, "Mean latency per request:")
			if rankingRE.MatchString(r) || fromToRE.MatchString(r) {
				// "A (x) > B (y)", or "improved from x tok/s to y tok/s"
				p.s.addClaim(Claim{Kind: "ranking", Step: c.step.ID, Printed: strings.TrimSpace(r), Line: it.n})
			}
			if ch := changeRE.FindString(r); ch != "" && fromToRE.MatchString(r) {
				// "..., achieving 26.8% higher token throughput per GPU"
				p.s.addClaim(Claim{Kind: "step", Step: c.step.ID, Printed: strings.TrimSpace(ch), Line: it.n})
			}
			continue
		}
		if strings.HasPrefix(strings.ToLower(t), "mean latency per request:") && c.step != nil && rankingRE.MatchString(t) {
			p.s.addClaim(Claim{Kind: "ranking", Step: c.step.ID, Printed: strings.TrimSpace(t[len("mean latency per request:"):]), Line: it.n})
			continue
		}
		if strings.HasPrefix(t, "|") || strings.HasPrefix(t, "-") || strings.HasPrefix(t, "*") || strings.HasPrefix(t, "!") {
			continue
		}
		if len(t) <= 60 && !strings.HasSuffix(t, ".") && !strings.HasSuffix(t, ":") {
			c.name = t
			continue
		}
		if c.cur != nil && c.cur.Error == "" && len(c.cur.Logs) == 0 && c.expect == "" {
			c.cur.Error = t
		}
	}
	p.closeRun(c)
	return nil
}

func roleOf(title string) string {
	switch {
	case strings.Contains(strings.ToLower(title), "baseline"):
		return "baseline"
	case strings.Contains(strings.ToLower(title), "optimized"), strings.Contains(strings.ToLower(title), "optimised"):
		return "optimized"
	}
	return ""
}

func (p *parser) newRun(c *runCtx, role string, n int) {
	p.closeRun(c)
	r := &Run{step: c.step, role: role, source: p.file}
	switch {
	case c.inOther && role != "":
		r.Name = strings.ToUpper(role[:1]) + role[1:]
	case c.name != "":
		r.Name = c.name
	case c.step != nil:
		r.Name = c.step.Title
	default:
		r.Name = "Run"
	}
	if !c.inOther {
		c.name = ""
	}
	c.cur = r
	c.role = role
}

// closeRun registers the current run: a run of Other Benchmark Cases with
// the same command as an earlier one of its role joins it.
func (p *parser) closeRun(c *runCtx) {
	r := c.cur
	c.cur = nil
	defer func(derived []*Run) {
		for _, d := range derived {
			p.register(d)
		}
	}(c.derived)
	c.derived = nil
	if r == nil || r.ID != "" {
		return
	}
	if r.Command == "" && len(r.Logs) == 0 && r.Error == "" {
		return
	}
	if r.role != "" && r.step == nil {
		// The runs of Other Benchmark Cases join a run of the same role and
		// command, or the step run with the same command when no workload
		// of theirs was measured differently there.
		for _, o := range p.s.Runs {
			if o.role == r.role && samePlan(o, r) && mergeable(o, r) {
				merge(o, r)
				return
			}
		}
		for _, o := range p.s.Runs {
			if o.role == "" && o.step != nil && o.Error == "" && samePlan(o, r) && mergeable(o, r) {
				o.role = r.role
				merge(o, r)
				return
			}
		}
	}
	p.register(r)
}

// samePlan reports whether r was served as o was: the same command, or,
// when r's parameters were printed as "N/A" (not published), the same
// engine.
func samePlan(o, r *Run) bool {
	if strings.EqualFold(strings.TrimSpace(r.Parameters), "n/a") {
		return o.Engine == r.Engine
	}
	return o.Command == r.Command && o.Parameters == r.Parameters
}

// mergeable reports whether r's logs can join o's: every workload both
// have carries the same block.
func mergeable(o, r *Run) bool {
	for _, a := range o.Logs {
		for _, b := range r.Logs {
			if a.Workload == b.Workload && a.Text != b.Text {
				return false
			}
		}
	}
	return true
}

func merge(o, r *Run) {
	for _, b := range r.Logs {
		dup := false
		for _, a := range o.Logs {
			dup = dup || a.Workload == b.Workload
		}
		if !dup {
			o.Logs = append(o.Logs, b)
		}
	}
}

// citeRepeats makes each run printed more than once (a later step showing
// its starting point again: the same command and the same result blocks)
// cite every line it is printed on, in every copy.
func (p *parser) citeRepeats() {
	runs := p.s.Runs
	for i, a := range runs {
		for _, b := range runs[i+1:] {
			if a.Line > 0 && b.Line > 0 && a.Command == b.Command && a.Parameters == b.Parameters && a.Error == "" && b.Error == "" && sameLogs(a, b) {
				a.alsoAt = append(a.alsoAt, b.Line)
				b.alsoAt = append(b.alsoAt, a.Line)
			}
		}
	}
	for _, r := range runs {
		slices.Sort(r.alsoAt)
	}
}

func sameLogs(a, b *Run) bool {
	if len(a.Logs) == 0 || len(a.Logs) != len(b.Logs) {
		return false
	}
	for i := range a.Logs {
		if a.Logs[i].Workload != b.Logs[i].Workload || a.Logs[i].Text != b.Logs[i].Text {
			return false
		}
	}
	return true
}

func (p *parser) register(r *Run) {
	if r.role != "" && r.step == nil {
		r.ID = p.s.newRunID(r.role)
	} else {
		r.ID = p.s.newRunID(r.Name)
	}
	if r.Engine == "" {
		r.Engine = commandEngine(r.Command)
	}
	if r.Engine == "" {
		r.Engine = "unknown"
	}
	if len(r.Logs) == 0 && r.Error == "" {
		r.Error = "the report publishes no result for this run"
	}
	p.s.Runs = append(p.s.Runs, r)
	if r.step != nil {
		r.step.Runs = append(r.step.Runs, r.ID)
	}
}

func (p *parser) params(r *Run, printed string, n int) {
	r.Parameters = printed
	r.Line = n
	r.Derived = true
	id := namedEngine(r.Name) // a sub-heading naming the engine: "#### SGLang"
	if r.role == "baseline" && r.step == nil && p.table != nil {
		// "baseline (vLLM without any optimizations)" names the baseline's engine.
		if bc := colIndex(p.table.header, "baseline"); bc >= 0 {
			if e := namedEngine(p.table.header[bc]); e != "" {
				id = e
			}
		}
	}
	if id == "" {
		id = commandEngine(p.recommended)
	}
	if id == "" && strings.Contains(printed, "--context-length") {
		id = "sglang"
	}
	if id == "" {
		id = "vllm"
	}
	r.Engine = id
	var flags []string
	for _, l := range strings.Split(printed, "\n") {
		l = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(l), "\\"))
		if l == "" || strings.EqualFold(l, "n/a") || strings.HasPrefix(l, "#") {
			continue
		}
		flags = append(flags, l)
	}
	head := id + " " + p.s.Model
	if e := serving.ByID(id); e != nil {
		head = fmt.Sprintf(e.Derive, p.s.Model)
	}
	r.Command = strings.TrimSpace(head + " " + strings.Join(flags, " "))
}

func (p *parser) fence(it line, c *runCtx) error {
	f := it.fence
	if c.expect != "result" {
		for _, ev := range commandsIn(f, nil) {
			if ev.kind == "bench" {
				c.bench = ev.cmd.text
			}
		}
	}
	switch c.expect {
	case "command":
		c.cur.Command = f.Text()
		c.cur.Line = f.first
	case "params":
		p.params(c.cur, f.Text(), f.first)
	case "result":
		if err := p.results(c, f); err != nil {
			return err
		}
	}
	c.expect = ""
	return nil
}

// results places the blocks of a result fence, or the error it prints.
