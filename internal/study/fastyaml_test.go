package study

import (
	"bytes"
	"fmt"
	"io/fs"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"
)

// Every YAML file the loader parses in this package's tests is parsed by
// both paths, and a difference is a crash: the fast path must build
// yaml.v3's tree or step aside.
func init() {
	checkFastYAML = func(data []byte, fast *yaml.Node) {
		if msg := compareFast(data, fast); msg != "" {
			panic(fmt.Sprintf("fastYAML differs from yaml.v3 on %q: %s", data, msg))
		}
	}
}

// referenceYAML is what parseYAML gets from yaml.v3: the top-level node, or
// an error.
func referenceYAML(data []byte) (*yaml.Node, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	if len(doc.Content) == 0 {
		return nil, fmt.Errorf("empty document")
	}
	return doc.Content[0], nil
}

// compareFast returns "" when fast is nil or the same tree as yaml.v3's.
func compareFast(data []byte, fast *yaml.Node) string {
	if fast == nil {
		return ""
	}
	ref, err := referenceYAML(data)
	if err != nil {
		return "fast path built a tree, yaml.v3 says: " + err.Error()
	}
	return diffNodes(ref, fast, "$")
}

// diffNodes compares what the loader reads of a node: Kind, Tag, Value,
// Style, Line, Column and Content, recursively.
func diffNodes(want, got *yaml.Node, at string) string {
	if want.Kind != got.Kind || want.Tag != got.Tag || want.Value != got.Value || want.Style != got.Style ||
		want.Line != got.Line || want.Column != got.Column || len(want.Content) != len(got.Content) {
		return fmt.Sprintf("at %s: yaml.v3 {Kind %d Tag %s Value %q Style %d Line %d Column %d, %d children}, fast {Kind %d Tag %s Value %q Style %d Line %d Column %d, %d children}",
			at, want.Kind, want.Tag, want.Value, want.Style, want.Line, want.Column, len(want.Content),
			got.Kind, got.Tag, got.Value, got.Style, got.Line, got.Column, len(got.Content))
	}
	for i := range want.Content {
		if d := diffNodes(want.Content[i], got.Content[i], fmt.Sprintf("%s[%d]", at, i)); d != "" {
			return d
		}
	}
	return ""
}

// fastPath parses data with the fast path alone (not through the hook).
func fastPath(data []byte) *yaml.Node {
	hook := checkFastYAML
	checkFastYAML = nil
	defer func() { checkFastYAML = hook }()
	return fastYAML(data)
}

// repoYAML returns the repository's study and run files: results/, the
// build test data and the importer's golden studies (files of the form
// "-- path --" sections).
func repoYAML(t testing.TB) map[string][]byte {
	root := filepath.Join("..", "..")
	files := map[string][]byte{}
	for _, dir := range []string{"results", "internal/build/testdata", "internal/importer/testdata"} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			switch {
			case strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml"):
				files[p] = data
			case strings.HasSuffix(p, ".golden"):
				for name, part := range goldenSections(data) {
					if strings.HasSuffix(name, ".yaml") {
						files[p+":"+name] = part
					}
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return files
}

// goldenSections splits a golden file of "-- name --" sections.
func goldenSections(data []byte) map[string][]byte {
	out := map[string][]byte{}
	name := ""
	var buf []byte
	for _, ln := range bytes.SplitAfter(data, []byte("\n")) {
		s := strings.TrimRight(string(ln), "\n")
		if strings.HasPrefix(s, "-- ") && strings.HasSuffix(s, " --") {
			if name != "" {
				out[name] = buf
			}
			name, buf = s[3:len(s)-3], nil
			continue
		}
		buf = append(buf, ln...)
	}
	if name != "" {
		out[name] = buf
	}
	return out
}

func TestFastYAMLRepositoryFiles(t *testing.T) {
	files := repoYAML(t)
	if len(files) < 40 {
		t.Fatalf("found only %d YAML files", len(files))
	}
	fast := 0
	for name, data := range files {
		n := fastPath(data)
		if d := compareFast(data, n); d != "" {
			t.Errorf("%s: %s", name, d)
		}
		if n != nil {
			fast++
		} else if _, err := referenceYAML(data); err == nil && !bytes.Contains(data, []byte(`\`)) {
			// Every valid study and run file of the repository takes the
			// fast path, or the speed-up is lost; only double-quoted
			// strings with escapes are left to yaml.v3.
			t.Errorf("%s: valid, but the fast path fell back", name)
		}
	}
	t.Logf("%d files, %d on the fast path", len(files), fast)
}

// TestFastYAMLDir compares both paths on every YAML file under
// $PERFLAB_FASTYAML_DIR (a generated tree, say), when set.
func TestFastYAMLDir(t *testing.T) {
	dir := os.Getenv("PERFLAB_FASTYAML_DIR")
	if dir == "" {
		t.Skip("PERFLAB_FASTYAML_DIR is not set")
	}
	n, fast := 0, 0
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".yaml") {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		n++
		f := fastPath(data)
		if f != nil {
			fast++
		}
		if d := compareFast(data, f); d != "" {
			t.Errorf("%s: %s", p, d)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d files, %d on the fast path", n, fast)
}

// fastSnippets are inputs for the fast path; fast says it must not fall back.
var fastSnippets = []struct {
	name, yaml string
	fast       bool
}{
	{"run", "name: SGLang\nengine: sglang\ncommand: python3 -m sglang.launch_server --tp-size 8\ngpus: 8\n", true},
	{"no final newline", "name: a\ngpus: 8", true},
	{"colon in value", "command: vllm serve a:b\nurl: http://x.org/a:b\n", true},
	{"colon space in value", "command: vllm serve a: b\n", false},
	{"colon at end", "command: a:\n", false},
	{"url with hash", "source: https://example.org/page#section\n", true},
	{"trailing comment", "gpus: 8 # guessed from the command: check\nname: a#b # c#d\n", true},
	{"comment after quote", "name: 'a' # c\nother: \"b\"   # d\n", true},
	{"hash in quotes", "name: 'a # b'\nother: \"c # d\"\n", true},
	{"quote no space comment", "name: 'a'#c\n", false},
	{"single quote escape", "key: 'it''s'\nk2: ''''\nk3: ''\n", true},
	{"double quoted", "printed: \"+59.2%\"\nsource: \"qwen3.md:19\"\nempty: \"\"\n", true},
	{"double quoted escape", "printed: \"a\\tb\"\n", false},
	{"unclosed quote", "printed: \"a\n", false},
	{"multi-line quote", "printed: 'a\n  b'\n", false},
	{"empty values", "a:\nb:   \nc: # c\nd:\n", true},
	{"empty value then seq", "a:\n  - x\nb:\n", true},
	{"empty then deeper", "a:\n  b:\n    c:\n  d: 1\ne: 2\n", true},
	{"null forms", "a: ~\nb: null\nc: Null\nd: NULL\ne: nil\n", true},
	{"bools", "a: true\nb: false\nc: True\nd: FALSE\ne: yes\nf: no\ng: on\nh: tRue\n", true},
	{"ints", "a: 8\nb: -3\nc: +4\nd: 0\ne: 007\nf: 0x1F\ng: 0o17\nh: 1_000\ni: 99999999999999999999\nj: 0b101\n", true},
	{"floats", "a: 1.5\nb: .5\nc: 1e3\nd: .inf\ne: -.Inf\nf: .nan\ng: 1.2.3\nh: -\n", false},
	{"floats without dash", "a: 1.5\nb: .5\nc: 1e3\nd: .inf\ne: -.Inf\nf: .nan\ng: 1.2.3\nh: v0.11.0\ni: 0.5.5.post1\n", true},
	{"leading zeros", "a: 08\nb: 010\nc: -09\nd: 0\ne: -0\nf: 0_8\n", true},
	{"timestamp", "date: 2024-01-02\n", false},
	{"year", "year: 2024\n", true},
	{"dash values", "a: -tp\nb: --foo\nc: -3x\n", true},
	{"dash space", "a: - b\n", false},
	{"flow sequences", "a: [x, y-z, w]\nb: []\nc: [ 1 , two words ]\nd: [a] # c\n", true},
	{"flow trailing comma", "a: [x, y,]\n", false},
	{"flow multi-line", "a: [x,\n  y]\n", false},
	{"flow quoted", "a: ['x', y]\n", false},
	{"flow nested", "a: [[x], y]\n", false},
	{"flow mapping", "a: {x: 1}\n", false},
	{"sequences of mappings", "engines:\n  - id: vllm\n    name: vLLM\n  - id: sglang\n    version: v0.5.5.post1\nbaseline: [vllm]\n", true},
	{"sequence of scalars", "a:\n  - x\n  - 'y'\n  - \"z\"\n  - 8\n  - [p, q]\n", true},
	{"deeper indentation", "a:\n      b:\n         - c: 1\n           d:\n             e: 2\n      f: 3\n", true},
	{"wide dash", "a:\n  -   id: x\n      name: y\n", true},
	{"nested mapping values", "acknowledged:\n  - rule: trade-off\n    subject: conclusion/*\n    reason:\n      en: \"x\"\n      zh: \"推荐配置\"\n", true},
	{"indentless sequence", "a:\n- x\n- y\n", false},
	{"inconsistent indentation", "a:\n    b: 1\n  c: 2\n", false},
	{"continued plain", "a: one\n  two\nb: 3\n", false},
	{"continued plain after blank", "a: one\n\n  two\n", false},
	{"deeper comment", "a: one\n    # comment\nb: 2\n", true},
	{"comments and blank lines", "# head\n\n# more\na: 1 # c\n\n   # indented\nb:\n  # inside\n  c: 2\n# end\n", true},
	{"duplicate keys", "name: a\nname: b\nx:\n  y: 1\n  y: 2\n", true},
	{"unknown keys", "Name: a\nsome_key: b\nsome.key: c\nsome-key: d\nsome/key: e\n1: f\ntrue: g\nnull: h\n", true},
	{"key with space", "some key: a\n", false},
	{"quoted key", "'a': b\n", false},
	{"merge key", "<<: a\n", false},
	{"merge value", "a: <<\n", false},
	{"literal", "commands: |\n  line one\n  line two\nnext: x\n", true},
	{"literal strip", "commands: |-\n  line one\n  line two\nnext: x\n", true},
	{"literal keep", "commands: |+\n  line one\n\n\nnext: x\n", true},
	{"literal blank lines", "commands: |\n  # not a comment\n\n  vllm serve a:b # not a comment\n\n\n    deeper\n   \n        \nnext: x\n", true},
	{"literal trailing newlines", "a: |\n  x\n\n\n", true},
	{"literal keep at end", "a: |+\n  x\n\n\n", true},
	{"literal strip at end", "a: |-\n  x\n\n", true},
	{"literal no final newline", "a: |\n  x", true},
	{"literal empty", "a: |\nb: 1\n", true},
	{"literal empty at end", "a: |\n", true},
	{"literal header comment", "a: |- # guessed from LOG:1: check\n  trtllm-serve example-org/Example-8B-FP8 \\\n      --tp_size 4\n", true},
	{"literal in sequence", "a:\n  - |\n    x\n    y\n  - b\n", true},
	{"literal in sequence mapping", "steps:\n  - id: a\n    text: |\n      x\n\n      y\n    ref: b\n", true},
	{"literal leading blank lines", "a: |\n\n\n  x\n", true},
	{"literal leading spaces more", "a: |\n      \n  x\n", false},
	{"literal less indented line", "a:\n  b: |\n      x\n    y\n", false},
	{"literal comment after", "a: |\n  x\n # c\nb: 1\n", true},
	{"literal explicit indent", "a: |2\n   x\n", false},
	{"folded", "a: >\n  x\n  y\n", false},
	{"literal top level zero indent", "a: |\nx\n", false},
	{"crlf", "name: a\r\nlist: [x, y]\r\ncmd: |\r\n  one\r\n\r\n  two\r\nq: 'b'\r\n", true},
	{"lone cr", "name: a\rb: c\n", false},
	{"tabs", "name:\ta\n", false},
	{"document marker", "---\na: 1\n", false},
	{"document end", "a: 1\n...\n", false},
	{"second document", "a: 1\n---\nb: 2\n", false},
	{"anchor", "a: &x 1\nb: *x\n", false},
	{"tag", "a: !!str 1\n", false},
	{"top-level sequence", "- a\n- b\n", false},
	{"top-level scalar", "hello\n", false},
	{"empty", "", false},
	{"only comments", "# a\n# b\n", false},
	{"indented top level", "  a: 1\n  b: 2\n", false},
	{"bom", "\ufeffa: 1\n", false},
	{"unicode", "name: 中文 — ok\n", true},
	{"nel", "name: a\u0085b\n", false},
	{"value then less indented junk", "a:\n  b: 1\n c: 2\n", false},
	{"complex key", "? a\n: b\n", false},
	{"plain with brackets", "printed: SGLang(4635.31 tok/s) > vLLM [x] {y}, z\n", true},
	{"plain starting with indicator", "a: @x\n", false},
	{"seq item empty", "a:\n  -\n  - x\n", false},
	{"seq item nested seq", "a:\n  - - x\n", false},
	{"seq then key at seq column", "a:\n  - x\n  b: 1\n", false},
	{"long key", "a" + strings.Repeat("b", 200) + ": 1\n", false},
}

func TestFastYAMLSnippets(t *testing.T) {
	for _, tc := range fastSnippets {
		data := []byte(tc.yaml)
		n := fastPath(data)
		if d := compareFast(data, n); d != "" {
			t.Errorf("%s: %s", tc.name, d)
		}
		if tc.fast && n == nil {
			t.Errorf("%s: the fast path fell back", tc.name)
		}
		if !tc.fast && n != nil {
			t.Errorf("%s: the fast path took an input it should leave to yaml.v3", tc.name)
		}
	}
}

// TestFastYAMLEncoded parses what yaml.v3's encoder writes (as the importer
// and perflab add do, head and line comments included) for random trees.
func TestFastYAMLEncoded(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	words := []string{"a", "vllm serve a:b", "x: y", "it's", "say \"hi\"", "#", "a #b", "a#b", "http://x.org/p#q",
		"", " ", "8", "-3", "1.5", "true", "True", "yes", "null", "~", "2024-01-02", "line\nline", "line\n\nline\n",
		"trailing\n\n", " lead", "tail ", "[x]", "{y}", "- z", "? q", "中文", "tab\there", "back\\slash", "0x10", "1_000",
		"--max-num-batched-tokens 4096", "\\\n    --tp 4", "a: |", "'", "\"", ",", "&a", "*b", "!t", "%p", "@q", "`r"}
	var gen func(depth int) *yaml.Node
	gen = func(depth int) *yaml.Node {
		switch r := rng.Intn(10); {
		case depth < 3 && r < 3:
			m := &yaml.Node{Kind: yaml.MappingNode}
			for i := rng.Intn(4); i >= 0; i-- {
				k := &yaml.Node{Kind: yaml.ScalarNode, Value: fmt.Sprintf("key_%d", rng.Intn(5))}
				v := gen(depth + 1)
				if rng.Intn(4) == 0 {
					v.LineComment = "guessed from " + words[rng.Intn(len(words))] + ": check"
				}
				m.Content = append(m.Content, k, v)
			}
			return m
		case depth < 3 && r < 5:
			s := &yaml.Node{Kind: yaml.SequenceNode}
			if rng.Intn(2) == 0 {
				s.Style = yaml.FlowStyle
			}
			for i := rng.Intn(4); i > 0; i-- {
				if s.Style == yaml.FlowStyle {
					s.Content = append(s.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: words[rng.Intn(len(words))]})
				} else {
					s.Content = append(s.Content, gen(depth+1))
				}
			}
			return s
		default:
			n := &yaml.Node{Kind: yaml.ScalarNode, Value: words[rng.Intn(len(words))]}
			if rng.Intn(3) == 0 {
				n.Value += " " + words[rng.Intn(len(words))]
			}
			switch rng.Intn(5) {
			case 0:
				n.Style = yaml.LiteralStyle
			case 1:
				n.Style = yaml.DoubleQuotedStyle
			case 2:
				n.Style = yaml.SingleQuotedStyle
			}
			return n
		}
	}
	fast := 0
	const rounds = 5000
	for i := 0; i < rounds; i++ {
		top := &yaml.Node{Kind: yaml.MappingNode}
		for j := rng.Intn(5); j >= 0; j-- {
			top.Content = append(top.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: fmt.Sprintf("field%d", j)}, gen(1))
		}
		doc := &yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{top}}
		if rng.Intn(2) == 0 {
			doc.HeadComment = "Written by perflab add.\nx.log: copied from " + words[rng.Intn(len(words))]
		}
		var buf bytes.Buffer
		enc := yaml.NewEncoder(&buf)
		enc.SetIndent(2)
		if err := enc.Encode(doc); err != nil {
			continue
		}
		enc.Close()
		n := fastPath(buf.Bytes())
		if n != nil {
			fast++
		}
		if d := compareFast(buf.Bytes(), n); d != "" {
			t.Fatalf("%q: %s", buf.Bytes(), d)
		}
	}
	t.Logf("%d encoded documents, %d on the fast path", rounds, fast)
	if fast < rounds/10 {
		t.Errorf("only %d of %d documents took the fast path", fast, rounds)
	}
}

// FuzzFastYAML: whenever the fast path builds a tree, yaml.v3 parses the
// input and builds the same tree.
func FuzzFastYAML(f *testing.F) {
	for _, tc := range fastSnippets {
		f.Add([]byte(tc.yaml))
	}
	for _, data := range repoYAML(f) {
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		done := make(chan string, 1)
		go func() { done <- compareFast(data, fastPath(data)) }()
		select {
		case d := <-done:
			if d != "" {
				t.Fatal(d)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("the fast path and yaml.v3 run for more than 5 s on %q (fast path alone: %v)", data, fastPath(data) != nil)
		}
	})
}

// BenchmarkParseYAML parses every study and run file of the repository, with
// yaml.v3 alone (as before the fast path) and as parseYAML does now.
func BenchmarkParseYAML(b *testing.B) {
	var inputs [][]byte
	size := 0
	for _, data := range repoYAML(b) {
		inputs = append(inputs, data)
		size += len(data)
	}
	hook := checkFastYAML
	checkFastYAML = nil
	defer func() { checkFastYAML = hook }()
	b.Run("yaml.v3", func(b *testing.B) {
		b.SetBytes(int64(size))
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			for _, data := range inputs {
				var doc yaml.Node
				yaml.Unmarshal(data, &doc)
			}
		}
	})
	// The fast path alone, on the files it takes (all but those with
	// backslash escapes).
	b.Run("fastYAML", func(b *testing.B) {
		var taken [][]byte
		size := 0
		for _, data := range inputs {
			if fastYAML(data) != nil {
				taken = append(taken, data)
				size += len(data)
			}
		}
		b.SetBytes(int64(size))
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			for _, data := range taken {
				fastYAML(data)
			}
		}
	})
	b.Run("parseYAML", func(b *testing.B) {
		b.SetBytes(int64(size))
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			for _, data := range inputs {
				l := &loader{}
				l.parseYAML("f", data)
			}
		}
	})
}
