package importer

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/perflab/perflab/internal/site"
	"github.com/perflab/perflab/internal/study"
)

// Files returns the study folder's files, keyed by slash-separated paths
// relative to the folder: study.yaml, runs/<run>/run.yaml and
// runs/<run>/<workload>.log.
func (s *Study) Files() (map[string][]byte, error) {
	files := map[string][]byte{}
	y, err := encode(marked(s.studyNode(), s.guessed, s.Source))
	if err != nil {
		return nil, err
	}
	files["study.yaml"] = y
	for _, r := range s.Runs {
		y, err := encode(marked(r.node(), r.guessed, s.Source))
		if err != nil {
			return nil, err
		}
		files["runs/"+r.ID+"/run.yaml"] = y
		for _, lg := range r.Logs {
			files["runs/"+r.ID+"/"+lg.Workload+".log"] = []byte(lg.Text + "\n")
		}
	}
	return files, nil
}

// Write writes the study into dir/<id>, a folder that must not exist yet:
// a study folder holds what its authors wrote and is never replaced. The
// files go into a temporary folder next to it first, renamed into place at
// the end, so a failed write (a full disk) is an error and leaves no
// half-imported study: the temporary folder is removed, and so are the
// folders above it that Write made, never anything else.
func Write(dir string, s *Study) error {
	return write(dir, s, os.WriteFile)
}

// write is Write, each file written by writeFile (tests make it fail).
func write(dir string, s *Study, writeFile func(name string, data []byte, perm os.FileMode) error) (err error) {
	files, err := s.Files()
	if err != nil {
		return err
	}
	if err := study.ValidID("study", s.ID); err != nil {
		return fmt.Errorf("cannot import into %s: %v; rename the report file", filepath.Join(dir, s.ID), err)
	}
	dest := filepath.Join(dir, s.ID)
	if _, err := os.Lstat(dest); err == nil {
		return fmt.Errorf("%s already exists: perflab never replaces a study folder; remove or rename it yourself to import again", dest)
	}
	made, err := mkdirAll(dir)
	defer func() {
		if err != nil {
			removeMade(made)
		}
	}()
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(dir, "."+s.ID+".import-")
	if err != nil {
		return err
	}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if err := site.CheckPath(name); err != nil {
			os.RemoveAll(tmp)
			return err
		}
		p := filepath.Join(tmp, filepath.FromSlash(name))
		err := os.MkdirAll(filepath.Dir(p), 0o755)
		if err == nil {
			err = writeFile(p, files[name], 0o644)
		}
		if err != nil {
			os.RemoveAll(tmp)
			return fmt.Errorf("%s: %w", filepath.Join(dest, filepath.FromSlash(name)), err)
		}
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		os.RemoveAll(tmp)
		return err
	}
	if err := os.Rename(tmp, dest); err != nil {
		os.RemoveAll(tmp)
		return err
	}
	return nil
}

// mkdirAll makes dir and the folders above it that are missing; it returns
// those it made, the deepest first.
func mkdirAll(dir string) ([]string, error) {
	var missing []string
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		if _, err := os.Lstat(d); err == nil || filepath.Dir(d) == d {
			break
		}
		missing = append(missing, d)
	}
	return missing, os.MkdirAll(dir, 0o755)
}

// removeMade removes the folders mkdirAll made, if they are empty.
func removeMade(made []string) {
	for _, d := range made {
		if err := os.Remove(d); err != nil && !os.IsNotExist(err) {
			return // not empty: not Write's alone
		}
	}
}

func encode(n *yaml.Node) ([]byte, error) {
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(n); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// node builders

type mapNode struct{ n *yaml.Node }

func newMap() mapNode { return mapNode{&yaml.Node{Kind: yaml.MappingNode}} }

func (m mapNode) add(key string, v *yaml.Node) {
	m.n.Content = append(m.n.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: key}, v)
}

func str(s string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
	if strings.Contains(s, "\n") {
		n.Style = yaml.LiteralStyle
	}
	return n
}

// quoted is a string always written in double quotes (printed figures).
func quoted(s string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s, Style: yaml.DoubleQuotedStyle}
}

func integer(i int) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.Itoa(i)}
}

func boolean(b bool) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(b)}
}

func flow(items []string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
	for _, it := range items {
		n.Content = append(n.Content, str(it))
	}
	return n
}

func seq() *yaml.Node { return &yaml.Node{Kind: yaml.SequenceNode} }

func (s *Study) studyNode() *yaml.Node {
	top := newMap()
	if s.Kind != "" {
		top.add("kind", str(s.Kind))
		if s.Model != "" {
			top.add("model", str(s.Model))
		}
		top.add("claims", s.claimsNode())
		return top.n
	}
	top.add("model", str(s.Model))
	hw := newMap()
	hw.add("gpu", str(s.GPU))
	hw.add("gpus_per_node", integer(s.GPUsPerNode))
	hw.add("nodes", integer(s.Nodes))
	top.add("hardware", hw.n)
	top.add("objective", str(s.Objective))
	engines := seq()
	for _, e := range s.Engines {
		m := newMap()
		m.add("id", str(e.ID))
		m.add("name", str(e.Name))
		m.add("version", str(e.Version))
		engines.Content = append(engines.Content, m.n)
	}
	top.add("engines", engines)
	b := newMap()
	b.add("tool", str(s.Tool))
	if s.Commands != "" {
		b.add("commands", str(s.Commands+"\n"))
	}
	top.add("benchmark", b.n)
	if s.SourceTitle != "" {
		src := newMap()
		src.add("title", str(s.SourceTitle))
		if s.SourceURL != "" {
			src.add("url", str(s.SourceURL))
		}
		top.add("source", src.n)
	}
	ws := seq()
	for _, w := range s.Workloads {
		m := newMap()
		m.add("id", str(w.ID))
		m.add("dataset", str(w.Dataset))
		if w.Dataset == "random" {
			m.add("input_len", integer(w.InputLen))
			m.add("output_len", integer(w.OutputLen))
		}
		if w.NumPrompts > 0 {
			m.add("num_prompts", integer(w.NumPrompts))
		}
		if w.Seed != nil {
			m.add("seed", integer(*w.Seed))
		}
		if w.MaxConcurrency != nil {
			m.add("max_concurrency", integer(*w.MaxConcurrency))
		}
		if w.Command != "" {
			m.add("command", str(w.Command))
		}
		if w.Main {
			m.add("main", boolean(true))
		}
		ws.Content = append(ws.Content, m.n)
	}
	top.add("workloads", ws)
	top.add("baseline", flow(s.Baseline))
	top.add("recommended", flow(s.Recommended))
	steps := seq()
	for _, st := range s.Steps {
		m := newMap()
		m.add("id", str(st.ID))
		m.add("runs", flow(st.Runs))
		if len(st.Runs) > 0 {
			m.add("reference", str(st.Reference))
		}
		steps.Content = append(steps.Content, m.n)
	}
	top.add("steps", steps)
	if len(s.Claims) > 0 {
		top.add("claims", s.claimsNode())
	}
	return top.n
}

func (s *Study) claimsNode() *yaml.Node {
	cs := seq()
	for _, c := range s.Claims {
		m := newMap()
		m.add("kind", str(c.Kind))
		if c.Workload != "" {
			m.add("workload", str(c.Workload))
		}
		if c.Step != "" {
			m.add("step", str(c.Step))
		}
		if c.Config != "" {
			m.add("config", str(c.Config))
		}
		if c.Run != "" {
			m.add("run", str(c.Run))
		}
		if c.From != "" {
			m.add("from", quoted(c.From))
			m.add("to", quoted(c.To))
		}
		if c.Compare != "" {
			m.add("compare", str(c.Compare))
		}
		if c.Better != "" {
			m.add("better", str(c.Better))
		}
		m.add("printed", quoted(c.Printed))
		m.add("source", quoted(fmt.Sprintf("%s:%d", s.Source, c.Line)))
		cs.Content = append(cs.Content, m.n)
	}
	return cs
}

func (r *Run) node() *yaml.Node {
	m := newMap()
	m.add("name", str(r.Name))
	m.add("engine", str(r.Engine))
	m.add("command", str(r.Command))
	if r.Derived {
		m.add("command_derived", boolean(true))
	}
	if r.Parameters != "" {
		m.add("parameters", str(r.Parameters))
	}
	m.add("gpus", integer(r.GPUs))
	if r.Error != "" {
		m.add("error", str(r.Error))
	}
	if r.Line > 0 {
		src := fmt.Sprintf("%s:%d", r.source, r.Line)
		for _, n := range r.alsoAt {
			src += fmt.Sprintf(", %s:%d", r.source, n)
		}
		m.add("source", quoted(src))
	}
	return m.n
}
