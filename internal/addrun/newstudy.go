package addrun

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/perflab/perflab/internal/serving"
	"github.com/perflab/perflab/internal/study"
)

// A study that does not exist yet is started from its first run: perflab
// add drafts its study.yaml from the logs (every inferred value marked
// "guessed"), makes the run both the baseline and the recommended
// configuration, with no steps, and writes a content stub per language
// that names the workloads. The study folder appears whole or not at all.

// NewStudy is what perflab add writes besides the run when the study is new.
type NewStudy struct {
	Dir       string            // results/<study>
	StudyYAML []byte            // results/<study>/study.yaml
	Content   map[string][]byte // content/<lang>/<study>.md by path, only those that do not exist
	Guesses   []Guess           // of study.yaml, Field a key path such as hardware.gpu
}

// draftEngines are the engines a new study's first run may have used;
// the run's engine is the one kept.
var draftEngines = []string{"vllm", "sglang", "trtllm", "mindie", "lmdeploy", "llamacpp", "tgi"}

// draftStudy is a study made of what the inputs say: a workload per log,
// every engine perflab knows (the plan picks one), and the run as both
// configurations; with the log each workload was drafted from.
func draftStudy(o Options, inputs []Input) (*study.Study, map[string]*logInfo, error) {
	root := path.Join(filepath.ToSlash(o.Results), o.Study)
	s := &study.Study{ID: o.Study, Dir: root, Pos: study.Pos{File: path.Join(root, study.StudyFile), Line: 1},
		Objective: study.Throughput, Baseline: study.Config{Runs: []string{o.Run}}, Recommended: study.Config{Runs: []string{o.Run}}}
	for _, id := range draftEngines {
		if e := serving.ByAlias(id); e != nil {
			s.Engines = append(s.Engines, study.Engine{ID: e.ID, Name: e.Name, Version: "unknown"})
		}
	}
	infos := map[string]*logInfo{}
	for _, in := range inputs {
		info, err := readLog(in)
		if err != nil {
			return nil, nil, err
		}
		id := o.Workload
		if id == "" {
			base := filepath.Base(in.Path)
			stem := strings.ToLower(strings.TrimSuffix(base, filepath.Ext(base)))
			id, _, _, _ = study.SplitLogName(stem, func(string) bool { return false })
		}
		if err := study.ValidID("workload", id); err != nil {
			return nil, nil, fmt.Errorf("%s: the file name gives no valid workload id (%v): name the log <workload>.log, or pass --workload", in.Path, err)
		}
		if infos[id] != nil {
			continue // a repeat of a workload already drafted
		}
		infos[id] = info
		s.Workloads = append(s.Workloads, draftWorkload(id, info, len(s.Workloads) == 0))
	}
	return s, infos, nil
}

// draftWorkload is a workload with the dataset and lengths its log's
// benchmark settings give; a random dataset without them is left for the
// contributor to fill in, never guessed.
func draftWorkload(id string, info *logInfo, main bool) study.Workload {
	w := study.Workload{ID: id, Main: main}
	w.Dataset, _ = datasetOf(info)
	if n, err := strconv.Atoi(info.args["random_input_len"].value); err == nil && w.Dataset == "random" {
		w.InputLen = n
	}
	if n, err := strconv.Atoi(info.args["random_output_len"].value); err == nil && w.Dataset == "random" {
		w.OutputLen = n
	}
	// Without them same-data cannot tell which run sent other prompts.
	if n, err := strconv.Atoi(info.args["num_prompts"].value); err == nil && n > 0 {
		w.NumPrompts = n
	}
	if n, err := strconv.Atoi(info.args["seed"].value); err == nil {
		w.Seed = &n
	}
	return w
}

// prepareNewStudy plans a new study's first run and drafts the study.
func prepareNewStudy(o Options, inputs []Input) (*Plan, *NewStudy, error) {
	s, infos, err := draftStudy(o, inputs)
	if err != nil {
		return nil, nil, err
	}
	p, err := plan(o, s, inputs)
	if err != nil {
		return nil, nil, err
	}
	for _, e := range s.Engines {
		if e.ID == p.Engine {
			s.Engines = []study.Engine{e}
			break
		}
	}
	if p.Model == "" {
		return nil, nil, fmt.Errorf("the logs name no model, and a new study needs one: pass --command with the serving command you ran (vllm serve ORG/MODEL ...)")
	}
	s.Model = p.Model
	ns := &NewStudy{Dir: filepath.Join(o.Results, o.Study), Content: map[string][]byte{}}
	ns.StudyYAML, ns.Guesses, err = newStudyYAML(o, s, p, infos)
	if err != nil {
		return nil, nil, err
	}
	content := o.Content
	if content == "" {
		content = "content"
	}
	for _, lang := range study.Languages {
		name := filepath.Join(content, lang, o.Study+".md")
		if _, err := os.Lstat(name); err == nil {
			continue // written by someone: never replaced
		} else if !errors.Is(err, fs.ErrNotExist) {
			return nil, nil, err
		}
		ns.Content[name] = contentStub(s)
	}
	return p, ns, nil
}

// newStudyYAML renders the new study.yaml, each guess with a comment saying
// what it was guessed from; infos are the logs each workload was drafted
// from.
func newStudyYAML(o Options, s *study.Study, p *Plan, infos map[string]*logInfo) ([]byte, []Guess, error) {
	var guesses []Guess
	scalar := func(value, tag, guessedFrom, key string) *yaml.Node {
		n := &yaml.Node{Kind: yaml.ScalarNode, Value: value, Tag: tag}
		if guessedFrom != "" {
			guessedFrom = p.inRun(guessedFrom)
			n.LineComment = "guessed from " + guessedFrom + ": check"
			guesses = append(guesses, Guess{Field: key, Value: value, From: guessedFrom})
		}
		return n
	}
	mapping := func(kv ...any) *yaml.Node {
		m := &yaml.Node{Kind: yaml.MappingNode}
		for i := 0; i < len(kv); i += 2 {
			m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: kv[i].(string)}, kv[i+1].(*yaml.Node))
		}
		return m
	}
	flow := func(items ...string) *yaml.Node {
		n := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
		for _, it := range items {
			n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: it})
		}
		return n
	}
	gpu, gpuFrom := o.GPU, ""
	if gpu == "" {
		gpu, gpuFrom = "unknown GPU", "nothing (benchmark logs do not name the GPU): write its model as its maker names it, or pass --gpu"
	}
	e := s.Engines[0]
	tool := p.Logs[0].Block.ClientCommand()
	workloads := &yaml.Node{Kind: yaml.SequenceNode}
	for _, w := range s.Workloads {
		args := infos[w.ID].args
		_, dataFrom := datasetOf(infos[w.ID])
		kv := []any{"id", scalar(w.ID, "!!str", "the log's file name", "workloads."+w.ID+".id"),
			"dataset", scalar(w.Dataset, "!!str", dataFrom, "workloads."+w.ID+".dataset")}
		if w.Dataset == "random" {
			kv = append(kv, "input_len", lengthNode(w.InputLen, p.inRun("random_input_len in "+args["random_input_len"].where)),
				"output_len", lengthNode(w.OutputLen, p.inRun("random_output_len in "+args["random_output_len"].where)))
		}
		if w.NumPrompts > 0 {
			kv = append(kv, "num_prompts", scalar(strconv.Itoa(w.NumPrompts), "!!int", "num_prompts in "+args["num_prompts"].where, "workloads."+w.ID+".num_prompts"))
		}
		if w.Seed != nil {
			kv = append(kv, "seed", scalar(strconv.Itoa(*w.Seed), "!!int", "seed in "+args["seed"].where, "workloads."+w.ID+".seed"))
		}
		if w.Main {
			kv = append(kv, "main", scalar("true", "!!bool", "", ""))
		}
		workloads.Content = append(workloads.Content, mapping(kv...))
	}
	top := mapping(
		"model", scalar(s.Model, "!!str", p.ModelOf, "model"),
		"hardware", mapping(
			"gpu", scalar(gpu, "!!str", gpuFrom, "hardware.gpu"),
			"gpus_per_node", scalar(strconv.Itoa(max(p.GPUs, 1)), "!!int", "the run's GPUs", "hardware.gpus_per_node"),
			"nodes", scalar("1", "!!int", "the run, served on one node", "hardware.nodes")),
		"objective", scalar(string(study.Throughput), "!!str", "nothing: throughput or latency, say which one this study optimises", "objective"),
		"engines", &yaml.Node{Kind: yaml.SequenceNode, Content: []*yaml.Node{mapping(
			"id", scalar(e.ID, "!!str", "", ""), "name", scalar(e.Name, "!!str", "", ""),
			"version", scalar(e.Version, "!!str", "nothing (the logs do not print it): write the version you ran, e.g. v0.11.0", "engines."+e.ID+".version"))}},
		"benchmark", mapping("tool", scalar(tool, "!!str", "the format of the result block", "benchmark.tool")),
		"workloads", workloads,
		"baseline", flow(o.Run),
		"recommended", flow(o.Run),
		"steps", flow(),
	)
	doc := &yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{top}, HeadComment: strings.Join([]string{
		"Written by perflab add from the first run, " + o.Run + ". Check every value marked",
		"\"guessed\": fix it if it is wrong, then delete the comment. Add the next runs",
		"with perflab add, then list them in steps and name the best in recommended",
		"(docs/results-format.md describes every key).",
	}, "\n")}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return nil, nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, nil, err
	}
	return buf.Bytes(), guesses, nil
}

// lengthNode is a random workload's length: the logged one, with where
// the log gives it, or a 0 the loader refuses until the contributor
// writes the real one.
func lengthNode(n int, where string) *yaml.Node {
	v := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.Itoa(n)}
	if n == 0 {
		v.LineComment = "not in the log: write the tokens per request you benchmarked with"
	} else {
		v.LineComment = "guessed from " + where + ": check"
	}
	return v
}

// datasetOf is the dataset a log's benchmark ran on, and what says so:
// its dataset_name; a dataset_path naming ShareGPT; random lengths set
// with no dataset named (they mean nothing to another dataset); a label
// line naming either. With none of them it is sharegpt, guessed from
// nothing, and the comment says so.
func datasetOf(info *logInfo) (dataset, from string) {
	args := info.args
	if a, ok := args["dataset_name"]; ok {
		switch strings.ToLower(a.value) {
		case "random", "sharegpt":
			return strings.ToLower(a.value), "dataset_name " + a.value + " in " + a.where
		}
		return "sharegpt", "nothing perflab knows: dataset_name " + a.value + " in " + a.where + " is neither sharegpt nor random: write the one it stands for"
	}
	if a, ok := args["dataset_path"]; ok {
		if strings.Contains(strings.ToLower(a.value), "sharegpt") {
			return "sharegpt", "dataset_path " + baseName(a.value) + " in " + a.where
		}
		return "sharegpt", "nothing: the log names no dataset, and dataset_path " + baseName(a.value) + " in " + a.where + " does not say which: write sharegpt or random"
	}
	if a, ok := args["random_input_len"]; ok {
		return "random", "random_input_len in " + a.where + ", which only a random dataset reads"
	}
	for _, l := range info.labels {
		switch low := strings.ToLower(l.text); {
		case strings.Contains(low, "sharegpt"):
			return "sharegpt", fmt.Sprintf("the label %q at %s:%d", "# "+l.text, info.path, l.line)
		case strings.Contains(low, "random"):
			return "random", fmt.Sprintf("the label %q at %s:%d", "# "+l.text, info.path, l.line)
		}
	}
	return "sharegpt", "nothing: the log names no dataset (sharegpt unless it was a random dataset: then write random, input_len and output_len)"
}

// baseName is the last element of a path as a log printed it, with / or
// \ between elements: a path on the contributor's machine says nothing
// to a reviewer, its file name does.
func baseName(p string) string {
	if i := strings.LastIndexAny(p, `/\`); i >= 0 && i+1 < len(p) {
		return p[i+1:]
	}
	return p
}

// contentStub is a study's prose file to start from: the workloads'
// display names (their ids until someone names them) and the sections to
// write, left empty: the report shows nothing a person did not write.
func contentStub(s *study.Study) []byte {
	var b strings.Builder
	b.WriteString("---\nworkloads:\n")
	for _, w := range s.Workloads {
		fmt.Fprintf(&b, "  %s: %s\n", w.ID, w.ID)
	}
	b.WriteString("---\n")
	return []byte(b.String())
}

// prepareNew reads the inputs of a study's first run.
func prepareNew(o Options) (*Plan, error) {
	var inputs []Input
	for _, name := range o.Logs {
		raw, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		inputs = append(inputs, Input{Path: name, Raw: raw})
	}
	p, ns, err := prepareNewStudy(o, inputs)
	if err != nil {
		return nil, err
	}
	p.Dir, p.New = filepath.Join(o.Results, o.Study, "runs", o.Run), ns
	return p, nil
}

// writeNew writes the study folder whole (study.yaml and the run, in a
// hidden temporary folder renamed into place), then the content stubs,
// each only if no file has its name.
func writeNew(o Options, p *Plan) error {
	if err := os.MkdirAll(o.Results, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(o.Results, ".add-"+o.Study+"-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	files := map[string][]byte{study.StudyFile: p.New.StudyYAML}
	for name, data := range p.Files() {
		files[path.Join("runs", o.Run, name)] = data
	}
	for name, data := range files {
		full := filepath.Join(tmp, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(full, data, 0o644); err != nil {
			return fmt.Errorf("writing %s: %w (nothing was added)", filepath.Join(p.New.Dir, name), err)
		}
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return err
	}
	if _, err := os.Lstat(p.New.Dir); err == nil {
		return fmt.Errorf("%s appeared meanwhile: perflab add never overwrites a study; run it again to add the run to it", p.New.Dir)
	}
	if err := os.Rename(tmp, p.New.Dir); err != nil {
		return fmt.Errorf("moving the new study into %s: %w (nothing was added)", p.New.Dir, err)
	}
	for name, data := range p.New.Content {
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			return err
		}
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			return fmt.Errorf("%w (the study was added; write its prose by hand)", err)
		}
		_, err = f.Write(data)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
	}
	return nil
}
