package benchlog

import (
	"bytes"
	"fmt"
)

// A result pasted without its top: a bench serve table whose banner and
// counts were cut (it starts at a "----Time to First Token----" section),
// or a trtllm-bench PERFORMANCE OVERVIEW without its "= PERFORMANCE
// OVERVIEW" title. What is left is read as the tool printed it, with a
// problem on its first line that says it was cut, so a duration or a count
// it lacks is not taken from anywhere else.

// cutSections are the section titles of vLLM's and SGLang's serving tables
// (benchmark_serving.py process_one_metric and its fixed sections).
var cutSections = map[string]bool{
	"time to first token":                     true,
	"time per output token (excl. 1st token)": true,
	"inter-token latency":                     true,
	"end-to-end latency":                      true,
	"time to first token (ms)":                true,
	"request latency":                         true,
}

// cutStartLabels are the rows of a serving table, units included, below
// its counts: a table cut above one of them opens there.
var cutStartLabels = []string{
	"Benchmark duration (s)",
	"Total input tokens",
	"Total generated tokens",
	"Request throughput (req/s)",
	"Input token throughput (tok/s)",
	"Output token throughput (tok/s)",
	"Total Token throughput (tok/s)",
}

func isCutStartLabel(label []byte) bool {
	for _, l := range cutStartLabels {
		if string(label) == l {
			return true
		}
	}
	return false
}

// cutTopStart opens a block at a line outside any block that only a cut
// result starts with.
func (s *Scanner) cutTopStart(text []byte) bool {
	switch {
	case len(text) > 8 && text[0] == '-' && text[1] == '-' && text[2] == '-':
		title := bytes.Trim(text, "- \t")
		if !cutSections[normLabel(title)] {
			return false
		}
		s.begin(false)
		s.marks.headered, s.marks.cutTop = true, true
		s.norm = appendNorm(s.norm[:0], title)
		return true
	case text[0] == 'R' && bytes.HasPrefix(text, []byte("Request Throughput (req/sec):")):
		t := &benchState{blk: &Block{File: s.name, Line: s.line, EndLine: s.line, Metrics: map[string]Metric{}}}
		s.rd = t
		s.benchSection("PERFORMANCE OVERVIEW")
		t.titled = false
		t.blk.Problems = append(t.blk.Problems, cutTopProblem(s.name, s.line, "trtllm-bench report", `"= PERFORMANCE OVERVIEW" title`))
		s.benchLine(text)
		return true
	}
	return false
}

// cutTopKept reports whether a block without banner that opened at a
// section line is a result: closed by its rule, every label ours.
func (s *Scanner) cutTopKept(b *Block, truncated bool) bool {
	if !s.marks.cutTop || truncated || s.known < 3 || s.unknown > 0 {
		return false
	}
	b.Problems = append(b.Problems, cutTopProblem(s.name, b.Line, "result table", "banner and request counts"))
	return true
}

func cutTopProblem(file string, line int, what, lost string) *SyntaxError {
	return &SyntaxError{File: file, Line: line,
		Msg: fmt.Sprintf("%s cut at the top (no %s); read from here, nothing of what was cut is guessed", what, lost)}
}
