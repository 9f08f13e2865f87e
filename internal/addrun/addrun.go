// Package addrun adds a contributor's run to an existing study: it reads
// the benchmark logs someone ran, works out which workload each measured,
// which engine served them and with which model, and writes
// results/<study>/runs/<run>/ with the logs copied byte for byte and a
// run.yaml in which every inferred value carries a "# guessed from ...:
// check" comment. A log named as a run folder names its logs keeps that
// meaning: a repeat (<workload>.run-2.log), a load of a swept workload
// (<workload>.c16.log, validated against the study's sweep), an earlier
// engine version (history/<version>/<workload>.log); see names.go.
//
// It never overwrites a run and writes a run folder whole or not at all
// (a temporary folder, then one rename). It neither prints nor runs the
// checks: cmd/perflab does both.
package addrun

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/perflab/perflab/internal/benchlog"
	"github.com/perflab/perflab/internal/safefs"
	"github.com/perflab/perflab/internal/study"
)

// Options is what the contributor passed. Study, Run and Logs are required;
// every other field overrides what would otherwise be inferred.
type Options struct {
	Results  string   // the results folder (default "results")
	Study    string   // study id: the folder results/<study> with its study.yaml
	Run      string   // run id: the folder to create under runs/
	Logs     []string // the logs: one per workload, load of a sweep and repeat, named <workload>[.c<N>][.run-<n>].log or inferred
	Workload string   // the workload of the only log; inferred when empty
	Command  string   // the serving command, exactly as typed; searched for in the logs when empty
	Engine   string   // engine id of the study; inferred when empty
	Name     string   // display name; inferred when empty
	GPUs     int      // GPUs the run used; 0: from the command's parallel sizes
	GPU      string   // a new study's GPU model (hardware.gpu); marked to fill in when empty
	Content  string   // the content folder a new study's prose stubs go to (default "content")
	// Reproduces is the run of the study this one independently reran.
	Reproduces string

	// writeFile writes one file of the temporary folder (tests make it fail).
	writeFile func(name string, data []byte) error
}

// Input is one log as the contributor gave it.
type Input struct {
	Path string // as given on the command line
	Raw  []byte
}

// Log is where one input goes and why.
type Log struct {
	From     string // the input's path
	Workload string
	Why      string // how the workload was found; "" when given by --workload
	// What the input's name says besides its workload (see names.go):
	// the repeat (0: a single measurement), the load of a swept workload
	// (from the name, or from LoadFrom when the log prints it), and the
	// engine version of an earlier measurement (under history/<version>/).
	Repeat   int
	Point    *study.SweepPoint
	LoadFrom string // where the load was read when the file name gives none
	History  string
	Block    *benchlog.Block
	raw      []byte
	info     *logInfo
	prefix   string // of Point: "c" or "rps"
}

// Guess is a value of run.yaml that perflab inferred.
type Guess struct {
	Field string // run.yaml key: engine, command, gpus, name
	Value string
	From  string // what it was inferred from, e.g. "the serving command in a.log:3"
}

// Plan is the run perflab add writes: its folder, its logs and its run.yaml.
type Plan struct {
	Study   *study.Study
	Dir     string // results/<study>/runs/<run>, as shown to the user
	Logs    []Log  // in the order of the study's workloads
	Engine  string
	Model   string // the model the command serves, or that the logs name
	ModelOf string // where Model came from
	Command string
	Derived bool // Command was rebuilt from the engine and the model
	GPUs    int
	Name    string
	Guesses []Guess
	RunYAML []byte
	// New is the study the run starts, when it did not exist.
	New *NewStudy
	// Reproduces is the run this one reran (--reproduces); Recorded, what
	// perflab record captured (reproduce.go, capture.go).
	Reproduces string
	Recorded   []Field
	tool       string // "perflab record"; "" for perflab add
}

// Add plans the run and writes it; see Plan for what is inferred.
func Add(o Options) (*Plan, error) {
	p, err := Prepare(o)
	if err != nil {
		return nil, err
	}
	if p.New != nil {
		return p, writeNew(o, p)
	}
	if err := write(o, p); err != nil {
		return nil, err
	}
	return p, nil
}

// Prepare loads the study, reads the logs and infers everything Add would
// write, without writing anything.
func Prepare(o Options) (*Plan, error) {
	if o.Results == "" {
		o.Results = "results"
	}
	if err := checkIDs(o); err != nil {
		return nil, err
	}
	if len(o.Logs) == 0 {
		return nil, errors.New("no log given: pass the benchmark output files, one per workload")
	}
	if o.Workload != "" && len(o.Logs) > 1 {
		return nil, fmt.Errorf("--workload names the workload of one log, but %d logs were given: add them one at a time, or name each file <workload>.log", len(o.Logs))
	}
	if _, err := os.Lstat(filepath.Join(o.Results, o.Study)); errors.Is(err, fs.ErrNotExist) {
		return prepareNew(o)
	}
	s, err := loadStudy(o.Results, o.Study)
	if err != nil {
		return nil, err
	}
	dir := filepath.Join(o.Results, o.Study, "runs", o.Run)
	if _, err := os.Lstat(dir); err == nil {
		return nil, fmt.Errorf("%s already exists: perflab add never overwrites a run; choose another --run, or edit that run by hand", dir)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	var inputs []Input
	for _, name := range o.Logs {
		raw, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		inputs = append(inputs, Input{Path: name, Raw: raw})
	}
	if err := checkReproduces(s, o.Reproduces); err != nil {
		return nil, err
	}
	p, err := plan(o, s, inputs)
	if err != nil {
		return nil, err
	}
	p.Dir = dir
	return p, nil
}

// loadStudy loads results/<id> and insists it is a readable study.
func loadStudy(results, id string) (*study.Study, error) {
	file := filepath.Join(results, id, study.StudyFile)
	if _, err := os.Stat(file); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%s does not exist: perflab add starts a study only in a folder that does not exist yet; write the study.yaml (docs/results-format.md), or move the folder away, or check --study and --results", file)
		}
		return nil, err
	}
	s, probs, err := study.Load(safefs.New(filepath.Join(results, id), path.Join(filepath.ToSlash(results), id)), path.Join(filepath.ToSlash(results), id), id)
	if err != nil {
		return nil, err
	}
	if s == nil { // study.yaml refused: a link, a named pipe
		return nil, fmt.Errorf("%s: fix the study first (perflab check lists every problem)", probs[0])
	}
	for _, pr := range probs {
		if pr.Pos.File == s.Pos.File {
			return nil, fmt.Errorf("%s: fix the study first (perflab check lists every problem)", pr)
		}
	}
	if len(s.Workloads) == 0 || len(s.Engines) == 0 {
		return nil, fmt.Errorf("%s declares no workloads or no engines: a run needs both", s.Pos.File)
	}
	return s, nil
}

// plan infers the run from the inputs.
func plan(o Options, s *study.Study, inputs []Input) (*Plan, error) {
	p := &Plan{Study: s, Reproduces: o.Reproduces}
	infos := make([]*logInfo, len(inputs))
	for i, in := range inputs {
		info, err := readLog(in)
		if err != nil {
			return nil, err
		}
		infos[i] = info
	}
	for i, in := range inputs {
		n, err := readName(s, in.Path)
		if err != nil {
			return nil, err
		}
		infos[i].name = n
		lg := Log{From: in.Path, Repeat: n.repeat, History: n.history, Block: infos[i].block, raw: in.Raw, info: infos[i]}
		if o.Workload != "" {
			if s.Workload(o.Workload) == nil {
				return nil, fmt.Errorf("--workload %q is not a workload of %s: use one of %s, or declare a new workload at the end of workloads: there first (docs/results-format.md)", o.Workload, s.Pos.File, workloadIDs(s))
			}
			lg.Workload = o.Workload
		} else {
			w, why, err := inferWorkload(s, infos[i])
			if err != nil {
				return nil, err
			}
			lg.Workload, lg.Why = w, why
		}
		if err := point(s, s.Workload(lg.Workload), &lg, n); err != nil {
			return nil, err
		}
		p.Logs = append(p.Logs, lg)
	}
	if err := checkRepeats(p.Logs); err != nil {
		return nil, err
	}
	order := map[string]int{}
	for i, w := range s.Workloads {
		order[w.ID] = i
	}
	// By workload, the run's own logs before its history (oldest version
	// first), then by load and repeat.
	sort.SliceStable(p.Logs, func(i, j int) bool {
		a, b := &p.Logs[i], &p.Logs[j]
		switch {
		case a.Workload != b.Workload:
			return order[a.Workload] < order[b.Workload]
		case a.History != b.History:
			return a.History == "" || b.History != "" && a.info.name.historyVersion.Compare(b.info.name.historyVersion) < 0
		case (a.Point == nil) != (b.Point == nil):
			return a.Point == nil
		case a.Point != nil && a.Point.Value != b.Point.Value:
			return a.Point.Value < b.Point.Value
		}
		return a.Repeat < b.Repeat
	})

	// The serving command: given, or found in a log.
	cmdFrom := ""
	p.Command = o.Command
	if p.Command == "" {
		for _, lg := range p.Logs {
			if lg.info.command != "" && lg.History == "" { // an earlier version may have run another command
				p.Command = lg.info.command
				cmdFrom = fmt.Sprintf("the serving command in %s:%d", lg.From, lg.info.commandLine)
				break
			}
		}
	}

	if err := inferEngine(o, s, p, cmdFrom); err != nil {
		return nil, err
	}
	inferModel(s, p)
	if p.Command == "" {
		p.Command = deriveCommand(s, p.Engine, p.Model)
		p.Derived = true
		p.Guesses = append(p.Guesses, Guess{"command", p.Command, fmt.Sprintf("the engine and %s, since no serving command was given or found in the logs: replace it with the command you ran (--command) and remove command_derived", p.ModelOf)})
	} else if cmdFrom != "" {
		p.Guesses = append(p.Guesses, Guess{"command", p.Command, cmdFrom})
	}

	p.GPUs = o.GPUs
	if p.GPUs <= 0 {
		p.GPUs = commandGPUs(p.Command)
		p.Guesses = append(p.Guesses, Guess{"gpus", strconv.Itoa(p.GPUs), "the command's tensor x pipeline x data parallel sizes"})
	}
	p.Name = o.Name
	if p.Name == "" {
		p.Name = o.Run
		from := "--run"
		for _, e := range s.Engines {
			if e.ID == p.Engine && (o.Run == e.ID || strings.ReplaceAll(o.Run, "-", "") == strings.ToLower(strings.ReplaceAll(e.Name, "-", ""))) {
				p.Name, from = e.Name, "the engine's display name"
			}
		}
		p.Guesses = append(p.Guesses, Guess{"name", p.Name, from + " (the label readers see in tables)"})
	}
	y, err := p.runYAML()
	if err != nil {
		return nil, err
	}
	p.RunYAML = y
	return p, nil
}

func workloadIDs(s *study.Study) string {
	ids := make([]string, len(s.Workloads))
	for i, w := range s.Workloads {
		ids[i] = w.ID
	}
	return strings.Join(ids, ", ")
}

// guess returns the guess of a field, if any.
func (p *Plan) guess(field string) (Guess, bool) {
	for _, g := range p.Guesses {
		if g.Field == field {
			return g, true
		}
	}
	return Guess{}, false
}

// inRun names each log in text by its copy in the run folder, which goes
// into the pull request, instead of the path it was given as: a path on
// the contributor's machine means nothing to a reviewer and tells about
// that machine.
func (p *Plan) inRun(text string) string {
	logs := slices.Clone(p.Logs)
	slices.SortFunc(logs, func(a, b Log) int { return len(b.From) - len(a.From) }) // a path before its prefixes
	for _, lg := range logs {
		text = strings.ReplaceAll(text, lg.From+":", lg.FileName()+":")
	}
	return localPath.ReplaceAllString(text, "$1$2")
}

// localPath is an absolute path in a note (/home/me/data/x.json, ~/x/y,
// C:\data\x.json) that a log printed and that is not one of the logs:
// inRun keeps its file name ($2) only.
var localPath = regexp.MustCompile(`(^|[\s(="'])(?:~|[A-Za-z]:)?[/\\](?:[^\s/\\"'(),;:]+[/\\])*([^\s/\\"'(),;:]+)`)

// runYAML renders run.yaml, with a comment on each guessed value and a head
// comment saying where each log came from.
func (p *Plan) runYAML() ([]byte, error) {
	var head []string
	tool := p.tool
	if tool == "" {
		tool = "perflab add"
	}
	head = append(head, "Written by "+tool+". Check every value marked \"guessed\": fix it if it is")
	head = append(head, "wrong, then delete the comment. perflab check reports what still disagrees.")
	for _, lg := range p.Logs {
		line := fmt.Sprintf("%s: copied from %s", lg.FileName(), filepath.Base(lg.From))
		if lg.Why != "" {
			line += "; workload guessed from " + p.inRun(lg.Why) + ": check"
		} else {
			line += " (--workload)"
		}
		if lg.LoadFrom != "" {
			line += "; load read from " + p.inRun(lg.LoadFrom) + ": check"
		}
		head = append(head, line)
	}
	m := &yaml.Node{Kind: yaml.MappingNode}
	add := func(key, value string, tag string, style yaml.Style) {
		v := &yaml.Node{Kind: yaml.ScalarNode, Value: value, Tag: tag, Style: style}
		if g, ok := p.guess(key); ok {
			v.LineComment = "guessed from " + p.inRun(g.From) + ": check"
		}
		m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: key}, v)
	}
	add("name", p.Name, "!!str", 0)
	add("engine", p.Engine, "!!str", 0)
	style := yaml.Style(0)
	if strings.Contains(p.Command, "\n") {
		style = yaml.LiteralStyle
	}
	add("command", p.Command, "!!str", style)
	if p.Derived {
		add("command_derived", "true", "!!bool", 0)
	}
	add("gpus", strconv.Itoa(p.GPUs), "!!int", 0)
	if p.Reproduces != "" {
		add("reproduces", p.Reproduces, "!!str", 0)
	}
	if p.Recorded != nil {
		m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: "recorded"}, recordedNode(p.Recorded))
	}
	doc := &yaml.Node{Kind: yaml.DocumentNode, HeadComment: strings.Join(head, "\n"), Content: []*yaml.Node{m}}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Files returns the run folder's files by slash-separated path: run.yaml
// and each input, byte for byte, under its FileName.
func (p *Plan) Files() map[string][]byte {
	files := map[string][]byte{study.RunFile: p.RunYAML}
	for _, lg := range p.Logs {
		files[lg.FileName()] = lg.raw
	}
	return files
}

// write builds the run folder in a hidden temporary folder of the results
// folder (the loader skips hidden folders), then renames it into place.
func write(o Options, p *Plan) error {
	results := o.Results
	if results == "" {
		results = "results"
	}
	runs := filepath.Dir(p.Dir)
	if err := os.MkdirAll(runs, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(results, ".add-"+o.Study+"-"+o.Run+"-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	writeFile := o.writeFile
	if writeFile == nil {
		writeFile = func(name string, data []byte) error { return os.WriteFile(name, data, 0o644) }
	}
	files := p.Files()
	names := make([]string, 0, len(files))
	for n := range files {
		if err := localName(n); err != nil {
			return err
		}
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(tmp, filepath.FromSlash(n))), 0o755); err != nil {
			return err
		}
		if err := writeFile(filepath.Join(tmp, filepath.FromSlash(n)), files[n]); err != nil {
			return fmt.Errorf("writing %s: %w (nothing was added)", filepath.Join(p.Dir, n), err)
		}
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return err
	}
	// Checked again: the folder may have appeared since Prepare, and a
	// rename would replace an empty one.
	if _, err := os.Lstat(p.Dir); err == nil {
		return fmt.Errorf("%s already exists: perflab add never overwrites a run; choose another --run", p.Dir)
	}
	if err := os.Rename(tmp, p.Dir); err != nil {
		return fmt.Errorf("moving the new run into %s: %w (nothing was added)", p.Dir, err)
	}
	return nil
}
