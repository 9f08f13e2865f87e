package benchlog

import (
	"bytes"
	"strconv"
	"strings"
	"unicode/utf8"
)

// A rich console table of GenAI-Perf or AIPerf (docs/metrics.md, "Outputs
// perflab reads"): an optional title line ("NVIDIA AIPerf | LLM Metrics"),
// a header row framed with ┏━┳┓ ┃ ┡━╇┩, body rows │ label │ v │ ... │ and
// a bottom └─┴┘. Row labels that wrap continue on rows whose value cells are empty.
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

	prefix     string   // label lines before the row that has the numbers
	stats      []string // statistic of each value column; nil until the first row
	headerless bool     // no header row: columns inferred from their count
	partial    []byte   // the last header or row line, read when the next line is not its rest
	partLine   int      // its line
	partEnd    int      // the last line of its rest (a terminal narrower than the table wraps lines)
	partBlank  bool     // it ended with blanks
	unread     bool     // a column whose header was cut or lost is not known
	asciiOpen  bool     // a Markdown header without the closing |: rows lack it too
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
	} else if !bytes.HasPrefix(text, []byte("┏")) && !bytes.HasPrefix(text, []byte(boxHeavyV)) &&
		!bytes.HasPrefix(text, []byte("┡")) && !isHeaderlessRow(text) {
		return false
	}
	b := &Block{File: s.name, Line: s.line, EndLine: s.line, Metrics: map[string]Metric{}}
	t := &tableState{blk: b, units: map[string]bool{}, ascii: ascii}
	if s.titleLine > 0 && s.line-s.titleLine <= 2 {
		b.Line = s.titleLine
		t.title = s.title
	}
	s.rd = t
	switch {
	case ascii:
		t.first, t.cols = strings.ToLower(cells(text, "|")[0]), cells(text, "|")[1:]
		t.asciiOpen = !bytes.HasSuffix(text, []byte("|"))
	case bytes.HasPrefix(text, []byte(boxHeavyV)):
		s.tableHold(text, text)
	case bytes.HasPrefix(text, []byte(boxLightV)):
		t.headerless = true
		s.tableHold(text, text)
	case bytes.HasPrefix(text, []byte("┡")):
		t.headerless = true
	}
	return true
}

// asciiLine reads a line of an ASCII or Markdown table; a line of another
// shape closes the table and is read as a line after it.
func (s *Scanner) asciiLine(line, text []byte) bool {
	t := open[*tableState](s)
	switch {
	case len(text) > 0 && text[0] == '|' && !isASCIIBorder(text):
		if t.asciiOpen {
			s.tableRow(cells(text, "|")) // Markdown rows without the closing |
		} else {
			s.tableRow(s.rowCells(text, "|"))
		}
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
	t := open[*tableState](s)
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
	t := open[*tableState](s)
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
	if t.partial != nil {
		if isRest(text) {
			if t.partBlank || line[0] == ' ' || line[0] == '\t' {
				t.partial = append(t.partial, ' ')
			}
			t.partial = append(t.partial, text...)
			t.partBlank = hasTrailingBlank(line)
			t.partEnd, t.blk.EndLine = s.line, s.line
			return true
		}
		s.tablePartial()
	}
	switch {
	case len(text) == 0:
		return true
	case bytes.HasPrefix(text, []byte("└")) || bytes.HasPrefix(text, []byte("┗")):
		s.tableFlush()
		t.closed = true
		t.blk.EndLine = s.line
	case bytes.HasPrefix(text, []byte(boxHeavyV)) || bytes.HasPrefix(text, []byte(boxLightV)):
		// Read at the next line, which may be its rest.
		s.tableHold(line, text)
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
	t := open[*tableState](s)
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
	if empty {
		if len(t.label)+len(t.prefix) > maxLabel {
			return // no label is that long: not a wrapped one
		}
		if t.open && continuesLabel(t.label, c[0]) {
			t.label = joinLabel(t.label, c[0])
			return
		}
		// Numbers on the last line of a wrapped row: the label starts here.
		s.tableFlush()
		t.prefix = joinLabel(t.prefix, c[0])
		return
	}
	s.tableFlush()
	t.label, t.rowLine, t.vals, t.open = joinLabel(t.prefix, c[0]), s.line, c[1:], true
	t.prefix = ""
}

// maxLabel bounds a wrapped label, so that many label lines cost linear time.
const maxLabel = 200

// isPostLabel: lines printed right after the table, of the same run.
func isPostLabel(norm string) bool {
	switch norm {
	case "output token throughput (per sec)", "request throughput (per sec)", "request goodput (per sec)",
		"benchmark duration", "cli command", "csv export", "json export", "log file":
		return true
	}
	return false
}

// tableFlush reads the pending row. A cell cut with an ellipsis ("1,1…")
// or printed empty by a table too narrow for it is never read: the row gets
// a Problem instead.
func (s *Scanner) tableFlush() {
	t := open[*tableState](s)
	if !t.open {
		return
	}
	t.open = false
	if t.stats == nil {
		s.tableColumns(len(t.vals))
	}
	for i, v := range t.vals {
		col := ""
		if i < len(t.cols) {
			col = t.cols[i]
		}
		t.blk.Labels = append(t.blk.Labels, Label{Label: t.label + " " + col, Value: v, Line: t.rowLine})
	}
	np := len(t.blk.Problems)
	name, unit, ok := s.rowName(t.label)
	if !ok {
		t.unknown++
		if len(t.blk.Problems) == np && strings.Contains(t.label, "…") && isHeaderlessRow([]byte("│ "+t.label+" │ │ │ │")) {
			t.blk.Problems = append(t.blk.Problems, &SyntaxError{File: s.name, Line: t.rowLine,
				Msg: "row " + quote(t.label) + ": name cut by a narrow terminal fits several metrics; not read"})
		}
		return
	}
	t.known++
	if nvRows[name].kind == nvSingle {
		t.system = true
	}
	if strings.Contains(t.label, " To ") || strings.Contains(t.label, " Token Latency") {
		t.titleCase = true
	}
	var lost []string
	for i, v := range t.vals {
		if i >= len(t.stats) {
			break
		}
		if v == "" || strings.Contains(v, "…") {
			if keys, _ := nvKeys(name, unit, t.stats[i]); len(keys) > 0 {
				lost = append(lost, t.cols[i]+" "+quote(v))
			}
			continue
		}
		t.units[unit] = true
		if t.stats[i] != "" {
			addCell(t.blk, name, unit, t.stats[i], v, t.rowLine)
		}
	}
	if len(lost) > 0 {
		t.blk.Problems = append(t.blk.Problems, &SyntaxError{File: s.name, Line: t.rowLine,
			Msg: "row " + quote(t.label) + ": " + strings.Join(lost, ", ") + " cut or emptied by a narrow terminal; not read"})
	}
}

// rowName resolves a row's label to a known row name and its unit. A label
// cut by a narrow terminal ("Time To First Token (…", "Req… Lat… (ms)") is
// read when its visible words fit exactly one known row; a latency whose
// unit was cut is read as ms only when its cells have decimals (the ns era
// printed integers) or the visible start of the unit says so.
func (s *Scanner) rowName(label string) (name, unit string, ok bool) {
	name, unit = splitUnit(label)
	if _, ok := nvRows[name]; ok {
		return name, unit, true
	}
	if !strings.Contains(label, "…") {
		return "", "", false
	}
	t := open[*tableState](s)
	words := strings.Fields(strings.ToLower(label))
	complete, unitCut := false, ""
	for i, w := range words {
		if strings.HasPrefix(w, "(") {
			complete = true
			if !strings.HasSuffix(w, ")") {
				unitCut = strings.TrimSuffix(strings.TrimPrefix(w, "("), "…")
				unit = ""
			}
			words = words[:i]
			break
		}
	}
	name = ""
	for n, row := range nvRows {
		if !wordsFit(words, strings.Fields(n), complete) {
			continue
		}
		if name != "" && nvRows[name] != row {
			return "", "", false // ambiguous
		}
		if name == "" || len(n) > len(name) {
			name = n
		}
	}
	if name == "" {
		return "", "", false
	}
	if unit == "" {
		if nvRows[name].kind == nvLatency {
			unit = ""
			for _, u := range []string{"ms", "ns", "us"} {
				if unitCut != "" && strings.HasPrefix(u, unitCut) {
					unit = u
				}
			}
			if unit == "" {
				for _, v := range t.vals {
					if strings.IndexByte(v, '.') >= 0 && !strings.Contains(v, "…") {
						unit = "ms"
					}
				}
			}
			if unit == "" {
				t.blk.Problems = append(t.blk.Problems, &SyntaxError{File: s.name, Line: t.rowLine,
					Msg: "row " + quote(label) + ": unit cut by a narrow terminal and the values do not tell it; not read"})
				return "", "", false
			}
		}
	}
	return name, unit, true
}

// wordsFit reports whether the visible words of a cut label fit the words
// of a known name: equal, or a start of it where a word ends with "…". A
// label whose unit is visible (complete) has all its words.
func wordsFit(vis, known []string, complete bool) bool {
	if len(vis) > len(known) || len(vis) == 0 || (complete && len(vis) != len(known)) {
		return false
	}
	for i, w := range vis {
		if p, cut := strings.CutSuffix(w, "…"); cut {
			if !strings.HasPrefix(known[i], p) {
				return false
			}
			continue
		}
		if w != known[i] {
			return false
		}
	}
	if !complete && len(vis) < len(known) && !strings.HasSuffix(vis[len(vis)-1], "…") {
		return false // "Request Latency" is not a cut "Request Latency Foo"
	}
	return true
}

// continuesLabel reports whether a label line without numbers continues the
// row above (rich's top-aligned wraps: "Time to" ⏎ "First Token" ⏎ "(ms)")
// rather than starts the row below (numbers on a wrapped row's last line).
func continuesLabel(above, line string) bool {
	if strings.HasPrefix(line, "(") {
		return true
	}
	if strings.HasSuffix(above, ")") {
		return false // the unit closes a label
	}
	if strings.Count(above, "(") > strings.Count(above, ")") {
		// "(per" goes on; "(tokens/s…" was cut where its line ended.
		return !strings.HasSuffix(above, "…")
	}
	name := normLabel([]byte(above))
	if _, known := nvRows[name]; !known {
		return true
	}
	// A known name without unit ("Output Token Throughput") continues only
	// into a longer known name ("... Per User").
	joined := strings.Fields(normLabel([]byte(above + " " + line)))
	for n := range nvRows {
		if wordsFit(joined, strings.Fields(n), false) || wordsFit(joined[:len(joined)-1], strings.Fields(n), false) && len(strings.Fields(n)) > len(strings.Fields(name)) {
			return true
		}
	}
	return false
}

func joinLabel(a, b string) string {
	if a == "" {
		return b
	}
	return a + " " + b
}

// nvLayouts are the columns the tools print, for a header that was cut
// ("p…", "Met…", an empty cell) or lost.
var nvLayouts = []struct {
	aiperf bool
	cols   []string
}{
	{false, []string{"avg", "min", "max", "p99", "p90", "p75"}},
	{true, []string{"avg", "min", "max", "p99", "p90", "p75", "std"}},
	{true, []string{"avg", "min", "max", "p99", "p90", "p50", "std"}},
	{true, []string{"avg", "min", "max", "p99", "p90", "p50", "adj_p95", "adj_p99", "std"}},
}

// isCutOf reports whether a printed cell is name, or a start of it cut with
// an ellipsis.
func isCutOf(cell, name string) bool {
	if cell == name {
		return true
	}
	p, cut := strings.CutSuffix(cell, "…")
	return cut && strings.HasPrefix(name, p)
}

// tableColumns sets the statistic of each value column. A header cut by a
// narrow terminal or lost is read from the layouts the tools print: a
// column is read when every layout that fits the visible cells agrees on it
// (a headerless seven-column AIPerf table leaves p75/p50 unread).
func (s *Scanner) tableColumns(n int) {
	t := open[*tableState](s)
	exact := t.cols != nil && !t.headerless
	for _, c := range t.cols {
		if c == "" || strings.Contains(c, "…") {
			exact = false
		}
	}
	if t.cols == nil {
		t.cols = make([]string, n)
	}
	t.stats = make([]string, len(t.cols))
	if exact {
		for i, c := range t.cols {
			t.stats[i] = nvStat(c)
		}
		return
	}
	first := t.first
	var fit [][]string
	for _, l := range nvLayouts {
		if len(l.cols) != len(t.cols) || (l.aiperf && isCutOf(first, "statistic") && first != "") || (!l.aiperf && isCutOf(first, "metric") && first != "") {
			continue
		}
		ok := true
		for i, c := range t.cols {
			if c != "" && !isCutOf(strings.ToLower(c), l.cols[i]) {
				ok = false
			}
		}
		if ok {
			fit = append(fit, l.cols)
		}
	}
	var unread []string
	for i, c := range t.cols {
		if c != "" && !strings.Contains(c, "…") {
			t.stats[i] = nvStat(c)
			continue
		}
		col := ""
		for j, l := range fit {
			if j == 0 {
				col = l[i]
			} else if l[i] != col {
				col = ""
				break
			}
		}
		if col == "" {
			unread = append(unread, strconv.Itoa(i+2))
			continue
		}
		t.cols[i] = col
		t.stats[i] = nvStat(col)
	}
	if len(unread) > 0 {
		t.unread = true
		t.blk.Problems = append(t.blk.Problems, &SyntaxError{File: s.name, Line: t.blk.Line,
			Msg: "table header cut or lost: column(s) " + strings.Join(unread, ", ") + " not known; not read"})
	}
}

// isHeaderlessRow reports whether a line is a body row "│ <known metric> │
// ... │" of a table whose title and header were lost.
func isHeaderlessRow(text []byte) bool {
	if !bytes.HasPrefix(text, []byte(boxLightV)) {
		return false
	}
	c := cells(text, boxLightV)
	if len(c) < 4 {
		return false
	}
	words := strings.Fields(strings.ToLower(c[0]))
	for i, w := range words {
		if strings.HasPrefix(w, "(") {
			words = words[:i]
			break
		}
	}
	for n := range nvRows {
		k := strings.Fields(n)
		if len(words) > 0 && len(words) <= len(k) {
			ok := true
			for i, w := range words {
				if p, cut := strings.CutSuffix(w, "…"); !(w == k[i] || cut && strings.HasPrefix(k[i], p)) {
					ok = false
				}
			}
			if ok {
				return true
			}
		}
	}
	return false
}

// rowCells splits a row line; a line cut before its closing frame loses its
// last cell, which may be a cut number ("1,95"): a Problem says so.
func (s *Scanner) rowCells(text []byte, sep string) []string {
	c := cells(text, sep)
	if bytes.HasSuffix(text, []byte(sep)) || len(c) == 0 {
		return c
	}
	if last := c[len(c)-1]; last != "" && len(c) > 1 {
		t := open[*tableState](s)
		t.blk.Problems = append(t.blk.Problems, &SyntaxError{File: s.name, Line: s.line,
			Msg: "row cut before its end: " + quote(last) + " not read"})
	}
	return c[:len(c)-1]
}

// tableHold keeps a header or row line until the next line tells whether
// it goes on there (a terminal narrower than the table broke it).
func (s *Scanner) tableHold(line, text []byte) {
	t := open[*tableState](s)
	t.partial = append(t.partial[:0:0], text...)
	t.partLine, t.partEnd, t.blk.EndLine = s.line, s.line, s.line
	t.partBlank = hasTrailingBlank(line)
}

// isRest reports whether a line is the rest of a table line that a
// terminal broke: cells and frames, but no frame at its start.
func isRest(text []byte) bool {
	if len(text) == 0 {
		return false
	}
	if r, _ := utf8.DecodeRune(text); r >= 0x2500 && r <= 0x257f {
		return false
	}
	return bytes.Contains(text, []byte(boxLightV)) || bytes.Contains(text, []byte(boxHeavyV))
}

func hasTrailingBlank(line []byte) bool {
	line = bytes.TrimRight(line, "\r\n")
	return len(line) > 0 && (line[len(line)-1] == ' ' || line[len(line)-1] == '\t')
}

// tablePartial reads the held line: a row without its closing │ was cut.
func (s *Scanner) tablePartial() {
	t := open[*tableState](s)
	text := t.partial
	t.partial = nil
	line := s.line
	s.line = t.partLine
	if bytes.HasPrefix(text, []byte(boxHeavyV)) {
		s.tableHeader(text)
	} else {
		s.tableRow(s.rowCells(text, boxLightV))
	}
	s.line = line
	if t.blk.EndLine < t.partEnd {
		t.blk.EndLine = t.partEnd
	}
}

func (s *Scanner) tableAdd(label, col, cell string, line int) {
	t := open[*tableState](s)
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
	t := open[*tableState](s)
	if t.partial != nil {
		s.tablePartial()
	}
	s.tableFlush()
	s.rd = nil
	s.titleLine = 0
	b := t.blk
	if t.known == 0 {
		return
	}
	aiperf := isCutOf(t.first, "metric") || strings.Contains(t.title, "AIPerf")
	for _, c := range t.cols {
		if strings.EqualFold(c, "std") {
			aiperf = true
		}
	}
	if t.headerless && t.title == "" && len(t.stats) == len(nvLayouts[0].cols) {
		aiperf = false // six columns: GenAI-Perf's, in every era
	}
	if strings.Contains(t.title, "GenAI-Perf") || isCutOf(t.first, "statistic") {
		aiperf = false
	}
	b.Definition = CountOverDuration
	if aiperf {
		b.Format, b.Tool = FormatAIPerf, ToolAIPerf
		b.Version = "2025-07 (p75 column)"
		if t.headerless || t.unread {
			b.Version = "2025-07+ (header cut or lost)"
		}
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
