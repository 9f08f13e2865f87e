package study

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/perflab/perflab/internal/benchlog"
	"github.com/perflab/perflab/internal/par"
	"github.com/perflab/perflab/internal/safefs"
)

// Problem is something wrong with the input, at a position.
type Problem struct {
	Pos Pos
	Msg string
}

func (p Problem) Error() string { return fmt.Sprintf("%s:%d: %s", p.Pos.File, p.Pos.Line, p.Msg) }

// StudyFile and RunFile are the metadata file names of a study and a run.
const (
	StudyFile = "study.yaml"
	RunFile   = "run.yaml"
	LogSuffix = ".log"
	// JSONSuffix names a result saved as JSON (vLLM, SGLang or TensorRT-LLM
	// --save-result) instead of a console log; its per-request arrays give
	// the latency distributions.
	JSONSuffix = ".json"
	runsDir    = "runs"
)

var idPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]*$`)

// LoadAll loads every study folder of fsys, a results/ tree whose paths are
// shown prefixed with root. Problems in the data are returned, all of them;
// only a failure to read the tree is an error.
func LoadAll(fsys fs.FS, root string) ([]*Study, []Problem, error) {
	names, refused, err := List(fsys, root)
	if err != nil {
		return nil, nil, err
	}
	// Studies are independent: load them on every core, keep their order.
	type loaded struct {
		s     *Study
		probs []Problem
		err   error
	}
	out := make([]loaded, len(names))
	par.Each(len(names), func(i int) {
		sub, err := fs.Sub(fsys, names[i])
		if err != nil {
			out[i].err = err
			return
		}
		out[i].s, out[i].probs, out[i].err = Load(sub, path.Join(root, names[i]), names[i])
	})
	var studies []*Study
	problems := refused
	for _, l := range out {
		if l.err != nil {
			return nil, nil, l.err
		}
		problems = append(problems, l.probs...)
		if l.s != nil {
			studies = append(studies, l.s)
		}
	}
	probs, err := UseSharedPrices(fsys, root, studies)
	return studies, append(problems, probs...), err
}

// List names the study folders of a results folder, in name order, and
// refuses every entry that is a link, a pipe or a device.
func List(fsys fs.FS, root string) ([]string, []Problem, error) {
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, nil, err
	}
	var names []string
	var refused []Problem
	for _, e := range entries {
		if err := safefs.Check(path.Join(root, e.Name()), e.Type()); err != nil {
			refused = append(refused, refusal(err))
			continue
		}
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
			names = append(names, e.Name())
		}
	}
	return names, refused, nil
}

// Load reads one study folder.
func Load(fsys fs.FS, dir, id string) (*Study, []Problem, error) {
	return load(&loader{fsys: fsys, dir: dir}, id)
}

// LoadMeta is Load without the logs: the study's description, and its
// runs' history with their engine (run.yaml is read for no other run),
// which a build needs of every study (to compare engine versions) before
// it reads any log.
// Its problems are Load's only when it returns no study: without the
// logs, some are wrong (a history folder without a log).
func LoadMeta(fsys fs.FS, dir, id string) (*Study, []Problem, error) {
	return load(&loader{fsys: fsys, dir: dir, noLogs: true}, id)
}

func load(l *loader, id string) (*Study, []Problem, error) {
	fsys, dir := l.fsys, l.dir
	s := &Study{ID: id, Dir: dir, Pos: Pos{File: path.Join(dir, StudyFile), Line: 1}}
	if !idPattern.MatchString(id) {
		l.problem(s.Pos, "study folder name %q is not a valid id: use lower-case letters, digits, '.', '_' and '-'", id)
	} else if msg := idProblem("study", id); msg != "" {
		l.problem(s.Pos, "%s", msg)
	}
	data, err := fs.ReadFile(fsys, StudyFile)
	if errors.Is(err, fs.ErrNotExist) {
		l.problem(Pos{File: dir, Line: 0}, "a study folder needs a %s file (see docs/results-format.md)", StudyFile)
		return nil, l.problems, nil
	}
	if r, _ := safefs.Refused(err); r != nil {
		l.problems = append(l.problems, refusal(err))
		return nil, l.problems, nil
	}
	if err != nil {
		return nil, nil, err
	}
	root := l.parseYAML(s.Pos.File, data)
	if root != nil {
		l.study(s, root)
	}
	// Without a readable study.yaml, workload and engine ids are unknown:
	// checking logs and runs against them would only repeat that problem.
	l.studyRead = root != nil
	if err := l.runs(s); err != nil {
		return nil, nil, err
	}
	if l.studyRead {
		l.crossRefs(s)
		l.historyRefs(s)
		l.reproducesRefs(s)
	}
	return s, l.problems, nil
}

type loader struct {
	fsys      fs.FS
	dir       string
	problems  []Problem
	studyRead bool            // study.yaml was valid YAML
	folders   map[string]bool // run folders, loaded or not
	noLogs    bool            // LoadMeta: logs are passed over
}

// refusal is the problem of a path package safefs would not read: a
// symbolic link, a named pipe, a device or a socket.
func refusal(err error) Problem {
	r, file := safefs.Refused(err)
	return Problem{Pos{file, 0}, r.Error()}
}

func (l *loader) problem(p Pos, format string, args ...any) {
	l.problems = append(l.problems, Problem{Pos: p, Msg: fmt.Sprintf(format, args...)})
}

var yamlLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// yamlError returns the 1-based line and the message of a YAML syntax error.
// yaml.v3 prints the line a construct started on, sometimes counted from
// zero, not the line of the error; the error is on the first line at which a
// prefix of the document fails with the same message. Once a prefix fails
// that way, longer ones do too, so a binary search finds that line in
// O(log n) parses: a linear search made a hostile 20,000-line file take
// hours.
func yamlError(data []byte, err error) (int, string) {
	line, msg := 1, yamlMessage(err)
	if m := yamlLine.FindStringSubmatch(err.Error()); m != nil {
		fmt.Sscan(m[1], &line)
	}
	ends := lineEnds(data)
	fails := func(n int) bool { // the first n lines fail with msg
		var doc yaml.Node
		perr := yaml.Unmarshal(data[:ends[n-1]], &doc)
		return perr != nil && yamlMessage(perr) == msg
	}
	if len(ends) == 0 || !fails(len(ends)) {
		return line, msg
	}
	lo, hi := 1, len(ends) // fails(hi) holds; find the smallest such line
	for lo < hi {
		mid := lo + (hi-lo)/2
		if fails(mid) {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo, msg
}

// yamlMessage is a yaml.v3 error without its "yaml: line N: " prefix.
func yamlMessage(err error) string {
	if m := yamlLine.FindStringSubmatch(err.Error()); m != nil {
		return m[2]
	}
	return strings.TrimPrefix(err.Error(), "yaml: ")
}

// lineEnds returns the offset just past each line of data.
func lineEnds(data []byte) []int {
	var ends []int
	for i, b := range data {
		if b == '\n' {
			ends = append(ends, i+1)
		}
	}
	if len(data) > 0 && data[len(data)-1] != '\n' {
		ends = append(ends, len(data))
	}
	return ends
}

// Limits on what a study may hold. A pull request is hostile until checked:
// a 20 MB model name, repeated on every page, made a 4 GB site.
const (
	// MaxFileSize bounds study.yaml, run.yaml and a content file.
	MaxFileSize = 1 << 20
	// MaxLogSize bounds a log, which is kept whole to show its blocks: a
	// build holds at most this much of each.
	MaxLogSize = 64 << 20
	// maxName bounds an id, a name, a model, an engine and other labels.
	maxName = 256
	// maxText bounds any other value: a command, an error, a reason.
	maxText = 16 << 10
)

// nameFields hold a label and at most maxName bytes; other string fields
// (commands, errors, reasons) up to maxText.
var nameFields = map[string]bool{"id": true, "name": true, "model": true, "gpu": true, "engine": true, "version": true,
	"dataset": true, "kind": true, "objective": true, "tool": true, "workload": true, "run": true, "step": true,
	"subject": true, "rule": true}

// tooLarge is the problem of a file over MaxFileSize.
func tooLarge(file string, size int) Problem {
	return Problem{Pos{file, 1}, fmt.Sprintf("the file is %d bytes; the limit is %d (1 MiB): split it or keep raw output in the logs", size, MaxFileSize)}
}

// capScalars reports and cuts every scalar longer than maxText, wherever it
// is in the document, so that no later step copies it.
func (l *loader) capScalars(file string, n *yaml.Node) {
	if n.Kind == yaml.ScalarNode && len(n.Value) > maxText {
		l.problem(Pos{file, n.Line}, "a value of %d bytes; the limit is %d: shorten it", len(n.Value), maxText)
		n.Value = truncate(n.Value, maxText)
	}
	for _, c := range n.Content {
		l.capScalars(file, c)
	}
}

// truncate cuts s to at most n bytes, at a character boundary.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

func (l *loader) parseYAML(file string, data []byte) *yaml.Node {
	if len(data) > MaxFileSize {
		l.problems = append(l.problems, tooLarge(file, len(data)))
		return nil
	}
	n := l.parseYAMLTree(file, data)
	if n != nil {
		l.capScalars(file, n)
	}
	return n
}

// parseYAMLTree parses with yaml.v3. A hand-written parser of the simple
// YAML of study.yaml and run.yaml used to stand in front of it: it saved
// some 8 % of the CPU of a 1,000-study build, under the 20 % that would
// justify keeping a copy of the library.
func (l *loader) parseYAMLTree(file string, data []byte) *yaml.Node {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		line, msg := yamlError(data, err)
		l.problem(Pos{file, line}, "invalid YAML: %s", msg)
		return nil
	}
	if len(doc.Content) == 0 {
		l.problem(Pos{file, 1}, "the file is empty")
		return nil
	}
	n := doc.Content[0]
	if n.Kind != yaml.MappingNode {
		l.problem(Pos{file, n.Line}, "expected a mapping of fields at the top level")
		return nil
	}
	return n
}

// mapping walks the fields of a YAML mapping, reporting unknown, duplicate
// and missing ones.
type mapping struct {
	l      *loader
	file   string
	node   *yaml.Node
	fields map[string]*yaml.Node
}

func (l *loader) mapping(file string, n *yaml.Node, what string, known ...string) *mapping {
	m := &mapping{l: l, file: file, node: n, fields: map[string]*yaml.Node{}}
	if n.Kind != yaml.MappingNode {
		l.problem(Pos{file, n.Line}, "%s: expected a mapping of fields", what)
		return m
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if !contains(known, k.Value) {
			l.problem(Pos{file, k.Line}, "%s: unknown field %q; known fields are %s", what, k.Value, strings.Join(known, ", "))
			continue
		}
		if _, dup := m.fields[k.Value]; dup {
			l.problem(Pos{file, k.Line}, "%s: field %q is given twice", what, k.Value)
			continue
		}
		m.fields[k.Value] = v
	}
	return m
}

func (m *mapping) pos(key string) Pos {
	if v, ok := m.fields[key]; ok {
		return Pos{m.file, v.Line}
	}
	return Pos{m.file, m.node.Line}
}

func (m *mapping) require(key, what string) *yaml.Node {
	v, ok := m.fields[key]
	if !ok {
		m.l.problem(Pos{m.file, m.node.Line}, "%s: missing required field %q", what, key)
		return nil
	}
	return v
}

func (m *mapping) str(key, what string, required bool) string {
	v := m.fields[key]
	if v == nil {
		if required {
			m.require(key, what)
		}
		return ""
	}
	if v.Kind != yaml.ScalarNode || v.Tag == "!!null" {
		m.l.problem(Pos{m.file, v.Line}, "%s: field %q must be a string", what, key)
		return ""
	}
	if required && strings.TrimSpace(v.Value) == "" {
		m.l.problem(Pos{m.file, v.Line}, "%s: field %q must not be empty", what, key)
	}
	if nameFields[key] && len(v.Value) > maxName {
		m.l.problem(Pos{m.file, v.Line}, "%s: field %q is %d bytes long; the limit is %d: shorten it", what, key, len(v.Value), maxName)
		return truncate(v.Value, maxName)
	}
	return v.Value
}

func (m *mapping) integer(key, what string, required bool) *int {
	v := m.fields[key]
	if v == nil {
		if required {
			m.require(key, what)
		}
		return nil
	}
	var n int
	if v.Kind != yaml.ScalarNode || v.Tag != "!!int" || v.Decode(&n) != nil {
		m.l.problem(Pos{m.file, v.Line}, "%s: field %q must be a whole number, not %q", what, key, v.Value)
		return nil
	}
	return &n
}

func (m *mapping) positive(key, what string, required bool) int {
	p := m.integer(key, what, required)
	if p == nil {
		return 0
	}
	if *p <= 0 {
		m.l.problem(m.pos(key), "%s: field %q must be greater than zero", what, key)
		return 0
	}
	if *p > MaxCount {
		m.l.problem(m.pos(key), "%s: field %q is %d; the limit is %d", what, key, *p, MaxCount)
		return 0
	}
	return *p
}

func (m *mapping) boolean(key, what string) bool {
	v := m.fields[key]
	if v == nil {
		return false
	}
	var b bool
	if v.Kind != yaml.ScalarNode || v.Tag != "!!bool" || v.Decode(&b) != nil {
		m.l.problem(Pos{m.file, v.Line}, "%s: field %q must be true or false", what, key)
	}
	return b
}

func (m *mapping) strings(key, what string, required bool) []string {
	v := m.fields[key]
	if v == nil {
		if required {
			m.require(key, what)
		}
		return nil
	}
	if v.Kind != yaml.SequenceNode {
		m.l.problem(Pos{m.file, v.Line}, "%s: field %q must be a list such as [a, b]", what, key)
		return nil
	}
	var out []string
	for _, item := range v.Content {
		if item.Kind != yaml.ScalarNode {
			m.l.problem(Pos{m.file, item.Line}, "%s: items of %q must be strings", what, key)
			continue
		}
		out = append(out, item.Value)
	}
	if required && len(out) == 0 {
		m.l.problem(Pos{m.file, v.Line}, "%s: field %q must list at least one item", what, key)
	}
	return out
}

// list returns the items of a sequence field.
func (m *mapping) list(key, what string, required bool) []*yaml.Node {
	v := m.fields[key]
	if v == nil {
		if required {
			m.require(key, what)
		}
		return nil
	}
	if v.Kind != yaml.SequenceNode {
		m.l.problem(Pos{m.file, v.Line}, "%s: field %q must be a list", what, key)
		return nil
	}
	return v.Content
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

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
	s.Model = top.str("model", "study", true)

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
		s.Workloads = append(s.Workloads, w)
	}

	if n := top.fields["slo"]; n != nil {
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
		s.SLO = slo
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
		s.Steps = append(s.Steps, st)
	}

	for _, item := range top.list("claims", "study", false) {
		m := l.mapping(f, item, "claim", "kind", "workload", "step", "config", "run", "from", "to", "printed", "source")
		c := Claim{
			Kind: ClaimKind(m.str("kind", "claim", true)), Workload: m.str("workload", "claim", false),
			Step: m.str("step", "claim", false), Config: m.str("config", "claim", false),
			Run: m.str("run", "claim", false), From: m.str("from", "claim", false), To: m.str("to", "claim", false),
			Printed: m.str("printed", "claim", true), Source: m.str("source", "claim", false), Pos: Pos{f, item.Line},
		}
		if s.Article() && c.Kind != ClaimTable && c.Kind != "" {
			l.problem(c.Pos, "claim: an article has no runs, so its claims are table claims (kind table), not %s", c.Kind)
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
		case ClaimCommand, ClaimModel, ClaimAccuracy:
		case ClaimTable:
			for _, k := range []string{"from", "to"} {
				if v := m.str(k, "claim", true); v != "" && !printedNumber.MatchString(v) {
					l.problem(m.pos(k), "claim: %q must be a figure as printed, such as 3869.3 or 12,345", k)
				}
			}
		case "":
		default:
			l.problem(m.pos("kind"), "claim: kind %q is not known; use conclusion, step, ranking, value, summary, success-rate, command, model, table or accuracy", c.Kind)
		}
		s.Claims = append(s.Claims, c)
	}

	for _, item := range top.list("acknowledged", "study", false) {
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
		s.Acks = append(s.Acks, a)
	}
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

// pointName is a log's file name, without its suffix, that names a load:
// <workload>.c<N> or <workload>.rps<R>.
var pointName = regexp.MustCompile(`^(.+)\.(c|rps)([0-9]+(?:\.[0-9]+)?)$`)

// logName splits a log's file name, without its suffix, into the workload
// it holds and the load it names: "chat" is workload chat, "chat.c16"
// chat at concurrency 16, "chat.rps0.5" chat at 0.5 requests per second.
// prefix is "c", "rps" or, for a name without a load, empty; ok is false
// when the name holds no workload of the study.
func logName(stem string, workloads map[string]int) (workload, prefix, load string, ok bool) {
	if _, ok := workloads[stem]; ok {
		return stem, "", "", true
	}
	if m := pointName.FindStringSubmatch(stem); m != nil {
		if _, ok := workloads[m[1]]; ok {
			return m[1], m[2], m[3], true
		}
	}
	return stem, "", "", false
}

// logPoint is the sweep point a log's file name names, or nil with a
// problem when the workload has no such point.
func (l *loader) logPoint(file string, w *Workload, prefix, load string) *SweepPoint {
	sw := w.Sweep
	if sw == nil {
		l.problem(Pos{file, 0}, "the file name gives a load (%s%s), but workload %s has no sweep: name the log %s%s, or declare the loads in %s with sweep: {%s: [...]}", prefix, load, w.ID, w.ID, path.Ext(file), w.Pos.File, SweepConcurrency)
		return nil
	}
	v, ok := sweepLoad(sw.Key, load)
	if prefix != sw.Prefix() || !ok {
		l.problem(Pos{file, 0}, "workload %s sweeps %s: name its logs %s.%s<load>%s; %s", w.ID, sw.Key, w.ID, sw.Prefix(), path.Ext(file), loadHint(sw.Key))
		return nil
	}
	if !sw.Has(v) {
		var pts []string
		for _, p := range sw.Points {
			pts = append(pts, p.Raw)
		}
		l.problem(Pos{file, 0}, "load %s is not a point of the sweep of workload %s (%s:%d lists %s): add it there, or rename the log", load, w.ID, sw.Pos.File, sw.Pos.Line, strings.Join(pts, ", "))
		return nil
	}
	return &SweepPoint{Value: v, Raw: load}
}

// pointSuffix writes a log's load after its workload: " at c16".
func pointSuffix(prefix, load string) string {
	if prefix == "" {
		return ""
	}
	return " at " + prefix + load
}

// Languages are the languages perflab publishes in.
var Languages = []string{"en", "zh", "ja"}

// sloStat is a statistic an SLO may be stated on.
var sloStat = regexp.MustCompile(`^(mean|median|p\d+(\.\d+)?)$`)

// printedNumber is a figure as a table prints it.
var printedNumber = regexp.MustCompile(`^\d[\d,]*(\.\d+)?$`)

func (l *loader) runs(s *Study) error {
	entries, err := fs.ReadDir(l.fsys, runsDir)
	if errors.Is(err, fs.ErrNotExist) && s.Article() {
		return nil // an article has no runs
	}
	if errors.Is(err, fs.ErrNotExist) {
		l.problem(s.Pos, "study has no %s/ folder: add one folder per run (see docs/results-format.md)", runsDir)
		return nil
	}
	if r, _ := safefs.Refused(err); r != nil {
		l.problems = append(l.problems, refusal(err))
		return nil
	}
	if err != nil {
		return err
	}
	workloads := map[string]int{}
	for i, w := range s.Workloads {
		workloads[w.ID] = i
	}
	for _, e := range entries {
		if err := safefs.Check(path.Join(l.dir, runsDir, e.Name()), e.Type()); err != nil {
			l.problems = append(l.problems, refusal(err))
			continue
		}
		if !e.IsDir() {
			l.problem(Pos{path.Join(l.dir, runsDir, e.Name()), 0}, "unexpected file in %s/: each run is a folder", runsDir)
			continue
		}
		if err := l.run(s, e.Name(), workloads); err != nil {
			return err
		}
	}
	sort.Slice(s.Runs, func(i, j int) bool { return s.Runs[i].ID < s.Runs[j].ID })
	return nil
}

func (l *loader) run(s *Study, id string, workloads map[string]int) error {
	dir := path.Join(runsDir, id)
	shown := path.Join(l.dir, dir)
	r := &Run{ID: id, Pos: Pos{path.Join(shown, RunFile), 1}}
	if l.folders == nil {
		l.folders = map[string]bool{}
	}
	l.folders[id] = true
	if !idPattern.MatchString(id) {
		l.problem(Pos{shown, 0}, "run folder name %q is not a valid id: use lower-case letters, digits, '.', '_' and '-'", id)
	} else if msg := idProblem("run", id); msg != "" {
		l.problem(Pos{shown, 0}, "%s", msg)
	}
	entries, ok, err := l.readDir(dir)
	if !ok {
		return err
	}
	hasMeta, metaRefused := false, false
	var failure string // the first error a log printed instead of a result
	logs := newLogSet()
	for _, e := range entries {
		name := e.Name()
		file := path.Join(shown, name)
		suffix := path.Ext(name)
		if err := safefs.Check(file, e.Type()); err != nil {
			l.problems = append(l.problems, refusal(err))
			metaRefused = metaRefused || name == RunFile
			continue
		}
		switch {
		case name == RunFile:
			hasMeta = true
		case name == AccuracyFile && !e.IsDir():
			if info, err := e.Info(); err == nil && info.Size() > MaxFileSize {
				l.problem(Pos{file, 0}, "%s is %d bytes; the limit is %d: keep the results file lm_eval writes, without samples", AccuracyFile, info.Size(), MaxFileSize)
				continue
			}
			raw, err := fs.ReadFile(l.fsys, path.Join(dir, name))
			if err != nil {
				return err
			}
			scores, perr := parseAccuracy(file, raw)
			if perr != nil {
				l.problem(Pos{file, 1}, "%s: %v", AccuracyFile, perr)
			}
			r.Accuracy = scores
		case name == HistoryDir && e.IsDir():
			if err := l.history(s, r, path.Join(dir, name), file, workloads); err != nil {
				return err
			}
		case isResultSuffix(suffix) && !e.IsDir():
			lg, f, err := l.readLog(s, dir, shown, e, workloads, logs)
			if err != nil {
				return err
			}
			if failure == "" {
				failure = f
			}
			if lg != nil {
				r.Logs = append(r.Logs, *lg)
			}
		default:
			l.problem(Pos{file, 0}, "unexpected file in a run folder: expected %s and <workload-id>%s files (or <workload-id>%s, a saved JSON result, or <workload-id>%s, a Benchmark Report)", RunFile, LogSuffix, JSONSuffix, YAMLSuffix)
		}
	}
	sort.SliceStable(r.Logs, func(i, j int) bool {
		a, b := &r.Logs[i], &r.Logs[j]
		if a.Workload != b.Workload {
			return workloads[a.Workload] < workloads[b.Workload]
		}
		if pa, pb := a.Point != nil, b.Point != nil; pa != pb || pa && a.Point.Value != b.Point.Value {
			return pb && (!pa || a.Point.Value < b.Point.Value) // the plain log first, then by load
		}
		return a.Repeat < b.Repeat
	})
	l.repeatProblems(shown, logs)
	if metaRefused {
		return nil
	}
	if !hasMeta {
		l.problem(Pos{shown, 0}, "run folder has no %s: add one with engine, command and gpus (see docs/results-format.md)", RunFile)
		return nil
	}
	if l.noLogs && len(r.History) == 0 {
		s.Runs = append(s.Runs, r) // LoadMeta wants a run's engine for its history only
		return nil
	}
	data, err := fs.ReadFile(l.fsys, path.Join(dir, RunFile))
	if r, _ := safefs.Refused(err); r != nil {
		l.problems = append(l.problems, refusal(err))
		return nil
	}
	if err != nil {
		return err
	}
	if n := l.parseYAML(r.Pos.File, data); n != nil {
		m := l.mapping(r.Pos.File, n, "run", "name", "engine", "command", "command_derived", "parameters", "gpus", "error", "source", "recorded", "reproduces")
		r.Name = m.str("name", "run", true)
		r.Engine = m.str("engine", "run", true)
		r.Command = m.str("command", "run", true)
		r.CommandDerived = m.boolean("command_derived", "run")
		r.Parameters = m.str("parameters", "run", false)
		r.Source = m.str("source", "run", false)
		r.GPUs = m.gpuCount("gpus", "run")
		r.Error = m.str("error", "run", false)
		r.Recorded = l.recorded(m)
		r.Reproduces, r.ReproducesLine = m.str("reproduces", "run", false), m.pos("reproduces").Line
		if r.Error == "" {
			r.Error = failure
		}
		r.EngineLine, r.CommandLine, r.GPUsLine = m.pos("engine").Line, m.pos("command").Line, m.pos("gpus").Line
		if r.Failed() && len(r.Logs) > 0 {
			l.problem(m.pos("error"), "run %s has an error and also result logs: a failed run has no result; remove the error or the logs", id)
		}
		if !r.Failed() && len(r.Logs) == 0 && l.studyRead {
			l.problem(r.Pos, "run %s has no <workload-id>%s file and no error: add its logs, or the error it printed", id, LogSuffix)
		}
	}
	s.Runs = append(s.Runs, r)
	return nil
}

// readDir lists a folder of the study in name order, whatever the file
// system lists (of a <workload>.json and a <workload>.log, the .log is the
// second one). ok is false when the folder is not read: a folder safefs
// refuses (a problem is recorded) or an I/O error, returned.
func (l *loader) readDir(dir string) (entries []fs.DirEntry, ok bool, err error) {
	entries, err = fs.ReadDir(l.fsys, dir)
	if r, _ := safefs.Refused(err); r != nil {
		l.problems = append(l.problems, refusal(err))
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	return entries, true, nil
}

// price reads a price's gpu_hour and currency; nil when it is not a
// positive number (a problem says so).
func (l *loader) price(m *mapping, at Pos) *Price {
	p := &Price{Raw: m.str("gpu_hour", "price", true), Currency: m.str("currency", "price", true), Pos: at}
	v, err := strconv.ParseFloat(p.Raw, 64)
	if err != nil {
		v = math.NaN()
	}
	if msg := priceProblem(p.Raw, v); msg != "" {
		if p.Raw != "" {
			l.problem(m.pos("gpu_hour"), "%s", msg)
		}
		return nil
	}
	p.PerGPUHour = v
	return p
}

// logSet is what the logs of one folder read so far hold, to find two
// logs of one measurement.
type logSet struct {
	names   map[logKey]string // series (workload, or workload and load) and repeat -> the log file name
	repeats map[string]int    // series -> logs read for it
	plain   map[string]string // workload -> a log named after it alone
	point   map[string]string // workload -> its first log of one load
	loads   map[string]string // series of one load -> how problems name it: "workload chat at c16"
}

func newLogSet() *logSet {
	return &logSet{names: map[logKey]string{}, repeats: map[string]int{}, plain: map[string]string{}, point: map[string]string{}, loads: map[string]string{}}
}

// what names a series in a problem: "workload chat", "workload chat at c16".
func (s *logSet) what(series string) string {
	if w := s.loads[series]; w != "" {
		return w
	}
	return "workload " + series
}

// readLog reads the log file e of the folder dir (shown as shown) as the
// result of the workload its name gives, the same way for a run's own logs
// and for those of its history. It returns no log for a file that gives no
// result: a problem, or a server's error, which it returns as failure.
func (l *loader) readLog(s *Study, dir, shown string, e fs.DirEntry, workloads map[string]int, logs *logSet) (lg *Log, failure string, err error) {
	if l.noLogs {
		return nil, "", nil
	}
	name := e.Name()
	file := path.Join(shown, name)
	suffix := path.Ext(name)
	stem, repeat := LogName(strings.TrimSuffix(name, suffix))
	w, prefix, load, ok := logName(stem, workloads)
	if !ok && l.studyRead {
		l.problem(Pos{file, 0}, "log %q names no workload of the study; name a log <workload-id>%s (or <workload-id>%s for a --save-result JSON, <workload-id>.run-<n>%s for the n-th repeat, <workload-id>.c<N>%s for a load of a sweep), with a workload id of %s", name, LogSuffix, JSONSuffix, LogSuffix, LogSuffix, s.Pos.File)
		return nil, "", nil
	}
	var point *SweepPoint
	var wl *Workload
	if ok {
		wl = &s.Workloads[workloads[w]]
	}
	if prefix != "" {
		if point = l.logPoint(file, wl, prefix, load); point == nil {
			return nil, "", nil
		}
	}
	series := w
	if point != nil {
		series = stem // without its repeat: <workload>.c<N>
	}
	if first, dup := logs.names[logKey{series, repeat}]; dup {
		l.problem(Pos{file, 0}, "both %s and %s hold workload %s%s: a run has one log per workload; keep one of them", first, name, w, pointSuffix(prefix, load))
		return nil, "", nil
	}
	// A sweep has logs of one load each, or logs of a tool that writes
	// every load (guidellm), not both.
	other := logs.plain[w]
	if point == nil {
		other = logs.point[w]
	}
	if other != "" && wl != nil && wl.Sweep != nil {
		l.problem(Pos{file, 0}, "both %s and %s hold the sweep of workload %s: give it one log per load, or one log of a tool that writes every load, not both", other, name, w)
		return nil, "", nil
	}
	if logs.repeats[series]++; logs.repeats[series] > MaxRepeats {
		if logs.repeats[series] == MaxRepeats+1 {
			l.problem(Pos{file, 0}, "%s", tooManyRepeats(series))
		}
		return nil, "", nil
	}
	logs.names[logKey{series, repeat}] = name
	if point != nil {
		logs.loads[series] = "workload " + w + pointSuffix(prefix, load)
	}
	if point == nil && logs.plain[w] == "" {
		logs.plain[w] = name
	} else if point != nil && logs.point[w] == "" {
		logs.point[w] = name
	}
	if info, err := e.Info(); err == nil && info.Size() > MaxLogSize {
		l.problem(Pos{file, 0}, "the log is %d bytes; the limit is %d (64 MiB): keep the benchmark's own output, from its command to its result, and leave server logs out", info.Size(), MaxLogSize)
		return nil, "", nil
	}
	raw, err := fs.ReadFile(l.fsys, path.Join(dir, name))
	if r, _ := safefs.Refused(err); r != nil {
		l.problems = append(l.problems, refusal(err))
		return nil, "", nil
	}
	if err != nil {
		return nil, "", err
	}
	blocks, perr := benchlog.Parse(file, bytes.NewReader(raw))
	if perr != nil {
		var se *benchlog.SyntaxError
		if errors.As(perr, &se) {
			l.problem(Pos{se.File, se.Line}, "%s", se.Msg)
		} else {
			return nil, "", perr
		}
	}
	if len(blocks) > 0 && blocks[0].Format == benchlog.FormatError {
		// The server failed: the log is the evidence of the run's
		// error, not a result.
		if f := blocks[0].Failure; f != nil {
			failure = strings.TrimSpace(f.Kind + ": " + f.Message)
		}
		return nil, failure, nil
	}
	if len(blocks) > 1 && (point != nil || wl == nil || wl.Sweep == nil) {
		l.problem(Pos{file, blocks[1].Line}, "a second result block (the first is at line %d): a log holds one workload of one run; move this block to the log of its own run or workload", blocks[0].Line)
	}
	return &Log{Workload: w, Point: point, Repeat: repeat, File: file, Raw: raw, Blocks: blocks}, "", nil
}

// crossRefs checks that every id the study names exists.
func (l *loader) crossRefs(s *Study) {
	runRef := func(p Pos, what, id string) {
		// A folder without a readable run.yaml has its own problem.
		if s.Run(id) == nil && !l.folders[id] {
			l.problem(p, "%s names run %q, which has no folder %s/%s/%s", what, id, s.Dir, runsDir, id)
		}
	}
	seen := map[string]bool{}
	mains := 0
	for _, w := range s.Workloads {
		if seen[w.ID] {
			l.problem(w.Pos, "workload id %q is used twice", w.ID)
		}
		seen[w.ID] = true
		if w.Main {
			mains++
		}
	}
	if len(s.Workloads) > 0 && mains != 1 {
		l.problem(s.Pos, "exactly one workload must be marked main: true (the one steps are compared on); found %d", mains)
	}
	for _, id := range s.Baseline.Runs {
		runRef(s.Baseline.Pos, "baseline", id)
	}
	for _, id := range s.Recommended.Runs {
		runRef(s.Recommended.Pos, "recommended", id)
	}
	steps := map[string]bool{}
	for _, st := range s.Steps {
		if steps[st.ID] {
			l.problem(st.Pos, "step id %q is used twice", st.ID)
		}
		steps[st.ID] = true
		for _, id := range st.Runs {
			runRef(st.Pos, "step "+st.ID, id)
		}
		if st.Reference != "" {
			runRef(st.Pos, "step "+st.ID+" reference", st.Reference)
		}
	}
	for _, c := range s.Claims {
		if c.Workload != "" && s.Workload(c.Workload) == nil {
			l.problem(c.Pos, "claim names workload %q, which the study does not define", c.Workload)
		}
		if c.Step != "" && !steps[c.Step] {
			l.problem(c.Pos, "claim names step %q, which the study does not define", c.Step)
		}
		if c.Run != "" && s.Run(c.Run) == nil {
			l.problem(c.Pos, "claim names run %q, which has no folder %s/%s/%s", c.Run, s.Dir, runsDir, c.Run)
		}
	}
	for _, r := range s.Runs {
		if r.Engine != "" && s.Engine(r.Engine) == nil {
			l.problem(Pos{r.Pos.File, r.EngineLine}, "run %s: engine %q is not one of the study's engines in %s", r.ID, r.Engine, s.Pos.File)
		}
	}
}
