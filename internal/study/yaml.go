package study

import (
	"strings"
	"unicode/utf8"

	"github.com/perflab/perflab/internal/yamlfile"
	"gopkg.in/yaml.v3"
)

// walkScalars reports and cuts every scalar longer than maxText, wherever
// it is in the document, so that no later step copies it, and keeps the
// values marked as guessed.
func (l *loader) walkScalars(file string, n *yaml.Node) {
	if n.Kind == yaml.ScalarNode && len(n.Value) > maxText {
		l.problem(Pos{file, n.Line}, "a value of %d bytes; the limit is %d: shorten it", len(n.Value), maxText)
		n.Value = truncate(n.Value, maxText)
	}
	for i, c := range n.Content {
		l.walkScalars(file, c)
		if n.Kind != yaml.MappingNode || i%2 == 0 {
			continue
		}
		key := n.Content[i-1]
		for _, comment := range []string{c.LineComment, key.LineComment} {
			if text, ok := guessComment(comment); ok {
				g := Guess{Pos: Pos{file, key.Line}, Key: truncate(key.Value, 100), Comment: text}
				if c.Kind == yaml.ScalarNode {
					g.Value = truncate(firstLine(c.Value), 100)
				}
				l.guesses = append(l.guesses, g)
				break
			}
		}
	}
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " ..."
	}
	return s
}

// guessComment is the text of a comment perflab add or record writes
// beside a value it inferred: "# guessed from ...".
func guessComment(comment string) (string, bool) {
	c := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(comment), "#"))
	if !strings.HasPrefix(strings.ToLower(c), "guessed") {
		return "", false
	}
	return truncate(c, 300), true
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
		l.walkScalars(file, n)
	}
	return n
}

// parseYAMLTree parses with yaml.v3. A hand-written parser of the simple
// YAML of study.yaml and run.yaml used to stand in front of it: it saved
// some 8 % of the CPU of a 1,000-study build, under the 20 % that would
// justify keeping a copy of the library.
func (l *loader) parseYAMLTree(file string, data []byte) *yaml.Node {
	n, errs := yamlfile.Parse(data)
	for _, e := range errs {
		l.problem(Pos{file, e.Line}, "%s", e.Msg)
	}
	if errs != nil {
		return nil
	}
	if n == nil {
		l.problem(Pos{file, 1}, "the file is empty")
		return nil
	}
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
