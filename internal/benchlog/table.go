package benchlog

import (
	"bytes"
	"strconv"
	"strings"
	"unicode/utf8"
)

// A rich console table of GenAI-Perf or AIPerf (FORMATS.md sections 4.1 and
// 5.1): an optional title line ("NVIDIA AIPerf | LLM Metrics"), a header row
// framed with ┏━┳┓ ┃ ┡━╇┩, body rows │ label │ v │ ... │ and a bottom
// └─┴┘. Row labels that wrap continue on rows whose value cells are empty.
// After the bottom, "Label: value" lines of the same run are read into the
// block (GenAI-Perf 2024 system rows, AIPerf "Benchmark Duration: 15.81 sec").

// tableState is the table being read.
type tableState struct {
	blk       *Block
	title     string
	first     string   // first header cell, lower case: "statistic" or "metric"
	cols      []string // the other header cells, as printed
	label     string   // row being read (its label may wrap)
	rowLine   int
	vals      []string
	open      bool // a row is pending
	closed    bool // bottom rule seen
	known     int  // rows with a canonical key
	unknown   int
	units     map[string]bool
	ascii     bool // drawn with | + - = (rich's ASCII boxes, Markdown pastes)
	titleCase bool // "Time To First Token": GenAI-Perf 2025+
	system    bool // system rows inside the table: GenAI-Perf Aug 2024+
}

const (
	boxHeavyV = "┃"
	boxLightV = "│"
)

// isTitle reports whether a line may be a table title ("LLM Metrics",
// "NVIDIA GenAI-Perf | LLM Metrics"); cheap on other lines.
func isTitle(line []byte) bool {
	t := bytes.TrimRight(line, " \t\r")
	return bytes.HasSuffix(t, []byte("Metrics")) || (bytes.HasSuffix(t, []byte("m")) && bytes.IndexByte(t, 0x1b) >= 0)
}

// tableStart opens a table at a header (or top border) line: box drawing,
// or an ASCII/Markdown header row "| Statistic | avg | ... |".
func (s *Scanner) tableStart(text []byte) bool {
	ascii := false
	if text[0] == '|' {
		c := cells(text, "|")
		if len(c) < 2 || !(strings.EqualFold(c[0], "statistic") || strings.EqualFold(c[0], "metric")) || nvStat(c[1]) == "" {
			return false
		}
		ascii = true
	} else if !bytes.HasPrefix(text, []byte("┏")) && !bytes.HasPrefix(text, []byte(boxHeavyV)) {
		return false
	}
	b := &Block{File: s.name, Line: s.line, EndLine: s.line, Metrics: map[string]Metric{}}
	t := &tableState{blk: b, units: map[string]bool{}, ascii: ascii}
	if s.titleLine > 0 && s.line-s.titleLine <= 2 {
		b.Line = s.titleLine
		t.title = s.title
	}
	s.tbl = t
	switch {
	case ascii:
		t.first, t.cols = strings.ToLower(cells(text, "|")[0]), cells(text, "|")[1:]
	case bytes.HasPrefix(text, []byte(boxHeavyV)):
		s.tableHeader(text)
	}
	return true
}

// asciiLine reads a line of an ASCII or Markdown table; a line of another
// shape closes the table and is read as a line after it.
func (s *Scanner) asciiLine(line, text []byte) bool {
	t := s.tbl
	switch {
	case len(text) > 0 && text[0] == '|' && !isASCIIBorder(text):
		s.tableRow(cells(text, "|"))
	case len(text) > 0 && (text[0] == '+' || text[0] == '|'):
		t.blk.EndLine = s.line
	default:
		s.tableFlush()
		t.closed = true
		return s.tableLine(line)
	}
	return true
}

// isASCIIBorder: "+----+----+", "|---|:---:|", "|====+====|".
func isASCIIBorder(text []byte) bool {
	for _, c := range text {
		if bytes.IndexByte([]byte("|+-=: \t"), c) < 0 {
			return false
		}
	}
	return true
}

// cells splits a table row at sep, without the outer frame.
func cells(text []byte, sep string) []string {
	parts := strings.Split(string(text), sep)
	if len(parts) >= 2 {
		parts = parts[1:]
		if strings.TrimSpace(parts[len(parts)-1]) == "" {
			parts = parts[:len(parts)-1]
		}
	}
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return parts
}

func (s *Scanner) tableHeader(text []byte) {
	t := s.tbl
	c := cells(text, boxHeavyV)
	if t.cols != nil || len(c) < 2 {
		return // a wrapped header row
	}
	t.first = strings.ToLower(c[0])
	t.cols = c[1:]
}

// isBorder reports whether text is only box-drawing characters and blanks.
func isBorder(text []byte) bool {
	for len(text) > 0 {
		r, n := utf8.DecodeRune(text)
		if r != ' ' && (r < 0x2500 || r > 0x257f) {
			return false
		}
		text = text[n:]
	}
	return true
}

// tableLine reads one line of the current table. It reports false when the
// line is not part of it: the table has then been ended and the line must be
// read as any other line.
func (s *Scanner) tableLine(line []byte) bool {
	t := s.tbl
	text := s.clean(line)
	if t.closed {
		if len(text) == 0 {
			return true
		}
		label, value, ok := splitLabel(text)
		if ok && isPostLabel(normLabel(label)) {
			s.tableAdd(string(label), "value", string(value), s.line)
			t.blk.Labels = append(t.blk.Labels, Label{Label: string(label), Value: string(value), Line: s.line})
			t.blk.EndLine = s.line
			return true
		}
		s.tableEnd(false)
		return false
	}
	if t.ascii {
		return s.asciiLine(line, text)
	}
	switch {
	case len(text) == 0:
		return true
	case bytes.HasPrefix(text, []byte("└")) || bytes.HasPrefix(text, []byte("┗")):
		s.tableFlush()
		t.closed = true
		t.blk.EndLine = s.line
	case bytes.HasPrefix(text, []byte(boxHeavyV)):
		s.tableHeader(text)
		t.blk.EndLine = s.line
	case bytes.HasPrefix(text, []byte(boxLightV)):
		s.tableRow(cells(text, boxLightV))
	case isBorder(text):
		t.blk.EndLine = s.line
	default:
		s.tableEnd(true)
		return false
	}
	return true
}

// tableRow reads a body row; a row whose value cells are empty continues
// the label of the row above (a wrapped label).
func (s *Scanner) tableRow(c []string) {
	t := s.tbl
	t.blk.EndLine = s.line
	if len(c) == 0 {
		return
	}
	empty := true
	for _, v := range c[1:] {
		if v != "" {
			empty = false
		}
	}
	if empty && t.open {
		t.label += " " + c[0]
		return
	}
	s.tableFlush()
	t.label, t.rowLine, t.vals, t.open = c[0], s.line, c[1:], true
}

// isPostLabel: lines printed right after the table, of the same run.
func isPostLabel(norm string) bool {
	switch norm {
	case "output token throughput (per sec)", "request throughput (per sec)", "request goodput (per sec)",
		"benchmark duration", "cli command", "csv export", "json export", "log file":
		return true
	}
	return false
}

// tableFlush reads the pending row.
func (s *Scanner) tableFlush() {
	t := s.tbl
	if !t.open {
		return
	}
	t.open = false
	for i, v := range t.vals {
		col := ""
		if i < len(t.cols) {
			col = t.cols[i]
		}
		t.blk.Labels = append(t.blk.Labels, Label{Label: t.label + " " + col, Value: v, Line: t.rowLine})
	}
	name, _ := splitUnit(t.label)
	if _, ok := nvRows[name]; !ok {
		t.unknown++
		return
	}
	t.known++
	if nvRows[name].kind == nvSingle {
		t.system = true
	}
	if strings.Contains(t.label, " To ") || strings.Contains(t.label, " Token Latency") {
		t.titleCase = true
	}
	for i, v := range t.vals {
		if i < len(t.cols) {
			s.tableAdd(t.label, t.cols[i], v, t.rowLine)
		}
	}
}

func (s *Scanner) tableAdd(label, col, cell string, line int) {
	t := s.tbl
	name, unit := splitUnit(label)
	if name == "benchmark duration" && unit == "" {
		// AIPerf prints "Benchmark Duration: 15.81 sec".
		cell, unit, _ = strings.Cut(strings.TrimSpace(cell), " ")
	}
	t.units[unit] = true
	addCell(t.blk, name, unit, nvStat(col), cell, line)
}

// tableEnd classifies the table and queues it; a table without any metric
// row (GPU telemetry, server metrics) is dropped.
func (s *Scanner) tableEnd(truncated bool) {
	t := s.tbl
	s.tableFlush()
	s.tbl = nil
	s.titleLine = 0
	b := t.blk
	if t.known == 0 {
		return
	}
	aiperf := t.first == "metric" || strings.Contains(t.title, "AIPerf")
	for _, c := range t.cols {
		if strings.EqualFold(c, "std") {
			aiperf = true
		}
	}
	if strings.Contains(t.title, "GenAI-Perf") || t.first == "statistic" {
		aiperf = false
	}
	b.Definition = CountOverDuration
	if aiperf {
		b.Format, b.Tool = FormatAIPerf, ToolAIPerf
		b.Version = "2025-07 (p75 column)"
		for _, c := range t.cols {
			if strings.EqualFold(c, "p50") {
				b.Version = "2025-09+ (p50 column)"
			}
		}
		for _, c := range t.cols {
			if strings.EqualFold(c, "adj_p95") {
				b.Version = "2026 (adj_p95 column)"
			}
		}
	} else {
		b.Format, b.Tool = FormatGenAIPerf, ToolGenAIPerf
		switch {
		case t.units["ns"]:
			b.Version = "2024-03 (ns integers)"
			if strings.HasPrefix(t.title, "LLM") {
				b.Version = "2024-04 (ns integers, LLM Metrics)"
			}
		case t.titleCase:
			b.Version = "2025-01+ (title case, units)"
		case t.system:
			b.Version = "2024-08 (system rows in the table)"
		default:
			b.Version = "2024-06 (ms)"
		}
	}
	nvDefinitions(b)
	b.Truncated = truncated
	if truncated {
		b.Problems = append(b.Problems, &SyntaxError{File: s.name, Line: b.EndLine,
			Msg: "table of line " + strconv.Itoa(b.Line) + " has no bottom └───┘ rule; read up to here"})
	}
	s.emit(b)
}
