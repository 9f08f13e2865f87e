package importer

// Reading any document by its evidence: a page that is not of the report
// family (a recipe, a vendor's guide, an article) still pastes raw result
// blocks. Each block becomes a run's log, paired with the nearest serving
// command and the nearest benchmark command printed before it; every value
// read from the prose or a command is marked in the study as a guess, and
// what the document does not say is written as the placeholder perflab add
// writes, for perflab check to report.

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/perflab/perflab/internal/benchlog"
	"github.com/perflab/perflab/internal/serving"
)

// Placeholders for what a document does not say, as perflab add writes them.
const (
	unknownGPU     = "unknown GPU"
	unknownModel   = "unknown model"
	unknownVersion = "unknown"
	unknownDataset = "unknown"
)

// printed is a command as the document prints it, at its first line.
type printed struct {
	text string
	line int
}

// pasted is one readable result block of a document.
type pasted struct {
	text  string
	line  int
	block benchlog.Block
}

// evidence is what a document holds in the order it prints it: serving
// commands, benchmark commands and result blocks.
type evidence struct {
	kind string // "serve", "bench" or "result"
	cmd  printed
	res  pasted
}

// benchStarts are the benchmark clients whose commands name the workload.
var benchStarts = regexp.MustCompile(`(?i)\bvllm\s+bench\s+serve\b|benchmark_serving(?:\.py)?\b|sglang\.bench_serving\b|\bbench_serving\.py\b|genai-perf\s+profile\b|trtllm-bench\b`)

// benchCommand is a line that runs a benchmark client, not one that
// downloads or names its script: "$ python3 -m sglang.bench_serving ...",
// "VLLM_X=1 vllm bench serve ...", "python benchmarks/benchmark_serving.py".
var benchCommand = regexp.MustCompile(`^\s*(?:\$\s*)?(?:[A-Za-z_][A-Za-z0-9_]*=\S*\s+)*(?:python3?\s+(?:-m\s+)?)?(?:\S*/)?(?:vllm\s+bench\s+serve|benchmark_serving(?:\.py)?|sglang\.bench_serving|bench_serving\.py|genai-perf\s+profile|trtllm-bench)\b`)

// setupCommand is a line that installs or fetches an engine, naming it
// without serving: "docker pull vllm/vllm-openai", "pip install sglang".
var setupCommand = regexp.MustCompile(`^\s*(?:\$\s*)?(?:sudo\s+)?(?:docker\s+(?:pull|build|images|push)|pip3?\s|uv\s+pip|git\s|wget\s|curl\s|conda\s|apt(?:-get)?\s)`)

// inlineCode is a code span of prose, where a page may print a command.
var inlineCode = regexp.MustCompile("`([^`]+)`")

// hasResults reports whether a page pastes at least one result block
// perflab parse reads.
func hasResults(items []line) bool {
	for _, it := range items {
		if it.fence != nil && len(readBlocks(it.fence)) > 0 {
			return true
		}
	}
	return len(looseBlocks(items)) > 0
}

// looseBlocks returns the result blocks a page pastes outside code fences,
// as plain lines of its text. Only a block under a banner counts ("======
// Serving Benchmark Result ======"): a table of an article is not one.
func looseBlocks(items []line) []pasted {
	if len(items) == 0 {
		return nil
	}
	prose := &fence{first: 1}
	for _, it := range items {
		for len(prose.content) < it.n-1 {
			prose.content = append(prose.content, "") // a fence's lines
		}
		if it.fence == nil {
			prose.content = append(prose.content, it.text)
		}
	}
	var out []pasted
	for _, b := range readBlocks(prose) {
		if strings.HasPrefix(strings.TrimSpace(b.text), "====") {
			out = append(out, b)
		}
	}
	return out
}

// readBlocks returns the readable result blocks of a fence, each with its
// text exactly as pasted (the fence's indentation removed).
func readBlocks(f *fence) []pasted {
	blocks, _ := benchlog.Parse("block", strings.NewReader(f.Text()+"\n"))
	var out []pasted
	for _, b := range blocks {
		if b.Format == benchlog.FormatUnknown || b.Format == benchlog.FormatError || b.Line < 1 || b.Line > len(f.content) {
			continue
		}
		end := b.EndLine
		if end <= 0 || end > len(f.content) {
			end = len(f.content)
		}
		for end > b.Line && strings.TrimSpace(f.content[end-1]) == "" {
			end--
		}
		out = append(out, pasted{text: strings.Join(f.content[b.Line-1:end], "\n"), line: f.first + b.Line - 1, block: b})
	}
	return out
}

// commandsIn returns the serving and benchmark commands of a fence's
// lines outside its result blocks, each with its continuation lines.
func commandsIn(f *fence, blocks []pasted) []evidence {
	inBlock := func(n int) bool {
		for _, b := range blocks {
			if n >= b.line && n <= b.line+strings.Count(b.text, "\n") {
				return true
			}
		}
		return false
	}
	var out []evidence
	for i := 0; i < len(f.content); i++ {
		if inBlock(f.first+i) || strings.HasPrefix(strings.TrimSpace(f.content[i]), "#") {
			continue
		}
		j := i
		for j < len(f.content)-1 && strings.HasSuffix(strings.TrimRight(f.content[j], " "), "\\") {
			j++
		}
		cmd := strings.Join(f.content[i:j+1], "\n")
		switch {
		case benchCommand.MatchString(cmd):
			out = append(out, evidence{kind: "bench", cmd: printed{cmd, f.first + i}})
		case serving.Started(cmd) != nil && !setupCommand.MatchString(cmd):
			out = append(out, evidence{kind: "serve", cmd: printed{cmd, f.first + i}})
		}
		i = j
	}
	return out
}

// documentEvidence lists a document's commands and result blocks in order.
func documentEvidence(items []line) []evidence {
	var out []evidence
	for _, it := range items {
		if it.fence == nil {
			// "We ran `vllm bench serve --dataset-name random ...`."
			for _, m := range inlineCode.FindAllStringSubmatch(it.text, -1) {
				out = append(out, commandsIn(&fence{content: []string{m[1]}, first: it.n}, nil)...)
			}
			continue
		}
		blocks := readBlocks(it.fence)
		out = append(out, commandsIn(it.fence, blocks)...)
		for _, b := range blocks {
			out = append(out, evidence{kind: "result", res: b})
		}
	}
	for _, b := range looseBlocks(items) {
		out = append(out, evidence{kind: "result", res: b})
	}
	// Commands and blocks in the order of their lines.
	sort.SliceStable(out, func(i, j int) bool { return out[i].at() < out[j].at() })
	return out
}

func (e evidence) at() int {
	if e.kind == "result" {
		return e.res.line
	}
	return e.cmd.line
}

// importEvidence imports a document that is not of the report family from
// its pasted result blocks.
func (p *parser) importEvidence() error {
	s := p.s
	s.SourceTitle = cmp.Or(firstTitle(p.items), s.Source)
	s.guess("objective", "nothing: throughput or latency, say which one the document compares")
	s.Objective = "throughput"
	for _, it := range p.items {
		// "Low-latency serving of ...": a title that names latency alone.
		if lvl, t := heading(it.text); it.fence == nil && lvl == 1 {
			if low := strings.ToLower(t); strings.Contains(low, "latency") && !strings.Contains(low, "throughput") {
				s.Objective = "latency"
				s.guess("objective", "the title at "+p.at(it.n))
			}
			break
		}
	}
	var serve, bench *printed
	var waiting []*printed // serving commands printed one after another
	afterResult := false
	byCommand := map[string]*Run{}
	for _, ev := range documentEvidence(p.items) {
		switch ev.kind {
		case "serve":
			c := ev.cmd
			if serve == nil || afterResult {
				waiting = nil
			}
			serve, afterResult = &c, false
			waiting = append(waiting, &c)
		case "bench":
			c := ev.cmd
			bench = &c
		case "result":
			afterResult = true
			serve := serve
			if named := p.servingNamed(waiting, ev.res.line); named != nil {
				serve = named
			}
			w := p.evidenceWorkload(bench, ev.res)
			key := ""
			if serve != nil {
				key = serve.text
			}
			r := byCommand[key]
			if r == nil || r.hasLog(w.ID) {
				r = p.evidenceRun(serve, ev.res)
				byCommand[key] = r
			}
			r.Logs = append(r.Logs, Log{Workload: w.ID, Text: ev.res.text, Line: ev.res.line})
		}
	}
	p.evidenceModel()
	p.evidenceHardware()
	p.evidenceStudy()
	return nil
}

// sizeWord is a parallel size as a heading names it: "TP8", "DCP 8", "ep=4".
var sizeWord = regexp.MustCompile(`(?i)\b([a-z]{1,4})[ =-]?(\d+)\b`)

// servingNamed picks, among serving commands printed one after another
// before a result block, the one the heading above the block names by its
// parallel sizes ("TP8+DCP8 Benchmark Output" for --tensor-parallel-size
// 8 --decode-context-parallel-size 8): the most sizes named, the fewest
// left unnamed. nil when fewer than two wait, or none is named.
func (p *parser) servingNamed(waiting []*printed, line int) *printed {
	if len(waiting) < 2 {
		return nil
	}
	named := map[string]bool{}
	for _, m := range sizeWord.FindAllStringSubmatch(p.headingBefore(line), -1) {
		named[strings.ToLower(m[1])+m[2]] = true
	}
	var best *printed
	bestScore, tie := 0, false
	for _, c := range waiting {
		score := 0
		for _, f := range serving.Parse(c.text).Flags {
			n, err := strconv.Atoi(f.Value)
			if err != nil || n < 1 {
				continue
			}
			if named[flagAcronym(f.Printed)+f.Value] {
				score += 2
			} else if n > 1 && strings.Contains(f.Printed, "parallel") {
				score--
			}
		}
		switch {
		case score > bestScore:
			best, bestScore, tie = c, score, false
		case score == bestScore && score > 0:
			tie = true
		}
	}
	if tie {
		return nil
	}
	return best
}

// flagAcronym is how a heading abbreviates a flag: "tp" for
// --tensor-parallel-size, "dcp" for --decode-context-parallel-size, "tp"
// for --tp.
func flagAcronym(flag string) string {
	name := strings.TrimSuffix(strings.TrimLeft(strings.ToLower(flag), "-"), "-size")
	words := strings.FieldsFunc(name, func(r rune) bool { return r == '-' || r == '_' })
	if len(words) == 1 {
		return words[0]
	}
	var b strings.Builder
	for _, w := range words {
		b.WriteByte(w[0])
	}
	return b.String()
}

func firstTitle(items []line) string {
	for _, it := range items {
		if lvl, t := heading(it.text); it.fence == nil && lvl == 1 {
			return t
		}
	}
	return ""
}

func (r *Run) hasLog(workload string) bool {
	for _, lg := range r.Logs {
		if lg.Workload == workload {
			return true
		}
	}
	return false
}

// at names a document line in a guess: "recipe.md:12".
func (p *parser) at(line int) string { return fmt.Sprintf("%s:%d", p.file, line) }

// evidenceRun starts the run of a result block: its serving command's, or,
// when the document prints none before the block, one rebuilt from the
// block's engine and marked as derived.
func (p *parser) evidenceRun(serve *printed, res pasted) *Run {
	s := p.s
	r := &Run{source: p.file, guessed: map[string]string{}}
	if serve != nil {
		c := serving.Parse(serve.text)
		r.Command, r.Line = serve.text, serve.line
		r.Engine = c.EngineID()
		r.GPUs = c.GPUs()
		r.guessed["engine"] = "the serving command at " + p.at(serve.line)
		r.guessed["gpus"] = "the parallel sizes of the serving command at " + p.at(serve.line) + " (" + c.GPURule() + ")"
		r.Name = runName(c)
		for _, o := range s.Runs {
			if o.Name == r.Name && !o.Derived {
				// "vLLM TP8 --enable-expert-parallel": what sets it apart.
				r.Name = strings.TrimSpace(r.Name + " " + strings.Join(ownFlags(c, serving.Parse(o.Command)), " "))
				break
			}
		}
	} else {
		// The client that printed the block says nothing of the server:
		// the engine is the one the page's prose names, if only one.
		var line int
		r.Engine, line = p.proseEngine()
		r.Derived, r.GPUs, r.Line = true, 1, res.line
		r.guessed["engine"] = "nothing (the page names no single engine): write the engine that served the block at " + p.at(res.line)
		if line > 0 {
			r.guessed["engine"] = "the text at " + p.at(line)
		}
		r.guessed["gpus"] = "nothing (no serving command before the block at " + p.at(res.line) + "): write the GPUs the run used"
		r.guessed["command"] = "nothing (no serving command before the block at " + p.at(res.line) + "): paste the command that served it"
		r.Name = "unknown engine"
		if e := serving.ByID(r.Engine); e != nil {
			r.Name = e.Name
		}
	}
	r.ID = s.newRunID(r.Name)
	s.Runs = append(s.Runs, r)
	return r
}

// runName names a run by its engine and parallel sizes: "vLLM TP8".
func runName(c serving.Command) string {
	name := "run"
	if c.Engine != nil {
		name = c.Engine.Name
	}
	z := c.Sizes()
	for _, part := range []struct {
		label string
		n     int
	}{{"TP", z.TP}, {"PP", z.PP}, {"DP", z.DP}} {
		if part.n > 1 {
			name += fmt.Sprintf(" %s%d", part.label, part.n)
		}
	}
	return name
}

// proseEngine is the one engine the page's prose names, with the line
// that first names it, or the placeholder and 0 when it names none or
// several.
func (p *parser) proseEngine() (string, int) {
	id, at := "", 0
	for _, it := range p.items {
		if it.fence != nil {
			continue
		}
		for _, e := range serving.NamedAll(it.text) {
			switch {
			case id == "":
				id, at = e.ID, it.n
			case id != e.ID:
				return unknownVersion, 0
			}
		}
	}
	if id == "" {
		return unknownVersion, 0
	}
	return id, at
}

// ownFlags are the flags of c that change performance and that o does not
// set the same way, as c prints them.
func ownFlags(c, o serving.Command) []string {
	var out []string
	for _, f := range c.Flags {
		if serving.Ignored(f.Name) || slices.Contains(o.Flags, f) {
			continue
		}
		if f.Value != "" {
			out = append(out, f.Printed+" "+f.Value)
		} else {
			out = append(out, f.Printed)
		}
	}
	return out
}
