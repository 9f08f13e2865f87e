package yamlfile

import (
	"fmt"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// linearYAMLError is the definition yamlError implements: the first line
// at which a prefix of the document fails with the whole document's message.
func linearYAMLError(data []byte, err error) int {
	msg := yamlMessage(err)
	ends := lineEnds(data)
	for i, end := range ends {
		var doc yaml.Node
		if perr := yaml.Unmarshal(data[:end], &doc); perr != nil && yamlMessage(perr) == msg {
			return i + 1
		}
	}
	return -1
}

// compareWithLinear fails when yamlError's line is not where a prefix of
// the document starts failing with the whole document's message (line 1,
// or a line whose prefix fails when the one before it does not). When
// the prefixes fail from some line on and not before, that line is the
// only answer, the linear search's; otherwise ("0: \"0\n00 0 \"0\n\"",
// where line 1 fails alone and the error is line 3's open quote) any such
// line is one the binary search may find.
func compareWithLinear(t *testing.T, doc string) {
	t.Helper()
	data := []byte(doc)
	var n yaml.Node
	err := yaml.Unmarshal(data, &n)
	if err == nil {
		return
	}
	got, _ := yamlError(data, err)
	want := linearYAMLError(data, err)
	if want <= 0 {
		return
	}
	msg, ends := yamlMessage(err), lineEnds(data)
	fails := func(line int) bool {
		var doc yaml.Node
		perr := yaml.Unmarshal(data[:ends[line-1]], &doc)
		return perr != nil && yamlMessage(perr) == msg
	}
	monotone := true
	for line := want; line <= len(ends); line++ {
		monotone = monotone && fails(line)
	}
	switch {
	case monotone && got != want:
		t.Errorf("%q: line %d, the linear search says %d", doc, got, want)
	case got < 1 || got > len(ends) || !fails(got) || (got > 1 && fails(got-1)):
		t.Errorf("%q: line %d is not where the prefixes start failing", doc, got)
	}
}

func TestYAMLErrorMatchesLinearSearch(t *testing.T) {
	docs := []string{
		"a: 1\nb: [1, 2\nc: 3\n",
		"a: 1\n\tb: 2\n",
		"a:\n  b: 1\n    c: 2\n",
		"a: \"open\nb: 2\nc: 3\n",
		"a: {x: 1\nb: 2\n",
		"- a\n- b\nc: d\n",
		"a: 1\nb: 2\nc: [\n  1,\n  2\nd: 4",
		"key: value\n---\n- x\n  : y\n",
		"a: &x 1\nb: *y\n",
		"a: 1\na: 2\n",
		"0: \"0\n00 0 \"0\n\"", // found by FuzzYAMLError: line 1 fails alone
	}
	for _, doc := range docs {
		compareWithLinear(t, doc)
	}
}

// A syntax error deep in a long file is found on its line; the linear
// search this replaced parsed 20,000 prefixes and never finished.
func TestYAMLErrorLongFile(t *testing.T) {
	const lines = 20000
	var b strings.Builder
	b.WriteString("items:\n")
	for i := 2; i < lines; i++ {
		fmt.Fprintf(&b, "  - name: item%d\n", i)
	}
	b.WriteString("  - name: [broken\n")
	data := []byte(b.String())
	var n yaml.Node
	err := yaml.Unmarshal(data, &n)
	if err == nil {
		t.Fatal("the document should not parse")
	}
	if line, msg := yamlError(data, err); line != lines {
		t.Errorf("line %d (%s), want %d", line, msg, lines)
	}
}

func BenchmarkYAMLErrorLongFile(b *testing.B) {
	var s strings.Builder
	s.WriteString("items:\n")
	for i := 0; i < 20000; i++ {
		fmt.Fprintf(&s, "  - name: item%d\n", i)
	}
	s.WriteString("  - name: [broken\n")
	data := []byte(s.String())
	var n yaml.Node
	err := yaml.Unmarshal(data, &n)
	for b.Loop() {
		yamlError(data, err)
	}
}

// FuzzYAMLError compares the binary search with the linear definition.
func FuzzYAMLError(f *testing.F) {
	for _, s := range []string{"a: 1\nb: [1, 2\nc: 3\n", "a:\n  b: 1\n    c: 2\n", "a: \"x\nb: 2\n", "- a\n- b\nc: d\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		if len(doc) > 2000 {
			return
		}
		compareWithLinear(t, doc)
	})
}
