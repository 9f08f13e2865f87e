package importer

// Reading the setup: the model, the hardware, the engines, and the
// workloads the benchmark profiles and scripts define.

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/perflab/perflab/internal/serving"
)

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
	setup := serving.BaseModel(s.Model)
	if setup == "" || strings.Contains(low, setup) {
		return
	}
	count := map[string]int{}
	best := map[string]string{} // base -> the id to use: organisation first, unquantised first
	for _, r := range s.Runs {
		m := serving.Parse(r.Command).Model
		b := serving.BaseModel(m)
		if b == "" {
			continue
		}
		count[b]++
		cur := best[b]
		if cur == "" || strings.Contains(m, "/") && !strings.Contains(cur, "/") ||
			serving.ModelKey(m) == b && serving.ModelKey(cur) != b {
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
	if e := serving.Named(name); e != nil {
		return e.ID, e.Name
	}
	return slug(name), strings.TrimSpace(name)
}

// commandEngine is the engine a serving command starts, else the one its
// command lines name; comment lines name none.
func commandEngine(command string) string {
	if e := serving.Started(command); e != nil {
		return e.ID
	}
	if e := serving.Named(strings.Join(serving.Words(command), " ")); e != nil {
		return e.ID
	}
	return ""
}

// namedEngine is the engine a heading names, or "".
func namedEngine(text string) string {
	if e := serving.Named(text); e != nil {
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
