package importer

import (
	"fmt"
	"math"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/perflab/perflab/internal/benchlog"
	"github.com/perflab/perflab/internal/engine"
)

// Import reads one report. file names it in errors and in the sources of
// claims and runs (its base name only).
func Import(file string, src []byte) (*Study, error) {
	name := path.Base(strings.ReplaceAll(file, "\\", "/"))
	items, unclosed := scan(string(src))
	if unclosed > 0 {
		return nil, &Error{name, unclosed, "this code fence is never closed: close it with ``` so the importer knows where the block ends"}
	}
	if notAStudy(items) {
		return nil, &NotAStudy{File: name}
	}
	s := &Study{ID: StudyID(file), Source: name, Nodes: 1}
	p := &parser{s: s, file: name, items: items}
	if isArticle(items) {
		p.importArticle()
		return s, nil
	}
	if err := p.parse(); err != nil {
		return nil, err
	}
	return s, nil
}

type parser struct {
	s     *Study
	file  string
	items []line

	datasets        []dataset // "Very long prompt: 32000 input tokens, 100 output tokens"
	defaultData     string    // dataset of workloads a label does not place
	gpusKnown       bool
	recommended     string // the recommended serving command of the conclusion
	recommendedLine int    // the line of its first word
	modelLine       int    // the line of the setup's model
	table           *table // the conclusion's comparison table
	summary         *table // the summary of options
	unlabelled      bool   // some step block had no workload label
}

type dataset struct {
	name    string
	in, out int
}

func (p *parser) fail(line int, format string, args ...any) error {
	return &Error{p.file, line, fmt.Sprintf(format, args...)}
}

func (p *parser) parse() error {
	s := p.s
	h2 := sections(p.items, 2)
	title := ""
	for _, it := range p.items {
		if lvl, t := heading(it.text); it.fence == nil && lvl == 1 {
			title = t
			break
		}
	}
	s.Objective = "throughput"
	if obj := find(h2, "objective"); strings.Contains(strings.ToLower(title), "latency") ||
		(obj != nil && strings.Contains(strings.ToLower(text(obj.items)), "latency") && !strings.Contains(strings.ToLower(text(obj.items)), "throughput")) {
		s.Objective = "latency"
	}
	setup := find(h2, "experimental setup", "setup")
	if setup == nil {
		return p.fail(1, "no \"## Experimental Setup\" section: the importer reads the model, hardware and engines from it")
	}
	if err := p.setup(setup); err != nil {
		return err
	}
	if c := find(h2, "conclusion"); c != nil {
		for _, it := range c.items {
			if it.fence != nil && p.recommended == "" {
				p.recommended, p.recommendedLine = it.fence.Text(), it.fence.first
			}
		}
		for _, t := range tables(c.items) {
			t := t
			if colIndex(t.header, "optimized") >= 0 && colIndex(t.header, "baseline") >= 0 {
				p.table = &t
				break
			}
		}
	}
	res := find(h2, "experiment results", "results")
	if res == nil {
		return p.fail(1, "no \"## Experiment Results\" section: the importer reads the runs from it")
	}
	for _, sec := range sections(res.items, 3) {
		t := norm(sec.title)
		switch {
		case strings.Contains(t, "summary of optimization"):
			for _, tb := range tables(sec.items) {
				tb := tb
				p.summary = &tb
				break
			}
		case strings.Contains(t, "other benchmark cases"):
			if err := p.otherCases(sec); err != nil {
				return err
			}
		default:
			if err := p.step(sec); err != nil {
				return err
			}
		}
	}
	if len(s.Steps) == 0 {
		return p.fail(res.line, "no optimisation step found under this heading: expected \"### <step>\" sections with serving scripts and benchmark results")
	}
	p.finishWorkloads()
	p.reconcileModel(title)
	p.citeRepeats()
	p.hardwareFromRuns()
	p.references()
	p.configs()
	p.conclusionClaims()
	p.summaryClaims()
	p.engines()
	sortClaims(s.Claims)
	return nil
}

func text(items []line) string {
	var b strings.Builder
	for _, it := range items {
		if it.fence == nil {
			b.WriteString(it.text)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

func colIndex(header []string, word string) int {
	for i, h := range header {
		if strings.Contains(norm(h), word) {
			return i
		}
	}
	return -1
}

// ---- setup ----

var (
	hwCount    = regexp.MustCompile(`(?i)^(\d+)\s*[×xX*]\s*(.+?)(?:\s+GPUs?)?(?:\s+(?:on|in)\s+(?:a\s+single|one|(\d+))\s+nodes?)?\s*\.?$`)
	hwSingle   = regexp.MustCompile(`(?i)^(?:a|one)\s+(?:single\s+)?(.+?)(?:\s+GPU)?\s*\.?$`)
	hwSuffix   = regexp.MustCompile(`(?i)^(.+?)\s*[×xX*]\s*(\d+)(?:\s+GPUs?)?\s*\.?$`)
	engineLine = regexp.MustCompile(`^\s*[-*]\s*(.+?):?\s+(v?\d[\w.+-]*)\s*$`)
	dsEntry    = regexp.MustCompile(`(?i)^\s*(?:[-*]|\d+\.)\s*(.+?):\s*(\d+(?:\.\d+)?\s*k?)\s*input tokens?\s*,\s*(\d+(?:\.\d+)?\s*k?)\s*output tokens?`)
	modelFlag  = regexp.MustCompile(`--model(?:[ =])(\S+)`)
)

func (p *parser) setup(setup *section) error {
	s := p.s
	secs := sections(setup.items, 3)
	if m := find(secs, "model"); m != nil {
		for _, it := range m.items {
			if t := modelText(it.text); it.fence == nil && t != "" {
				s.Model, p.modelLine = t, it.n
				break
			}
		}
	}
	if s.Model == "" {
		return p.fail(setup.line, "no \"### Model\" section with the model's name under Experimental Setup")
	}
	if hw := find(secs, "hardware"); hw != nil {
		for _, it := range hw.items {
			t := strings.TrimSpace(it.text)
			if it.fence != nil || t == "" {
				continue
			}
			p.hardware(t)
			break
		}
	}
	if s.GPU == "" {
		return p.fail(setup.line, "no \"### Hardware\" section naming the GPU under Experimental Setup")
	}
	if ev := find(secs, "engine version", "engine"); ev != nil {
		for _, it := range ev.items {
			if m := engineLine.FindStringSubmatch(it.text); it.fence == nil && m != nil {
				id, name := engineID(m[1])
				s.Engines = append(s.Engines, Engine{ID: id, Name: name, Version: m[2]})
			}
		}
	}
	if ds := find(secs, "benchmark dataset"); ds != nil {
		for _, it := range ds.items {
			if it.fence != nil {
				continue
			}
			if m := dsEntry.FindStringSubmatch(it.text); m != nil {
				in, out := tokenCount(m[2]), tokenCount(m[3])
				p.datasets = append(p.datasets, dataset{name: norm(m[1]), in: in, out: out})
			} else if strings.Contains(strings.ToLower(it.text), "sharegpt") && p.defaultData == "" {
				p.defaultData = "sharegpt"
			}
		}
	}
	// Benchmark script (hand-written) or profiles and a replacement command (generated).
	for _, sec := range secs {
		t := norm(sec.title)
		switch {
		case strings.Contains(t, "benchmark script") || strings.Contains(t, "open source replacement") || strings.Contains(t, "benchmark command"):
			for _, it := range sec.items {
				if it.fence != nil && s.Commands == "" {
					s.Commands = it.fence.Text()
				}
			}
		case strings.Contains(t, "benchmark method") || strings.Contains(t, "benchmark profiles"):
			p.profiles(sec)
		}
	}
	low := strings.ToLower(s.Commands + "\n" + text(setup.items))
	switch {
	case strings.Contains(low, "vllm bench serve"):
		s.Tool = "vllm bench serve"
	case strings.Contains(low, "benchmark_serving.py"):
		s.Tool = "benchmark_serving.py"
	case strings.Contains(low, "sglang.bench_serving"):
		s.Tool = "python -m sglang.bench_serving"
	case strings.Contains(low, "guidellm"):
		s.Tool = "guidellm"
	default:
		s.Tool = "not published"
	}
	// The model's Hugging Face id: printed as such, or the one the
	// benchmark command names.
	if !strings.Contains(s.Model, "/") {
		if m := modelFlag.FindStringSubmatch(s.Commands); m != nil && sameModel(m[1], s.Model) {
			s.Model = m[1]
		}
	}
	p.benchCommands()
	return nil
}

// listMarker is what may stand before a model's name on its line: a list
// marker, emphasis or code quotes.
var listMarker = regexp.MustCompile(`^(?:[-*+]|\d+[.)])\s+`)

func modelText(line string) string {
	t := listMarker.ReplaceAllString(strings.TrimSpace(line), "")
	return strings.TrimSpace(strings.Trim(t, "*_`"))
}

// reconcileModel trusts the setup's model only when the title or the
// serving commands agree with it: a report written from another keeps the
// old model there. When the title names the model most commands serve,
// that model is the study's, and the setup's line becomes a claim that
// check reports.
func (p *parser) reconcileModel(title string) {
	s := p.s
	low := strings.ToLower(title)
	setup := engine.BaseModel(s.Model)
	if setup == "" || strings.Contains(low, setup) {
		return
	}
	count := map[string]int{}
	best := map[string]string{} // base -> the id to use: organisation first, unquantised first
	for _, r := range s.Runs {
		m := engine.Parse(r.Command).Model
		b := engine.BaseModel(m)
		if b == "" {
			continue
		}
		count[b]++
		cur := best[b]
		if cur == "" || strings.Contains(m, "/") && !strings.Contains(cur, "/") ||
			engine.ModelKey(m) == b && engine.ModelKey(cur) != b {
			best[b] = m
		}
	}
	if count[setup] > 0 {
		return // some command serves it: the commands disagree among themselves
	}
	pick := ""
	for b, n := range count {
		if strings.Contains(low, b) && (pick == "" || n > count[pick] || n == count[pick] && b < pick) {
			pick = b
		}
	}
	if pick == "" {
		return
	}
	s.addClaim(Claim{Kind: "model", Printed: s.Model, Line: p.modelLine})
	s.note(p.modelLine, "the setup names the model %s, but the title and the serving commands are about %s: the study is about %s, and check reports the setup's line", s.Model, best[pick], best[pick])
	s.Model = best[pick]
}

func sameModel(id, name string) bool {
	base := strings.ToLower(id[strings.LastIndex(id, "/")+1:])
	n := strings.ToLower(strings.TrimSpace(name))
	return base == n || strings.HasPrefix(base, n) || strings.HasPrefix(n, base)
}

func (p *parser) hardware(t string) {
	s := p.s
	t = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(t), "."))
	if m := hwCount.FindStringSubmatch(t); m != nil {
		s.GPUsPerNode, _ = strconv.Atoi(m[1])
		s.GPU = strings.TrimSpace(m[2])
		if m[3] != "" {
			s.Nodes, _ = strconv.Atoi(m[3])
		}
		p.gpusKnown = true
		return
	}
	if m := hwSuffix.FindStringSubmatch(t); m != nil {
		s.GPU = strings.TrimSpace(m[1])
		s.GPUsPerNode, _ = strconv.Atoi(m[2])
		p.gpusKnown = true
		return
	}
	if m := hwSingle.FindStringSubmatch(t); m != nil {
		s.GPU = strings.TrimSpace(m[1])
		s.GPUsPerNode = 1
		p.gpusKnown = true
		return
	}
	s.GPU = strings.TrimSuffix(strings.TrimSuffix(t, " GPUs"), " GPU")
	s.GPUsPerNode = 1
}

func engineID(name string) (string, string) {
	if e := engine.Named(name); e != nil {
		return e.ID, e.Name
	}
	return slug(name), strings.TrimSpace(name)
}

// commandEngine is the engine a serving command starts, else the one its
// command lines name; comment lines name none.
func commandEngine(command string) string {
	if e := engine.Started(command); e != nil {
		return e.ID
	}
	if e := engine.Named(strings.Join(engine.Words(command), " ")); e != nil {
		return e.ID
	}
	return ""
}

// namedEngine is the engine a heading names, or "".
func namedEngine(text string) string {
	if e := engine.Named(text); e != nil {
		return e.ID
	}
	return ""
}

var profileKV = regexp.MustCompile(`^\s*([A-Za-z_]+)\s*:\s*(.*?)\s*$`)

func (p *parser) profiles(sec section) {
	var name string
	for _, it := range sec.items {
		if it.fence == nil {
			if lvl, t := heading(it.text); lvl >= 4 {
				name = t
			}
			continue
		}
		if name == "" || (it.fence.lang != "yaml" && it.fence.lang != "yml") {
			continue
		}
		w := &Workload{ID: slug(name), aliases: []string{norm(name)}, firstSeen: it.n}
		for _, l := range it.fence.content {
			m := profileKV.FindStringSubmatch(l)
			if m == nil {
				continue
			}
			n, _ := strconv.Atoi(m[2])
			switch strings.ToLower(m[1]) {
			case "dataset_name":
				w.Dataset = strings.ToLower(m[2])
			case "dataset_input_tokens":
				w.InputLen = n
			case "dataset_output_tokens":
				w.OutputLen = n
			case "dataset_seed":
				w.Seed = &n
			case "total_requests":
				w.NumPrompts = n
			case "request_rate":
				w.rate, _ = strconv.ParseFloat(m[2], 64)
			}
		}
		if w.Dataset != "random" {
			w.Dataset = "sharegpt"
		}
		if p.s.workload(w.ID) == nil {
			p.s.Workloads = append(p.s.Workloads, w)
		}
		name = ""
	}
	// "Rate 4" names the profile sent at 4 requests per second when the
	// rates tell the profiles apart.
	rates := map[float64]int{}
	for _, w := range p.s.Workloads {
		rates[w.rate]++
	}
	for _, w := range p.s.Workloads {
		if w.rate > 0 && rates[w.rate] == 1 {
			w.aliases = append(w.aliases, "rate "+strconv.FormatFloat(w.rate, 'f', -1, 64))
		}
	}
}

var (
	flagValue = func(cmd, flag string) string {
		m := regexp.MustCompile(`(?:^|\s)` + regexp.QuoteMeta(flag) + `[ =](\S+)`).FindStringSubmatch(cmd)
		if m == nil {
			return ""
		}
		return m[1]
	}
)

// benchCommands attaches the published benchmark commands to workloads.
func (p *parser) benchCommands() {
	for _, l := range strings.Split(p.s.Commands, "\n") {
		c := strings.TrimSpace(l)
		if c == "" || strings.HasPrefix(c, "#") || !strings.Contains(c, "--dataset-name") {
			continue
		}
		var w *Workload
		switch flagValue(c, "--dataset-name") {
		case "sharegpt":
			w = p.sharegpt()
			if n := flagValue(c, "--max-concurrency"); n != "" {
				if p.defaultData == "" {
					p.defaultData = "sharegpt"
				}
				w = p.labelWorkload("BS="+n, true) // a batch-size case: "# BS=n"
			}
		case "random":
			in, _ := strconv.Atoi(flagValue(c, "--random-input-len"))
			out, _ := strconv.Atoi(flagValue(c, "--random-output-len"))
			if in <= 0 || out <= 0 {
				continue
			}
			w = p.random(in, out, "")
		default:
			continue
		}
		w.Command = c
		if n, err := strconv.Atoi(flagValue(c, "--num-prompts")); err == nil && n > 0 {
			w.NumPrompts = n
		}
		if n, err := strconv.Atoi(flagValue(c, "--seed")); err == nil {
			w.Seed = &n
		}
		if n, err := strconv.Atoi(flagValue(c, "--max-concurrency")); err == nil && n > 0 {
			w.MaxConcurrency = &n
		}
	}
}

// ---- workloads ----

func (p *parser) sharegpt() *Workload {
	if w := p.s.workload("sharegpt"); w != nil {
		return w
	}
	w := &Workload{ID: "sharegpt", Dataset: "sharegpt", aliases: []string{"sharegpt"}}
	p.s.Workloads = append(p.s.Workloads, w)
	return w
}

// tokenCount reads a token count as reports write it: 4000, 2K, 32k, 1.5K.
func tokenCount(s string) int {
	s = strings.ToLower(strings.ReplaceAll(s, " ", ""))
	scale := 1.0
	if strings.HasSuffix(s, "k") {
		s, scale = strings.TrimSuffix(s, "k"), 1000
	}
	v, _ := strconv.ParseFloat(s, 64)
	return int(math.Round(v * scale))
}

func sizeID(n int) string {
	if n >= 1000 && n%1000 == 0 {
		return fmt.Sprintf("%dk", n/1000)
	}
	if n >= 1024 && n%1024 == 0 {
		return fmt.Sprintf("%dk", n/1024)
	}
	return strconv.Itoa(n)
}

// random returns the random workload with the given lengths (output 0:
// any), creating it.
func (p *parser) random(in, out int, alias string) *Workload {
	for _, w := range p.s.Workloads {
		if w.Dataset == "random" && w.InputLen == in && (out == 0 || w.OutputLen == out) {
			if alias != "" {
				w.aliases = append(w.aliases, alias)
			}
			return w
		}
	}
	if out == 0 {
		for _, d := range p.datasets {
			if d.in == in {
				out = d.out
			}
		}
	}
	id := "random-" + sizeID(in)
	for i := 2; p.s.workload(id) != nil; i++ {
		id = fmt.Sprintf("random-%s-%d", sizeID(in), i)
	}
	w := &Workload{ID: id, Dataset: "random", InputLen: in, OutputLen: out}
	if alias != "" {
		w.aliases = append(w.aliases, alias)
	}
	for _, d := range p.datasets {
		if d.in == in && (out == 0 || d.out == out) {
			w.aliases = append(w.aliases, d.name)
		}
	}
	p.s.Workloads = append(p.s.Workloads, w)
	return w
}

var (
	batchRE = regexp.MustCompile(`(?:\bbs|batch size|concurrency|max concurrency)\s*=?\s*(\d+)`)
	sizeRE  = regexp.MustCompile(`(\d+(?:\.\d+)?)\s*(k|m)?\b`)
)

// labelWorkload finds the workload a label or a table row names, creating
// it when the name says enough; nil when it says nothing the importer knows.
func (p *parser) labelWorkload(label string, create bool) *Workload {
	t := norm(label)
	t2 := strings.TrimSpace(strings.TrimSuffix(t, " profile"))
	for _, w := range p.s.Workloads {
		for _, a := range w.aliases {
			if a == t || a == t2 {
				return w
			}
		}
	}
	for _, d := range p.datasets {
		if d.name == t || d.name == t2 || d.name+" prompt" == t {
			return p.random(d.in, d.out, t)
		}
	}
	if m := batchRE.FindStringSubmatch(strings.ReplaceAll(t, "bs ", "bs=")); m != nil {
		n, _ := strconv.Atoi(m[1])
		// "ShareGPT BS=4" is the case the benchmark ran at concurrency 4.
		for _, w := range p.s.Workloads {
			if w.MaxConcurrency != nil && *w.MaxConcurrency == n && (!strings.Contains(t, "sharegpt") || w.Dataset == "sharegpt") {
				w.aliases = append(w.aliases, t)
				return w
			}
		}
	}
	if m := batchRE.FindStringSubmatch(strings.ReplaceAll(t, "bs ", "bs=")); m != nil && create {
		n, _ := strconv.Atoi(m[1])
		id := fmt.Sprintf("bs-%d", n)
		ds := p.defaultData
		if strings.Contains(t, "sharegpt") {
			id, ds = fmt.Sprintf("sharegpt-bs%d", n), "sharegpt"
		}
		if w := p.s.workload(id); w != nil {
			w.aliases = append(w.aliases, t)
			return w
		}
		if ds == "" {
			ds = "sharegpt"
		}
		w := &Workload{ID: id, Dataset: ds, MaxConcurrency: &n, aliases: []string{t}}
		if ds == "random" && len(p.datasets) > 0 {
			w.InputLen, w.OutputLen = p.datasets[0].in, p.datasets[0].out
		}
		p.s.Workloads = append(p.s.Workloads, w)
		return w
	}
	// "Short Context (1K in / 128 out)" is the profile "Short Context".
	for _, w := range p.s.Workloads {
		for _, a := range w.aliases {
			if a != "sharegpt" && strings.HasPrefix(t2, a+" ") {
				return w
			}
		}
	}
	if strings.Contains(t, "sharegpt") {
		w := p.sharegpt()
		w.aliases = append(w.aliases, t)
		return w
	}
	if strings.Contains(t, "random") || strings.Contains(t, "input") || strings.Contains(t, "prompt") {
		if m := sizeRE.FindStringSubmatch(t); m != nil {
			v, _ := strconv.ParseFloat(m[1], 64)
			in := int(v)
			if m[2] == "k" {
				in = int(v * 1000)
			}
			// The label rounds: "32K" is the 32000-token case of the dataset list.
			for _, d := range p.datasets {
				if math.Abs(float64(d.in-in)) <= 0.05*float64(in) || (m[2] == "k" && math.Abs(float64(d.in)-v*1024) <= 0.05*v*1024) {
					return p.random(d.in, d.out, t)
				}
			}
			if create {
				return p.random(in, 0, t)
			}
		}
	}
	if !create {
		return nil
	}
	id := slug(label)
	if id == "" {
		return nil
	}
	if w := p.s.workload(id); w != nil {
		return w
	}
	w := &Workload{ID: id, Dataset: p.defaultData, aliases: []string{t}}
	if w.Dataset == "" {
		w.Dataset = "sharegpt"
	}
	p.s.Workloads = append(p.s.Workloads, w)
	return w
}

// finishWorkloads completes random workloads from their logs when the
// report lists no lengths, picks the main workload and orders workloads as
// the conclusion table lists them.
func (p *parser) finishWorkloads() {
	s := p.s
	used := map[string]int{}
	for _, r := range s.Runs {
		if r.step == nil {
			continue
		}
		for _, lg := range r.Logs {
			used[lg.Workload]++
		}
	}
	var main *Workload
	if p.unlabelled || len(used) == 0 {
		main = p.defaultWorkload()
	} else {
		for _, w := range s.Workloads {
			if used[w.ID] > 0 && (main == nil || used[w.ID] > used[main.ID]) {
				main = w
			}
		}
	}
	if main != nil {
		main.Main = true
	}
	for _, w := range s.Workloads {
		if w.Dataset == "random" && (w.InputLen == 0 || w.OutputLen == 0) {
			for _, r := range s.Runs {
				for _, lg := range r.Logs {
					if lg.Workload != w.ID {
						continue
					}
					b := parseBlock(lg.Text)
					n, ok1 := b.Value("completed")
					in, ok2 := b.Value("total_input_tokens")
					out, ok3 := b.Value("total_output_tokens")
					if ok1 && n > 0 {
						if w.InputLen == 0 && ok2 {
							w.InputLen = int(math.Round(in / n))
						}
						if w.OutputLen == 0 && ok3 {
							w.OutputLen = int(math.Round(out / n))
						}
					}
				}
			}
			if w.InputLen == 0 {
				w.InputLen = 1
			}
			if w.OutputLen == 0 {
				w.OutputLen = 1
			}
		}
	}
	// Table order first, then the order workloads appeared in.
	if p.table != nil {
		for i, row := range p.table.rows {
			if len(row) > 0 {
				if w := p.labelWorkload(row[0], false); w != nil && w.tabled == 0 {
					w.tabled = i + 1
				}
			}
		}
	}
	ws := s.Workloads
	for i := 1; i < len(ws); i++ {
		for j := i; j > 0 && less(ws[j], ws[j-1]); j-- {
			ws[j], ws[j-1] = ws[j-1], ws[j]
		}
	}
}

func less(a, b *Workload) bool {
	ka, kb := a.tabled, b.tabled
	if ka == 0 {
		ka = 1 << 20
	}
	if kb == 0 {
		kb = 1 << 20
	}
	return ka < kb
}

func (p *parser) defaultWorkload() *Workload {
	if p.defaultData == "sharegpt" || p.s.workload("sharegpt") != nil || len(p.s.Workloads) == 0 {
		return p.sharegpt()
	}
	return p.s.Workloads[0]
}

func parseBlock(txt string) *benchlog.Block {
	blocks, _ := benchlog.Parse("block", strings.NewReader(txt+"\n"))
	if len(blocks) == 0 {
		return &benchlog.Block{}
	}
	return &blocks[0]
}

// ---- runs ----

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
	prose    string    // last sentence after a run without result
	inOther  bool
	workload *Workload // Other Benchmark Cases: the workload of a sub-heading
	derived  []*Run    // runs rebuilt from the labels of the current run's blocks
}

func (p *parser) step(sec section) error {
	title := strings.TrimSpace(stepNumber.ReplaceAllString(sec.title, ""))
	st := &Step{ID: stepID(title), Title: title, Line: sec.line}
	for i := 2; p.stepByID(st.ID) != nil; i++ {
		st.ID = fmt.Sprintf("%s-%d", stepID(title), i)
	}
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
	t = regexp.MustCompile(` in (vllm|sglang|tensorrt llm|trt llm|tensorrt llm vllm|mindie|lmdeploy)( .*)?$`).ReplaceAllString(t, "")
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
	if e := engine.ByID(id); e != nil {
		head = fmt.Sprintf(e.Derive, p.s.Model)
	}
	r.Command = strings.TrimSpace(head + " " + strings.Join(flags, " "))
}

func (p *parser) fence(it line, c *runCtx) error {
	f := it.fence
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
func (p *parser) results(c *runCtx, f *fence) error {
	r := c.cur
	txt := f.Text()
	blocks, _ := benchlog.Parse(p.file, strings.NewReader(txt+"\n"))
	var good []benchlog.Block
	for _, b := range blocks {
		if b.Format != benchlog.FormatUnknown && b.Format != benchlog.FormatError {
			good = append(good, b)
		}
	}
	if len(good) == 0 {
		var lines []string
		for _, l := range f.content {
			l = strings.TrimSpace(l)
			l = strings.TrimSpace(strings.TrimPrefix(l, "#"))
			if l != "" {
				lines = append(lines, l)
			}
		}
		if len(lines) == 0 {
			return p.fail(f.open, "this benchmark result is empty: expected result blocks or the error the run printed")
		}
		if strings.Contains(txt, "Serving Benchmark Result") {
			return p.fail(f.open, "a result block here could not be read (see perflab parse); fix the paste so the block is complete")
		}
		r.Error = strings.Join(lines, "\n")
		return nil
	}
	prevEnd := 0
	type placed struct {
		label, text string
		line        int
		labelLine   int
	}
	var all []placed
	for _, b := range good {
		label, labelLine := "", 0
		for i := b.Line - 1; i > prevEnd; i-- {
			l := strings.TrimSpace(f.content[i-1])
			if strings.HasPrefix(l, "#") {
				label, labelLine = strings.TrimSpace(strings.TrimLeft(l, "#")), f.first+i-1
				break
			}
			if l != "" {
				if caption(l) {
					label, labelLine = l, f.first+i-1 // "1k random input + 2k generation"
				}
				break
			}
		}
		end := b.EndLine
		if end <= 0 || end > len(f.content) {
			end = len(f.content)
		}
		for end > b.Line && strings.TrimSpace(f.content[end-1]) == "" {
			end--
		}
		prevEnd = end
		all = append(all, placed{label: label, text: strings.Join(f.content[b.Line-1:end], "\n"), line: f.first + b.Line - 1, labelLine: labelLine})
	}
	// Labels that are flags name configurations; the others name workloads.
	configs := false
	for _, a := range all {
		if strings.HasPrefix(a.label, "-") {
			configs = true
		}
	}
	labels := make([]string, len(all))
	for i, a := range all {
		labels[i] = a.label
	}
	if flag := p.valueLabels(labels, r.Command); !configs && !c.inOther && flag != "" {
		// "# triton" under a command with --attention-backend triton: each
		// label is a value of that flag, not a workload.
		for i := range all {
			all[i].label = flag + " " + all[i].label
		}
		configs = true
	}
	if configs {
		own := -1
		for i, a := range all {
			if own < 0 && labelInCommand(a.label, r.Command) {
				own = i
			}
		}
		if own < 0 {
			own = 0
		}
		for i, a := range all {
			w := p.contextWorkload(c)
			if i == own {
				if r.step != nil && len(all) > 1 {
					r.Name = a.label
				}
				r.Logs = append(r.Logs, Log{Workload: w.ID, Text: a.text, Line: a.line})
				continue
			}
			// Its command is the printed one with the label's setting: its
			// source is the printed command's line.
			d := &Run{Name: a.label, Engine: r.Engine, Command: deriveCommand(r.Command, a.label), Derived: true,
				Line: r.Line, source: p.file, step: r.step}
			d.Logs = []Log{{Workload: w.ID, Text: a.text, Line: a.line}}
			c.derived = append(c.derived, d)
		}
		return nil
	}
	for _, a := range all {
		var w *Workload
		if a.label != "" {
			w = p.labelWorkload(a.label, true)
		}
		if w == nil {
			w = p.contextWorkload(c)
		}
		dup := false
		for _, lg := range r.Logs {
			if lg.Workload == w.ID {
				dup = true
			}
		}
		if dup {
			p.s.note(a.line, "a second block for workload %s in the same run; only the first is imported", w.ID)
			continue
		}
		r.Logs = append(r.Logs, Log{Workload: w.ID, Text: a.text, Line: a.line})
	}
	return nil
}

// caption reports whether a plain line just above a result block names it
// ("1k random input + 2k generation"): short prose, not a command, an
// option or a rule.
func caption(l string) bool {
	return len(l) <= 80 && !strings.Contains(l, "--") && !strings.Contains(l, "==") && !strings.HasPrefix(l, "$") &&
		!strings.Contains(l, ":") && strings.ContainsAny(strings.ToLower(l), "abcdefghijklmnopqrstuvwxyz")
}

// contextWorkload is the workload of a block that carries no workload label.
func (p *parser) contextWorkload(c *runCtx) *Workload {
	switch {
	case c.workload != nil && c.inOther:
		return c.workload
	case c.profile != nil:
		return c.profile
	}
	if c.step != nil {
		p.unlabelled = true
	}
	return p.defaultWorkload()
}

// valueLabels is the flag whose values the labels of a run's blocks are
// ("triton" and "flashinfer" under --attention-backend triton), or "" when
// a label is missing, names a workload, or no flag of the command has one
// of them as its value.
func (p *parser) valueLabels(labels []string, command string) string {
	flag := ""
	for _, l := range labels {
		if l == "" || p.labelWorkload(l, false) != nil {
			return ""
		}
		for _, f := range engine.Parse(command).Flags {
			if f.Value != "" && strings.EqualFold(f.Value, l) {
				flag = f.Printed
			}
		}
	}
	return flag
}

// labelFlags splits a label such as "--max_num_tokens=16384" or
// "--speculative-num-steps 4 --speculative-eagle-topk 8" into its flags and
// values ("" for a switch).
func labelFlags(label string) [][2]string {
	var out [][2]string
	f := strings.Fields(label)
	for i := 0; i < len(f); i++ {
		if !strings.HasPrefix(f[i], "-") {
			continue
		}
		name, val, ok := strings.Cut(f[i], "=")
		if !ok && i+1 < len(f) && !strings.HasPrefix(f[i+1], "-") {
			val = f[i+1]
			i++
		}
		out = append(out, [2]string{name, val})
	}
	return out
}

// labelInCommand reports whether a label such as "--max_num_tokens=16384"
// or "--max-num-batched-tokens 4096" is what the command sets: every flag
// of the label with its value.
func labelInCommand(label, command string) bool {
	flags := labelFlags(label)
	if len(flags) == 0 {
		return false
	}
	for _, fv := range flags {
		if fv[1] == "" {
			if !strings.Contains(command, fv[0]) {
				return false
			}
		} else if flagValue(command, fv[0]) != fv[1] {
			return false
		}
	}
	return true
}

// deriveCommand rebuilds the command a label such as "--max_num_tokens=32768"
// names from the printed command of the same section: each flag of the
// label takes the label's value, and a flag the command lacks is added.
func deriveCommand(command, label string) string {
	for _, fv := range labelFlags(label) {
		re := regexp.MustCompile(`(^|\s)` + regexp.QuoteMeta(fv[0]) + `([ =])(\S+)`)
		switch {
		case fv[1] == "" && strings.Contains(command, fv[0]):
		case fv[1] == "":
			command += " " + fv[0]
		case re.MatchString(command):
			command = re.ReplaceAllString(command, "${1}"+fv[0]+"${2}"+fv[1])
		default:
			command += " " + fv[0] + " " + fv[1]
		}
	}
	return command
}

// ---- hardware, references and configurations ----

func (p *parser) hardwareFromRuns() {
	s := p.s
	need := 1
	for _, r := range s.Runs {
		if g := engine.Parse(r.Command).GPUs(); g > need {
			need = g
		}
	}
	if !p.gpusKnown && need > s.GPUsPerNode {
		s.GPUsPerNode = need
	}
	node := s.GPUsPerNode * s.Nodes
	for _, r := range s.Runs {
		cmd := engine.Parse(r.Command)
		r.GPUs = cmd.GPUs()
		if outside := engine.ByID(r.Engine); r.GPUs == 1 && node > 1 && (cmd.Model == "" && cmd.Engine == nil || outside != nil && outside.ConfigOutside) {
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
	m := engine.Parse(r.Command).Model
	if m == "" || r.Derived && r.Parameters != "" {
		return true
	}
	return engine.SameModel(m, p.s.Model)
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
		if named := engine.NamedAll(st.Title); len(named) == 1 {
			stepEngine = named[0].ID // "in TensorRT-LLM/vLLM" tunes both: each run counts for its own
		}
		for _, r := range runs {
			tunes[r] = r.Engine
			if i > 0 && stepEngine != "" {
				tunes[r] = stepEngine
				if r.Engine != stepEngine && engine.ByID(r.Engine) != nil {
					p.s.note(r.Line, "warning: the heading %q names %s, but the command of run %q starts %s; the step is compared as a %s step",
						st.Title, engine.ByID(stepEngine).Name, r.Name, engine.ByID(r.Engine).Name, engine.ByID(stepEngine).Name)
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
			if e := engine.ByID(r.Engine); e != nil {
				name = e.Name
			}
			s.Engines = append(s.Engines, Engine{ID: r.Engine, Name: name, Version: "not published"})
		}
	}
}
