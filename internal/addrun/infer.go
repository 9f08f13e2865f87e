package addrun

import (
	"bytes"
	"fmt"
	"math"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/perflab/perflab/internal/benchlog"
	"github.com/perflab/perflab/internal/serving"
	"github.com/perflab/perflab/internal/study"
)

// logInfo is what one log says about itself besides its result block.
type logInfo struct {
	path  string
	block *benchlog.Block
	// args are the benchmark's settings, from an argparse Namespace(...)
	// dump or a benchmark command line in the log: dataset_name,
	// random_input_len, num_prompts, model, backend ...
	args map[string]arg
	// benchCommand is a benchmark command line found in the log.
	benchCommand string
	labels       []label // "# random 4K input" lines before the block
	command      string  // a serving command found in the log, as printed
	commandLine  int
	name         logName // what the file's path says
}

type arg struct {
	value string
	where string // "Namespace(...) at a.log:3"
}

type label struct {
	text string
	line int
}

// readLog parses one input and collects its context lines.
func readLog(in Input) (*logInfo, error) {
	blocks, err := benchlog.Parse(in.Path, bytes.NewReader(in.Raw))
	if err != nil {
		return nil, fmt.Errorf("%v; give the log the benchmark printed (perflab parse FILE shows what perflab reads in it)", err)
	}
	var results []*benchlog.Block
	var failure, unknown *benchlog.Block
	for i := range blocks {
		switch b := &blocks[i]; b.Format {
		case benchlog.FormatError:
			failure = b
		case benchlog.FormatUnknown:
			unknown = b
		default:
			results = append(results, b)
		}
	}
	switch {
	case len(results) == 0 && failure != nil:
		return nil, fmt.Errorf("%s:%d: no benchmark result in this log, only a failed run (%s: %s): a run that failed is recorded by hand, as error: in run.yaml and without logs (see CONTRIBUTING.md)", in.Path, failure.Line, failure.Failure.Kind, failure.Failure.Message)
	case len(results) == 0 && unknown != nil:
		return nil, fmt.Errorf("%s:%d: no benchmark result in this log: the block under the \"Serving Benchmark Result\" banner has no request count and duration", in.Path, unknown.Line)
	case len(results) == 0:
		return nil, fmt.Errorf("%s:1: no benchmark result found: looked for a \"Serving Benchmark Result\" banner or a \"Successful requests:\" line", in.Path)
	case len(results) > 1:
		lines := make([]string, len(results))
		for i, b := range results {
			lines[i] = strconv.Itoa(b.Line)
		}
		return nil, fmt.Errorf("%s holds %d result blocks (lines %s): a run's log holds the result of one workload; split it into one file per workload, or into runs", in.Path, len(results), strings.Join(lines, ", "))
	}
	info := &logInfo{path: in.Path, block: results[0], args: map[string]arg{}}
	info.scan(in.Raw)
	return info, nil
}

// commandKind is the engine a serving command starts, or "".
func commandKind(command string) string { return serving.Parse(command).EngineID() }

// aliasKind is the engine an id, name or benchmark backend names, or "".
func aliasKind(name string) string {
	if e := serving.ByAlias(name); e != nil {
		return e.ID
	}
	return ""
}

// backendKind is the engine a benchmark backend names ("sglang",
// "sglang-oai-chat", "tensorrt-llm"), or "" ("openai-chat" names none).
func backendKind(v string) string {
	v = strings.ToLower(strings.TrimSpace(v))
	if k := aliasKind(v); k != "" {
		return k
	}
	for _, e := range serving.Engines {
		for _, a := range e.Aliases {
			if strings.HasPrefix(v, a+"-") {
				return e.ID
			}
		}
	}
	return ""
}

// studyEngine is the study's engine of a kind, or "".
func studyEngine(s *study.Study, kind string) string {
	for _, e := range s.Engines {
		if aliasKind(e.ID) == kind || aliasKind(e.Name) == kind {
			return e.ID
		}
	}
	return ""
}

func engineIDs(s *study.Study) string {
	ids := make([]string, len(s.Engines))
	for i, e := range s.Engines {
		ids[i] = e.ID
	}
	return strings.Join(ids, ", ")
}

// benchMarkers are substrings of benchmark client command lines.
var benchMarkers = []string{"bench serve", "benchmark_serving", "bench_serving", "genai-perf profile", "aiperf profile", "guidellm benchmark"}

// argAliases map other clients' flags to vLLM's names.
var argAliases = map[string]string{
	"synthetic_input_tokens_mean": "random_input_len",
	"output_tokens_mean":          "random_output_len",
	"concurrency":                 "max_concurrency",
	"request_count":               "num_prompts",
	"model_path":                  "model",
}

var (
	nsPair    = regexp.MustCompile(`\b([a-z_][a-z0-9_]*)=('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|[^,\s)]+)`)
	sizeWord  = regexp.MustCompile(`\b(\d+(?:\.\d+)?)\s*(k)?\b`)
	batchWord = regexp.MustCompile(`\b(?:bs|batch size|batch|concurrency)\s*=?\s*(\d+)\b`)
)

// scan reads the lines around the block: Namespace dumps, benchmark and
// serving commands, and the label lines above the block.
func (info *logInfo) scan(raw []byte) {
	lines := strings.Split(string(raw), "\n")
	for i := 0; i < len(lines); i++ {
		n := i + 1
		line := strings.TrimSuffix(lines[i], "\r")
		if j := strings.Index(line, "Namespace("); j >= 0 {
			where := fmt.Sprintf("the Namespace(...) dump at %s:%d", info.path, n)
			for _, m := range nsPair.FindAllStringSubmatch(line[j+len("Namespace("):], -1) {
				info.setArg(m[1], strings.Trim(m[2], `'"`), where)
			}
			continue
		}
		t, prompt := stripPrompt(line)
		if t == "" {
			continue
		}
		// A command continued with "\" at the end of its lines.
		full, last := t, i
		for strings.HasSuffix(strings.TrimRight(lines[last], "\r \t"), "\\") && last+1 < len(lines) {
			last++
			full += "\n" + strings.TrimSuffix(lines[last], "\r")
		}
		low := strings.ToLower(full)
		switch {
		case strings.HasPrefix(t, "#"):
			if n < info.block.Line && !strings.HasPrefix(t, "#!") && len(t) < 100 && !strings.Contains(low, "tokens:") {
				info.labels = append(info.labels, label{strings.TrimSpace(strings.TrimLeft(t, "#")), n})
			}
			continue
		case containsAny(low, benchMarkers):
			if info.benchCommand == "" {
				info.benchCommand = full
				where := fmt.Sprintf("the benchmark command at %s:%d", info.path, n)
				fields := strings.Fields(strings.ReplaceAll(full, "\\\n", " "))
				for k, f := range fields {
					if !strings.HasPrefix(f, "--") {
						continue
					}
					name, val, ok := strings.Cut(f[2:], "=")
					if !ok && k+1 < len(fields) && !strings.HasPrefix(fields[k+1], "-") {
						val = fields[k+1]
					}
					if val != "" {
						info.setArg(strings.ReplaceAll(name, "-", "_"), strings.Trim(val, `'"`), where)
					}
				}
			}
		case commandKind(full) != "" && info.command == "" && (prompt || startsCommand(t)):
			// The command as printed; a shell prompt before it is not part of it.
			info.command, info.commandLine = full, n
		}
		i = last
	}
}

// setArg records a benchmark setting; the first one seen wins.
func (info *logInfo) setArg(name, value, where string) {
	name = strings.ToLower(name)
	if a, ok := argAliases[name]; ok {
		name = a
	}
	if value == "" || value == "None" || value == "none" {
		return
	}
	if _, ok := info.args[name]; !ok {
		info.args[name] = arg{value, where}
	}
}

// stripPrompt removes a shell prompt ("$ ", "+ " of set -x, "> ") and
// reports whether there was one.
func stripPrompt(line string) (string, bool) {
	t := strings.TrimSpace(line)
	for _, p := range []string{"$ ", "+ ", "> ", "# $ "} {
		if strings.HasPrefix(t, p) {
			return strings.TrimSpace(t[len(p):]), true
		}
	}
	return t, false
}

// startsCommand: the line begins with a program, not with log text that
// happens to mention one ("INFO ... vllm serve ...").
func startsCommand(t string) bool {
	first := strings.Fields(t)[0]
	switch {
	case strings.Contains(first, "vllm"), strings.Contains(first, "trtllm"), strings.Contains(first, "python"),
		strings.Contains(first, "sglang"), strings.Contains(first, "lmdeploy"), strings.Contains(first, "llama-server"),
		strings.Contains(first, "text-generation"), first == "docker", first == "podman", first == "sudo",
		first == "CUDA_VISIBLE_DEVICES" || strings.Contains(first, "="):
		return true
	}
	return false
}

func containsAny(s string, subs []string) bool {
	for _, x := range subs {
		if strings.Contains(s, x) {
			return true
		}
	}
	return false
}

// evidence is one reason for or against a workload.
type evidence struct {
	points int
	text   string
}

// inferWorkload scores every workload of the study against what the log
// says and returns the best one, with the reasons for it. It fails when no
// workload fits or two fit equally well.
func inferWorkload(s *study.Study, info *logInfo) (string, string, error) {
	type cand struct {
		id    string
		score int
		ev    []evidence
	}
	var cands []cand
	for _, w := range s.Workloads {
		ev := workloadEvidence(s, &w, info)
		c := cand{id: w.ID, ev: ev}
		for _, e := range ev {
			c.score += e.points
		}
		cands = append(cands, c)
	}
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].score > cands[j].score })
	best := cands[0]
	if best.score < 15 {
		return "", "", newWorkloadError(s, info)
	}
	if len(cands) > 1 && cands[1].score == best.score {
		return "", "", fmt.Errorf("%s: workloads %s and %s fit this log equally well: pass --workload", info.path, best.id, cands[1].id)
	}
	var pos []evidence
	for _, e := range best.ev {
		if e.points > 0 {
			pos = append(pos, e)
		}
	}
	sort.SliceStable(pos, func(i, j int) bool { return pos[i].points > pos[j].points })
	if len(pos) > 3 {
		pos = pos[:3]
	}
	texts := make([]string, len(pos))
	for i, e := range pos {
		texts[i] = e.text
	}
	return best.id, strings.Join(texts, "; "), nil
}

// workloadEvidence lists what speaks for and against one workload.
func workloadEvidence(s *study.Study, w *study.Workload, info *logInfo) []evidence {
	var ev []evidence
	add := func(p int, format string, args ...any) { ev = append(ev, evidence{p, fmt.Sprintf(format, args...)}) }
	random := w.Dataset == "random"

	base := filepath.Base(info.path)
	stem := base
	for ext := filepath.Ext(stem); ext != "" && len(ext) <= 6; ext = filepath.Ext(stem) {
		stem = strings.TrimSuffix(stem, ext)
	}
	if info.name.named() { // <workload>.c16.run-2.log: the workload part
		stem = info.name.workload
	}
	if strings.EqualFold(stem, w.ID) {
		add(100, "the file name %s", base)
	} else {
		for _, e := range labelEvidence(w, strings.NewReplacer("_", " ", "-", " ", ".", " ").Replace(stem), 2) {
			add(e.points, "the file name %s (%s)", base, e.text)
		}
	}
	for _, l := range info.labels {
		for _, e := range labelEvidence(w, l.text, 1) {
			add(e.points, "the label %q at %s:%d (%s)", "# "+l.text, info.path, l.line, e.text)
		}
	}
	if w.Command != "" && strings.TrimSpace(info.benchCommand) == strings.TrimSpace(w.Command) {
		add(100, "the benchmark command, the workload's command")
	}

	// Benchmark settings.
	intArg := func(name string) (int, arg, bool) {
		a, ok := info.args[name]
		if !ok {
			return 0, a, false
		}
		n, err := strconv.Atoi(a.value)
		return n, a, err == nil
	}
	if a, ok := info.args["dataset_name"]; ok {
		ds := strings.ToLower(a.value)
		if ds == w.Dataset {
			add(10, "dataset %s in %s", a.value, a.where)
		} else if ds == "random" || ds == "sharegpt" {
			add(-100, "dataset %s", a.value)
		}
	} else if a, ok := info.args["dataset_path"]; ok && strings.Contains(strings.ToLower(a.value), "sharegpt") {
		if w.Dataset == "sharegpt" {
			add(10, "dataset path %s in %s", baseName(a.value), a.where)
		} else {
			add(-100, "a ShareGPT dataset path")
		}
	}
	if n, a, ok := intArg("random_input_len"); ok && random && w.InputLen > 0 {
		if n == w.InputLen {
			add(30, "random input length %d in %s", n, a.where)
		} else {
			add(-100, "random input length %d", n)
		}
	}
	if n, a, ok := intArg("random_output_len"); ok && random && w.OutputLen > 0 {
		if n == w.OutputLen {
			add(10, "random output length %d in %s", n, a.where)
		} else {
			add(-50, "random output length %d", n)
		}
	}
	if n, a, ok := intArg("num_prompts"); ok && w.NumPrompts > 0 {
		if n == w.NumPrompts {
			add(10, "%d prompts in %s", n, a.where)
		} else {
			add(-20, "%d prompts", n)
		}
	}
	if n, a, ok := intArg("seed"); ok && w.Seed != nil && n == *w.Seed {
		add(5, "seed %d in %s", n, a.where)
	}
	conc, concWhere := 0, ""
	if n, a, ok := intArg("max_concurrency"); ok {
		conc, concWhere = n, a.where
	} else if m, ok := info.block.Metrics["max_concurrency"]; ok {
		conc, concWhere = int(m.Value), fmt.Sprintf("the result block (%s:%d)", info.path, m.Line)
	}
	if conc > 0 && w.MaxConcurrency != nil {
		if conc == *w.MaxConcurrency {
			add(20, "maximum concurrency %d in %s", conc, concWhere)
		} else {
			add(-50, "maximum concurrency %d", conc)
		}
	}

	// The result block itself.
	b := info.block
	completed, okC := b.Value("completed")
	failed, _ := b.Value("failed")
	in, okIn := b.Value("total_input_tokens")
	if okIn {
		for _, r := range s.Runs {
			if blk := r.Result(w.ID); blk != nil {
				if other, ok := blk.Value("total_input_tokens"); ok && other == in {
					add(40, "Total input tokens %s, as in %s", b.Metrics["total_input_tokens"].Raw, strings.TrimPrefix(blk.File, s.Dir+"/"))
					break
				}
			}
		}
	}
	if okC && okIn && completed > 0 && random && w.InputLen > 0 {
		mean := in / completed
		rel := math.Abs(mean-float64(w.InputLen)) / float64(w.InputLen)
		text := fmt.Sprintf("Total input tokens %s over %s requests (%.0f per request; input_len %d)", b.Metrics["total_input_tokens"].Raw, b.Metrics["completed"].Raw, mean, w.InputLen)
		switch {
		case rel <= 0.03:
			add(25, "%s", text)
		case rel <= 0.10:
			add(10, "%s", text)
		case rel > 0.30:
			add(-20, "%s", text)
		}
	}
	if okC && w.NumPrompts > 0 {
		sent := completed + failed
		if p, ok := b.Value("num_prompts"); ok {
			sent = p
		}
		if int(sent) == w.NumPrompts {
			add(10, "%.0f requests, the workload's num_prompts", sent)
		}
	}
	return ev
}

// labelEvidence reads a label ("random 4K input", "ShareGPT", "BS=4") for
// one workload; weak labels (file names) count for 1/weak.
func labelEvidence(w *study.Workload, text string, weak int) []evidence {
	var ev []evidence
	t := strings.ToLower(text)
	add := func(p int, s string) { ev = append(ev, evidence{p / weak, s}) }
	switch {
	case strings.Contains(t, "sharegpt"):
		if w.Dataset == "sharegpt" {
			add(10, "ShareGPT")
		} else {
			add(-30, "ShareGPT")
		}
	case strings.Contains(t, "random"):
		if w.Dataset == "random" {
			add(10, "random dataset")
		} else {
			add(-30, "random dataset")
		}
	}
	if m := batchWord.FindStringSubmatch(t); m != nil {
		n, _ := strconv.Atoi(m[1])
		if w.MaxConcurrency != nil && *w.MaxConcurrency == n {
			add(20, "concurrency "+m[1])
		} else if w.MaxConcurrency != nil {
			add(-30, "concurrency "+m[1])
		}
		return ev
	}
	if w.Dataset != "random" || w.InputLen == 0 {
		return ev
	}
	sized := strings.Contains(t, "input") || strings.Contains(t, "random") || strings.Contains(t, "prompt") || strings.Contains(t, "len")
	for _, m := range sizeWord.FindAllStringSubmatch(t, -1) {
		if m[2] == "" && !sized {
			continue
		}
		v, _ := strconv.ParseFloat(m[1], 64)
		size := v
		if m[2] == "k" {
			size = v * 1000
		}
		near := func(x float64) bool { return math.Abs(float64(w.InputLen)-x) <= 0.05*x }
		if near(size) || (m[2] == "k" && near(v*1024)) {
			add(30, fmt.Sprintf("input %s%s", m[1], strings.ToUpper(m[2])))
		} else {
			add(-30, fmt.Sprintf("input %s%s", m[1], strings.ToUpper(m[2])))
		}
		break
	}
	return ev
}

// inferEngine sets p.Engine: --engine, else the serving command, else the
// benchmark's backend, else the tool that printed the block, else the
// study's only engine.
func inferEngine(o Options, s *study.Study, p *Plan, cmdFrom string) error {
	if o.Engine != "" {
		for _, e := range s.Engines {
			if e.ID == o.Engine {
				p.Engine = e.ID
				return nil
			}
		}
		return fmt.Errorf("--engine %q is not an engine of %s: use one of %s, or add it to the study's engines", o.Engine, s.Pos.File, engineIDs(s))
	}
	if kind := commandKind(p.Command); kind != "" {
		id := studyEngine(s, kind)
		from := cmdFrom
		if from == "" {
			from = "the serving command (--command)"
		}
		if id == "" {
			return fmt.Errorf("%s starts %s, which is not an engine of %s (%s): add it to the study's engines, or pass --engine", from, kind, s.Pos.File, engineIDs(s))
		}
		p.Engine = id
		p.Guesses = append(p.Guesses, Guess{"engine", id, from})
		return nil
	}
	// One candidate per log from a source; the logs must agree.
	pick := func(source func(lg Log) (string, string)) (string, string, error) {
		found, from := "", ""
		for _, lg := range p.Logs {
			kind, why := source(lg)
			id := studyEngine(s, kind)
			if id == "" {
				continue
			}
			if found != "" && found != id {
				return "", "", fmt.Errorf("the logs disagree on the engine: %s, but %s: pass --engine or --command", from, why)
			}
			if found == "" {
				found, from = id, why
			}
		}
		return found, from, nil
	}
	backend := func(lg Log) (string, string) {
		for _, l := range lg.Block.Labels {
			if strings.EqualFold(strings.TrimSpace(l.Label), "backend") {
				return backendKind(l.Value), fmt.Sprintf("the line \"Backend: %s\" at %s:%d", l.Value, lg.From, l.Line)
			}
		}
		if a, ok := lg.info.args["backend"]; ok {
			return backendKind(a.value), fmt.Sprintf("backend %s in %s", a.value, a.where)
		}
		return "", ""
	}
	tool := func(lg Log) (string, string) {
		kind := ""
		switch lg.Block.Tool {
		case benchlog.ToolVLLM:
			kind = "vllm"
		case benchlog.ToolSGLang:
			kind = "sglang"
		case benchlog.ToolTRTLLM:
			kind = "trtllm"
		case benchlog.ToolLlamaBench:
			kind = "llamacpp"
		}
		return kind, fmt.Sprintf("the format of the result block at %s:%d (%s's benchmark client printed it, and a client can measure another engine)", lg.From, lg.Block.Line, lg.Block.Tool)
	}
	for _, source := range []func(Log) (string, string){backend, tool} {
		id, from, err := pick(source)
		if err != nil {
			return err
		}
		if id != "" {
			p.Engine = id
			p.Guesses = append(p.Guesses, Guess{"engine", id, from})
			return nil
		}
	}
	if len(s.Engines) == 1 {
		p.Engine = s.Engines[0].ID
		p.Guesses = append(p.Guesses, Guess{"engine", p.Engine, "the study, which has one engine"})
		return nil
	}
	return fmt.Errorf("cannot tell which engine served these logs (no serving command, backend line or engine-specific format): pass --engine with one of %s, or --command", engineIDs(s))
}

// inferModel sets p.Model: the model the command serves, else the model
// the benchmark was pointed at, else the study's.
func inferModel(s *study.Study, p *Plan) {
	if m := serving.Parse(p.Command).Model; m != "" {
		p.Model, p.ModelOf = m, "the model the serving command serves"
		return
	}
	for _, lg := range p.Logs {
		if a, ok := lg.info.args["model"]; ok {
			p.Model, p.ModelOf = a.value, fmt.Sprintf("the model %s named in %s", a.value, a.where)
			return
		}
	}
	p.Model, p.ModelOf = s.Model, "the study's model"
}

// deriveCommand is the shortest command that starts the engine on the model.
func deriveCommand(s *study.Study, id, model string) string {
	for _, e := range s.Engines {
		if e.ID != id {
			continue
		}
		for _, name := range []string{e.ID, e.Name} {
			if known := serving.ByAlias(name); known != nil {
				return fmt.Sprintf(known.Derive, model)
			}
		}
	}
	return id + " serve " + model
}

func commandGPUs(command string) int { return serving.Parse(command).GPUs() }
