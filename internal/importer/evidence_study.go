package importer

// The study of a document read by its evidence: workloads from benchmark
// commands, the model and hardware from the commands and the prose, and
// the guesses written as comments into study.yaml and run.yaml.

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/perflab/perflab/internal/serving"
	"gopkg.in/yaml.v3"
)

// guess marks a field of study.yaml (a dotted path; a workload or engine
// by its id: "workloads.random-8k.dataset") as guessed from a source.
func (s *Study) guess(path, from string) {
	if s.guessed == nil {
		s.guessed = map[string]string{}
	}
	s.guessed[path] = from
}

// evidenceWorkload is the workload a benchmark command names: its dataset,
// lengths, prompts and concurrency as printed, never a default. Without a
// command, the dataset is the placeholder check reports.
func (p *parser) evidenceWorkload(bench *printed, res pasted) *Workload {
	w := &Workload{Dataset: unknownDataset}
	from := "nothing (no benchmark command before the block at " + p.at(res.line) + "): write sharegpt or random, with its lengths"
	if bench != nil {
		w.Command, w.line = bench.text, bench.line
		from = "the benchmark command at " + p.at(bench.line)
		w.Dataset = benchDataset(bench.text)
		if w.Dataset == "" {
			w.Dataset = unknownDataset
			from = "nothing (the benchmark command at " + p.at(bench.line) + " names no dataset): write sharegpt or random, with its lengths"
		}
		w.InputLen = firstInt(bench.text, "--random-input-len", "--random-input", "--input-len")
		w.OutputLen = firstInt(bench.text, "--random-output-len", "--random-output", "--output-len")
		w.NumPrompts = firstInt(bench.text, "--num-prompts", "--num-prompt")
		if n, err := strconv.Atoi(flagValue(bench.text, "--seed")); err == nil {
			w.Seed = &n
		}
		if n := firstInt(bench.text, "--max-concurrency"); n > 0 {
			w.MaxConcurrency = &n
		}
	}
	lengthsFrom := from
	if w.Dataset == "random" && (w.InputLen == 0 || w.OutputLen == 0) {
		// The command leaves the lengths to the client's defaults: the
		// block's token totals per request say what they were.
		n, _ := res.block.Value("completed")
		in, okIn := res.block.Value("total_input_tokens")
		out, okOut := res.block.Value("total_output_tokens")
		if n > 0 && okIn && okOut && w.InputLen == 0 && w.OutputLen == 0 {
			w.InputLen, w.OutputLen = int(math.Round(in/n)), int(math.Round(out/n))
			lengthsFrom = "the token totals of the result block at " + p.at(res.line)
		}
	}
	concurrencyFrom := from
	if w.MaxConcurrency == nil {
		// A sweep ("--max-concurrency $c") prints its load in the block.
		if v, ok := res.block.Value("max_concurrency"); ok && v >= 1 && v == float64(int(v)) {
			n := int(v)
			w.MaxConcurrency = &n
			concurrencyFrom = "the result block at " + p.at(res.line)
		}
	}
	// The request rate: the command's, else the one the block reports (a
	// sweep's); "inf" (all at once) is none.
	if bench != nil {
		w.rate, _ = strconv.ParseFloat(flagValue(bench.text, "--request-rate"), 64)
	}
	if v, ok := res.block.Value("request_rate"); ok && w.rate == 0 {
		w.rate = v
	}
	if math.IsInf(w.rate, 0) || math.IsNaN(w.rate) || w.rate < 0 {
		w.rate = 0
	}
	id := workloadID(w)
	for _, o := range p.s.Workloads {
		if o.Dataset == w.Dataset && o.InputLen == w.InputLen && o.OutputLen == w.OutputLen && o.NumPrompts == w.NumPrompts &&
			samePtr(o.Seed, w.Seed) && samePtr(o.MaxConcurrency, w.MaxConcurrency) && sameWorkload(o.Command, w.Command) && o.rate == w.rate {
			if w.Command != o.Command && !slices.Contains(o.alsoCommands, w.Command) {
				o.alsoCommands = append(o.alsoCommands, w.Command) // shown in benchmark.commands
			}
			return o
		}
	}
	base := id
	for i := 2; p.s.workload(id) != nil; i++ {
		id = fmt.Sprintf("%s-%d", base, i)
	}
	w.ID = id
	p.s.Workloads = append(p.s.Workloads, w)
	p.s.guess("workloads."+id+".dataset", from)
	p.s.guess("workloads."+id+".num_prompts", from)
	p.s.guess("workloads."+id+".seed", from)
	p.s.guess("workloads."+id+".max_concurrency", concurrencyFrom)
	if w.Dataset == "random" {
		p.s.guess("workloads."+id+".input_len", lengthsFrom)
		p.s.guess("workloads."+id+".output_len", lengthsFrom)
		if w.InputLen == 0 || w.OutputLen == 0 {
			p.s.note(w.line, "the benchmark command sets no random input or output length: write them in study.yaml (workload %s)", id)
		}
	}
	return w
}

// sameWorkload reports whether two benchmark commands send the same
// requests: they may differ in where they send them and where they save
// the results (a second server on another port), never in what the
// requests are. Runs measured with the two are then compared on one
// workload, and so held to like-for-like output lengths.
func sameWorkload(a, b string) bool {
	return slices.Equal(requestWords(a), requestWords(b))
}

// connectionFlags say where a benchmark sends its requests and keeps its
// results, not what it sends.
var connectionFlags = map[string]bool{"--host": true, "--port": true, "--base-url": true,
	"--save-result": false, "--result-dir": true, "--result-filename": true}

// requestWords are the words of a benchmark command but its connection
// flags (with their values).
func requestWords(cmd string) []string {
	var out []string
	words := serving.Words(cmd)
	for i := 0; i < len(words); i++ {
		name, _, inline := strings.Cut(words[i], "=")
		takesValue, ok := connectionFlags[name]
		if !ok {
			out = append(out, words[i])
			continue
		}
		if takesValue && !inline && i+1 < len(words) && !strings.HasPrefix(words[i+1], "-") {
			i++ // its value
		}
	}
	return out
}

// benchDataset is the dataset a benchmark command names, as study.yaml
// spells it, or "" when it names none.
func benchDataset(cmd string) string {
	switch d := flagValue(cmd, "--dataset-name"); {
	case d == "random-ids":
		return "random"
	case d != "":
		return strings.Trim(d, `"'`)
	case strings.Contains(strings.ToLower(flagValue(cmd, "--dataset-path")+flagValue(cmd, "--dataset")), "sharegpt"):
		return "sharegpt"
	}
	return ""
}

func firstInt(cmd string, flags ...string) int {
	for _, f := range flags {
		if n, err := strconv.Atoi(flagValue(cmd, f)); err == nil && n > 0 {
			return n
		}
	}
	return 0
}

func samePtr(a, b *int) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }

// workloadID names a workload by what it measures: "random-8k-1k-c16".
func workloadID(w *Workload) string {
	id := slug(w.Dataset)
	if id == "" {
		id = "workload"
	}
	if w.Dataset == "random" && w.InputLen > 0 {
		id += "-" + sizeID(w.InputLen) + "-" + sizeID(w.OutputLen)
	}
	if w.MaxConcurrency != nil {
		id += fmt.Sprintf("-c%d", *w.MaxConcurrency)
	}
	if w.rate > 0 {
		id += "-r" + strconv.FormatFloat(w.rate, 'f', -1, 64)
	}
	return id
}

// evidenceModel is the model of the first serving command, else of the
// first benchmark command's --model, else the placeholder.
func (p *parser) evidenceModel() {
	s := p.s
	for _, r := range s.Runs {
		if m := serving.Parse(r.Command).Model; !r.Derived && m != "" {
			s.Model = m
			s.guess("model", "the serving command at "+p.at(r.Line))
			if hub, line := p.hubName(m); hub != "" {
				s.Model = hub
				s.guess("model", "the benchmark command at "+p.at(line)+", naming the model the serving command at "+p.at(r.Line)+" loads from a path")
			}
			return
		}
	}
	for _, w := range s.Workloads {
		if m := flagValue(w.Command, "--model"); m != "" {
			s.Model = strings.Trim(m, `"'`)
			s.guess("model", "the benchmark command at "+p.at(w.line))
			return
		}
	}
	s.Model = unknownModel
	s.guess("model", "nothing (the document prints no serving command): write the model it served")
}

// hubName is the org/name a benchmark command gives (--model, --tokenizer)
// to a model the serving command loads from a path ("/models/Qwen3-32B"),
// with the command's line; "" when the model is no path or none names it.
func (p *parser) hubName(model string) (string, int) {
	if !strings.HasPrefix(model, "/") && !strings.HasPrefix(model, ".") && !strings.HasPrefix(model, "~") {
		return "", 0
	}
	for _, w := range p.s.Workloads {
		for _, flag := range []string{"--model", "--tokenizer"} {
			v := strings.Trim(flagValue(w.Command, flag), `"'`)
			if strings.Count(v, "/") == 1 && !strings.HasPrefix(v, "/") && serving.ModelKey(v) == serving.ModelKey(model) {
				return v, w.line
			}
		}
	}
	return "", 0
}

// gpuPatterns find the GPUs in prose: "8x H100", "4 × A100 80GB",
// "8 NVIDIA H200 GPUs", "8 x Ascend 910B3", "a single H100", "on H200
// GPUs"; the first group is the count (empty: one, or the runs' most).
var gpuPatterns = func() []*regexp.Regexp {
	model := `(?:(?:NVIDIA|AMD|Ascend|Intel)\s+[A-Z]{0,3}\d{2,4}|[A-Z]{1,3}\d{2,4})[A-Za-z0-9]*(?:[ -](?:SXM\d?|PCIe|NVL\d*|\d+\s?GB))*`
	return []*regexp.Regexp{
		regexp.MustCompile(`\b(\d{1,3})\s*[xX×*]\s*(` + model + `)`),
		regexp.MustCompile(`\b(\d{1,3})\s+(` + model + `)\s+(?:GPU|NPU|card)s?\b`),
		regexp.MustCompile(`(?i:\b(?:a|one)\s+(?:single\s+)?)()(` + model + `)`),
		regexp.MustCompile(`(?i:\b(?:on|with|using)\s+)()(` + model + `)\s+(?:GPU|NPU)s?\b`),
	}
}()

// evidenceHardware reads the GPU model and count from the document's prose;
// what it does not say stays the placeholder.
func (p *parser) evidenceHardware() {
	s := p.s
	s.Nodes = 1
	s.guess("hardware.nodes", "nothing (one node unless the document says more)")
	most := 1
	for _, r := range s.Runs {
		most = max(most, r.GPUs)
	}
	for _, re := range gpuPatterns {
		for _, it := range p.items {
			m := re.FindStringSubmatch(it.text)
			if it.fence != nil || m == nil {
				continue
			}
			s.GPU = strings.TrimSpace(m[2])
			s.guess("hardware.gpu", "the text at "+p.at(it.n))
			n, _ := strconv.Atoi(m[1])
			s.GPUsPerNode = max(n, most)
			if n >= most {
				s.guess("hardware.gpus_per_node", "the text at "+p.at(it.n))
			} else {
				s.guess("hardware.gpus_per_node", "the runs' serving commands")
			}
			return
		}
	}
	s.GPU, s.GPUsPerNode = unknownGPU, most
	s.guess("hardware.gpu", "nothing (the document names no GPU): write its model as its maker names it")
	s.guess("hardware.gpus_per_node", "the runs' serving commands")
}

// evidenceStudy completes the study: engines, the benchmark tool and
// commands, rebuilt commands of runs with none printed, the main workload,
// the baseline and one step comparing the other runs with it.
func (p *parser) evidenceStudy() {
	s := p.s
	seen := map[string]bool{}
	for _, r := range s.Runs {
		if r.Derived {
			if e := serving.ByID(r.Engine); e != nil {
				r.Command = fmt.Sprintf(e.Derive, s.Model)
			}
		}
		if !seen[r.Engine] {
			seen[r.Engine] = true
			name := r.Engine
			if e := serving.ByID(r.Engine); e != nil {
				name = e.Name
			}
			version, line := p.engineVersion(r.Engine)
			s.Engines = append(s.Engines, Engine{ID: r.Engine, Name: name, Version: version})
			if line > 0 {
				s.guess("engines."+r.Engine+".version", "the text at "+p.at(line))
			} else {
				s.guess("engines."+r.Engine+".version", "nothing (the document does not print it): write the version it ran")
			}
		}
	}
	var cmds []string
	used := map[string]int{}
	for _, w := range s.Workloads {
		for _, c := range append([]string{w.Command}, w.alsoCommands...) {
			if c != "" && !slices.Contains(cmds, c) {
				cmds = append(cmds, c)
			}
		}
	}
	for _, r := range s.Runs {
		for _, lg := range r.Logs {
			used[lg.Workload]++
		}
	}
	s.Commands = strings.Join(cmds, "\n")
	s.Tool = "unknown"
	if len(s.Runs) > 0 && len(s.Runs[0].Logs) > 0 {
		first := s.Runs[0].Logs[0]
		if w := s.workload(first.Workload); w != nil && w.Command != "" {
			s.Tool = benchStarts.FindString(w.Command) // "vllm bench serve", "benchmark_serving.py"
			if strings.HasPrefix(s.Tool, "sglang.") {
				s.Tool = "python3 -m " + s.Tool
			}
			s.guess("benchmark.tool", "the benchmark command at "+p.at(w.line))
		} else {
			s.Tool = parseBlock(first.Text).ClientCommand()
			s.guess("benchmark.tool", "the format of the result block at "+p.at(first.Line))
		}
	}
	ws := append([]*Workload(nil), s.Workloads...)
	sort.SliceStable(ws, func(i, j int) bool { return used[ws[i].ID] > used[ws[j].ID] })
	if len(ws) > 0 {
		ws[0].Main = true
		s.guess("workloads."+ws[0].ID+".main", "the workload most runs measured")
	}
	if len(s.Runs) == 0 {
		return
	}
	base := s.Runs[0].ID
	s.Baseline, s.Recommended = []string{base}, []string{base}
	s.guess("baseline", "nothing (the first run of the document): name the run the document compares with")
	s.guess("recommended", "nothing (the first run of the document): name the configuration the document recommends")
	if len(s.Runs) > 1 {
		st := &Step{ID: "runs", Reference: base}
		for _, r := range s.Runs[1:] {
			st.Runs = append(st.Runs, r.ID)
		}
		s.Steps = append(s.Steps, st)
	}
}

// marked is a study.yaml or run.yaml mapping with its guesses marked and,
// when there are any, a head comment saying how to read them, as perflab
// add writes.
func marked(n *yaml.Node, guessed map[string]string, source string) *yaml.Node {
	if len(guessed) == 0 {
		return n
	}
	markGuesses(n, guessed, "")
	return &yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{n}, HeadComment: strings.Join([]string{
		"Written by perflab import from " + source + ". Check every value marked \"guessed\":",
		"fix it if it is wrong, then delete the comment. perflab check reports what still disagrees.",
	}, "\n")}
}

// markGuesses writes "# guessed from ...: check" after each guessed value
// of a mapping; items of a list are named by their id.
func markGuesses(n *yaml.Node, guessed map[string]string, prefix string) {
	if len(guessed) == 0 {
		return
	}
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			path := prefix + n.Content[i].Value
			if from, ok := guessed[path]; ok {
				n.Content[i+1].LineComment = "guessed from " + from + ": check"
			}
			markGuesses(n.Content[i+1], guessed, path+".")
		}
	case yaml.SequenceNode:
		for _, item := range n.Content {
			if item.Kind != yaml.MappingNode {
				continue
			}
			for i := 0; i+1 < len(item.Content); i += 2 {
				if item.Content[i].Value == "id" {
					markGuesses(item, guessed, prefix+item.Content[i+1].Value+".")
				}
			}
		}
	}
}

// versionAfter finds a version printed after an engine's name in prose:
// "SGLang v0.5.2", "vllm==0.10.1", "vLLM version 0.11.0".
var versionAfter = regexp.MustCompile(`^\s*(?:==|version\s+|:\s*)?(v?\d+\.\d+(?:\.\d+)?(?:\.post\d+|rc\d+)?)\b`)

// engineVersion is the version the document's prose prints after one of
// the engine's names, with its line, or the placeholder and 0.
func (p *parser) engineVersion(id string) (string, int) {
	e := serving.ByID(id)
	if e == nil {
		return unknownVersion, 0
	}
	for _, it := range p.items {
		if it.fence != nil {
			continue
		}
		low := strings.ToLower(it.text)
		for _, a := range e.Aliases {
			for i := strings.Index(low, a); i >= 0; {
				if m := versionAfter.FindStringSubmatch(it.text[i+len(a):]); m != nil {
					return m[1], it.n
				}
				next := strings.Index(low[i+1:], a)
				if next < 0 {
					break
				}
				i += 1 + next
			}
		}
	}
	return unknownVersion, 0
}
