package benchlog

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// A Benchmark Report written as YAML (llm-d-benchmark's default, keys in
// alphabetical order, so "results:" first) is read whole with yaml.v3: its
// scalars, with their lines, feed the same block as the JSON report's.

// maxReportYAML bounds a YAML report read into memory (a log's own limit).
const maxReportYAML = 64 << 20

var brYAMLStart = regexp.MustCompile(`^(results|run|scenario|version):(\s|$)`)

// hasTopKey says whether a line of data starts with "key:", to tell a
// report with a YAML error (it has results: and version:) from a log.
func hasTopKey(data []byte, key string) bool {
	k := []byte(key + ":")
	return bytes.HasPrefix(data, k) || bytes.Contains(data, append([]byte{'\n'}, k...))
}

// looksBenchReportYAML says whether the first line of an input that is not
// blank or a comment opens a Benchmark Report in YAML.
func looksBenchReportYAML(buf []byte) bool {
	for len(buf) > 0 {
		line := buf
		if k := bytes.IndexByte(buf, '\n'); k >= 0 {
			line, buf = buf[:k], buf[k+1:]
		} else {
			buf = nil
		}
		t := bytes.TrimRight(line, " \t\r")
		if len(t) == 0 || t[0] == '#' || string(t) == "---" {
			continue
		}
		return brYAMLStart.Match(t)
	}
	return false
}

// scanBenchReportYAML reads the whole input as one YAML report. An input
// that is not a YAML mapping with a report's parts (a log whose first line
// happens to read "version: 2") is read as a log instead.
func (s *Scanner) scanBenchReportYAML() {
	data, err := io.ReadAll(io.LimitReader(s.r, maxReportYAML+1))
	if err != nil {
		s.eof, s.err = true, fmt.Errorf("%s: %w", s.name, err)
		return
	}
	var doc yaml.Node
	var kvs []jsonKV
	if len(data) <= maxReportYAML {
		if err := yaml.Unmarshal(data, &doc); err != nil {
			if hasTopKey(data, "results") && hasTopKey(data, "version") {
				s.eof, s.err = true, &SyntaxError{File: s.name, Line: yamlErrorLine(err), Msg: "invalid YAML in a Benchmark Report: " + err.Error()}
				return
			}
		} else if len(doc.Content) > 0 && doc.Content[0].Kind == yaml.MappingNode {
			yamlScalars(doc.Content[0], "", 0, &kvs)
		}
	}
	has := make(map[string]bool, len(kvs))
	version, end, parts := "", 1, false
	for _, kv := range kvs {
		has[kv.path] = true
		end = max(end, kv.line)
		if kv.path == "version" {
			version = kv.raw
		}
		parts = parts || strings.HasPrefix(kv.path, "results.") || strings.HasPrefix(kv.path, "metrics.")
	}
	if version == "" || !has["run.uid"] && !parts {
		s.r, s.input = bufio.NewReader(bytes.NewReader(data)), inputText
		return
	}
	s.eof = true
	if !isBenchReport(has, version) {
		s.err = &SyntaxError{File: s.name, Line: doc.Content[0].Line,
			Msg: fmt.Sprintf("this YAML is not a Benchmark Report v0.2 or v0.2.1 (version %q, run.uid %s): perflab reads only those versions of llm-d's schema", version, present(has["run.uid"]))}
		return
	}
	s.outq = append(s.outq, benchReportBlock(s.name, doc.Content[0].Line, end, FormatBenchReportYAML, kvs))
}

func present(ok bool) string {
	if ok {
		return "present"
	}
	return "missing"
}

// yamlScalars collects the scalars of a mapping by dotted path, as the
// JSON reader keeps them; sequences are skipped, as are aliases (a report
// has none, and an alias could repeat a large node many times).
func yamlScalars(n *yaml.Node, path string, depth int, out *[]jsonKV) {
	if depth > maxJSONNesting || len(*out) >= maxJSONScalars {
		return
	}
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i].Value
			if path != "" {
				k = path + "." + k
			}
			yamlScalars(n.Content[i+1], k, depth+1, out)
		}
	case yaml.ScalarNode:
		kv := jsonKV{path: path, raw: n.Value, line: n.Line}
		switch n.Tag {
		case "!!null":
			kv.raw = "null"
		case "!!str", "!!timestamp", "!!binary":
			kv.str = true
		}
		*out = append(*out, kv)
	}
}

var yamlLineRE = regexp.MustCompile(`line ([0-9]+)`)

// yamlErrorLine finds the line a yaml.v3 error names; 1 when none.
func yamlErrorLine(err error) int {
	if m := yamlLineRE.FindStringSubmatch(err.Error()); m != nil {
		if n, e := strconv.Atoi(m[1]); e == nil && n > 0 {
			return n
		}
	}
	return 1
}

// inputBenchReportYAML is a Benchmark Report in YAML (sniff).
const inputBenchReportYAML inputKind = 100
