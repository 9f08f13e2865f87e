package benchlog

import (
	"bytes"
	"strconv"
	"strings"
)

// guidellm's own console output (docs/metrics.md), read from its printing
// code, one block per benchmark (a sweep gives several):
//
//   - v0.2 and v0.3 (benchmark/output.py, GenerativeBenchmarksConsole): a
//     "Benchmarks Metadata:" section of "Label:value" lines, then the ASCII
//     tables "Benchmarks Info:" and "Benchmarks Stats:": a rule of '=', a
//     row of column groups ("Metadata   |||| Requests Made  |||"), a row of
//     column names, a rule of '-' and '|', one right-justified row per
//     benchmark ("constant@26.21|  1.55| ..."), a closing rule of '='. Every
//     line goes through rich's word wrap, so a log captured at 80 columns
//     breaks each row over several lines (a rule of '=' then takes several
//     lines too): a row is then joined until it has its table's number of
//     '|'. v0.2 heads the request latency "Req Latency (ms)" although its
//     values are seconds; v0.3 heads it "Req Latency (sec)".
//   - v0.4 and later (benchmark/outputs/console.py): titled tables
//     ("ℹ Run Summary Info", "ℹ Request Latency Statistics (Completed
//     Requests)", "ℹ Server Throughput Statistics" ...) drawn as
//     "|====|====|", three header rows (group, name, unit; a group or name
//     spanning columns is printed once, the spanned cells left empty:
//     "| Timings      |||||"), "|----|", left-justified rows, "|====|".
//     These lines are never wrapped. The Strategy column holds the
//     strategy's type only ("constant"), not its rate.
//
// A benchmark's values are spread over the tables, one row in each. Its
// block covers its row in the last table read; the metrics from the rows of
// earlier tables keep their own lines, which lie before the block's.

// Table kinds; zero is a table not read (the modality statistics of v0.4+).
const (
	gtOther = iota
	gtInfo
	gtStats
	gtSummary
	gtTokens
	gtLatency
	gtThroughput
	// gtByHeader: a v0.4+ table whose title is not one guidellm prints
	// (edited, or lost): its kind comes from its header rows.
	gtByHeader
)

// guideTitles maps the table titles (and the legacy metadata section) to
// their kind and whether they are of the v0.2-v0.3 layout.
var guideTitles = map[string]struct {
	kind   int
	legacy bool
}{
	"Benchmarks Metadata:":                              {-1, true},
	"Benchmarks Info:":                                  {gtInfo, true},
	"Benchmarks Stats:":                                 {gtStats, true},
	"Run Summary Info":                                  {gtSummary, false},
	"Request Token Statistics (Completed Requests)":     {gtTokens, false},
	"Request Latency Statistics (Completed Requests)":   {gtLatency, false},
	"Server Throughput Statistics":                      {gtThroughput, false},
	"Server Throughput Statistics (All Requests)":       {gtThroughput, false}, // v0.6+
	"Text Metrics Statistics (Completed Requests)":      {gtOther, false},
	"Image Metrics Statistics (Completed Requests)":     {gtOther, false},
	"Video Metrics Statistics (Completed Requests)":     {gtOther, false},
	"Audio Metrics Statistics (Completed Requests)":     {gtOther, false},
	"Tool Call Metrics Statistics (Completed Requests)": {gtOther, false}, // v0.6+
}

// guideLegacyCols is the number of columns of the v0.2-v0.3 tables (fixed in
// their code), used to join rows that the terminal width broke.
var guideLegacyCols = map[int]int{gtInfo: 19, gtStats: 17}

// guideMetaLabels are the labels of the "Benchmarks Metadata:" section,
// printed as "Label:value" without a blank.
var guideMetaLabels = []string{"Run id", "Duration", "Profile", "Args", "Worker", "Request Loader", "Extras"}

// guideCell says what one column of a guidellm table holds.
type guideCell struct {
	key  string  // canonical key; "" for a label only
	spec keySpec // unit conversion
}

func gc(key string) guideCell { return guideCell{key: key, spec: keySpec{key: key}} }
func gcSec(key string) guideCell {
	return guideCell{key: key, spec: keySpec{key: key, unit: "ms", from: "s"}}
}
func gcDur(key string) guideCell {
	return guideCell{key: key, spec: keySpec{key: key, unit: "s", from: "s"}}
}
func gcMs(key string) guideCell {
	return guideCell{key: key, spec: keySpec{key: key, unit: "ms", from: "ms"}}
}
func guideColKey(kind int, col string) string { return strconv.Itoa(kind) + ":" + strings.ToLower(col) }

// guideCols maps "kind:group|name[|unit]" (lower case) to the column's key.
var guideCols = func() map[string]guideCell {
	m := map[string]guideCell{
		// v0.2-v0.3 Benchmarks Info
		guideColKey(gtInfo, "Metadata|Duration (s)"):      gcDur("duration"),
		guideColKey(gtInfo, "Requests Made|Comp"):         gc("completed"),
		guideColKey(gtInfo, "Requests Made|Inc"):          gc("incomplete"),
		guideColKey(gtInfo, "Requests Made|Err"):          gc("failed"),
		guideColKey(gtInfo, "Prompt Tok/Req|Comp"):        gc("mean_input_len"),
		guideColKey(gtInfo, "Output Tok/Req|Comp"):        gc("mean_output_len"),
		guideColKey(gtInfo, "Prompt Tok Total|Comp"):      gc("total_input_tokens"),
		guideColKey(gtInfo, "Output Tok Total|Comp"):      gc("total_output_tokens"),
		guideColKey(gtStats, "Request Stats|Per Second"):  gc("request_throughput"),
		guideColKey(gtStats, "Request Stats|Concurrency"): gc("avg_concurrency"),
		guideColKey(gtStats, "Out Tok/sec|mean"):          gc("output_throughput"),
		guideColKey(gtStats, "Tot Tok/sec|mean"):          gc("total_token_throughput"),
		// v0.4+
		guideColKey(gtSummary, "Timings|Dur|Sec"):               gcDur("duration"),
		guideColKey(gtSummary, "Input Tokens|Comp|Tot"):         gc("total_input_tokens"),
		guideColKey(gtSummary, "Output Tokens|Comp|Tot"):        gc("total_output_tokens"),
		guideColKey(gtThroughput, "Requests|Per Sec|Mean"):      gc("request_throughput"),
		guideColKey(gtThroughput, "Requests|Concurrency|Mean"):  gc("avg_concurrency"),
		guideColKey(gtThroughput, "Input Tokens|Per Sec|Mean"):  gc("input_throughput"),
		guideColKey(gtThroughput, "Output Tokens|Per Sec|Mean"): gc("output_throughput"),
		guideColKey(gtThroughput, "Total Tokens|Per Sec|Mean"):  gc("total_token_throughput"),
	}
	for stat, st := range map[string]string{"mean": "mean", "median": "median", "p99": "p99"} {
		// v0.2 heads the latency "(ms)" but prints seconds.
		m[guideColKey(gtStats, "Req Latency (ms)|"+stat)] = gcSec(st + "_e2el_ms")
		m[guideColKey(gtStats, "Req Latency (sec)|"+stat)] = gcSec(st + "_e2el_ms")
		for name, base := range map[string]string{"TTFT (ms)": "ttft", "ITL (ms)": "itl", "TPOT (ms)": "tpot"} {
			m[guideColKey(gtStats, name+"|"+stat)] = gcMs(st + "_" + base + "_ms")
		}
	}
	for stat, st := range map[string]string{"Mdn": "median", "p95": "p95", "Mean": "mean"} {
		m[guideColKey(gtLatency, "Request Latency|Sec|"+stat)] = gcSec(st + "_e2el_ms")
		for name, base := range map[string]string{"TTFT": "ttft", "TTFOT": "ttfot", "ITL": "itl", "TPOT": "tpot"} {
			m[guideColKey(gtLatency, name+"|ms|"+stat)] = gcMs(st + "_" + base + "_ms")
		}
		m[guideColKey(gtTokens, "Input Tok|Per Req|"+stat)] = gc(st + "_input_len")
		m[guideColKey(gtTokens, "Output Tok|Per Req|"+stat)] = gc(st + "_output_len")
	}
	return m
}()

// guideState is a guidellm console output being read.
type guideState struct {
	legacy   bool
	meta     []Label // the Benchmarks Metadata lines
	inMeta   bool
	tables   []*guideTable
	t        *guideTable // the table being read
	problems []*SyntaxError
	loose    bool // a line that is not a table nor a known title came after a table
}

// guideTable is one table: its columns and rows.
type guideTable struct {
	kind   int
	title  string
	line   int // the title's line
	phase  int // 0 top rule, 1 header rows, 2 body rows, 3 closed
	legacy bool
	rules  int // lines of the top rule (more than one: wrapped)
	ncols  int // columns of a wrapped legacy table
	hdr    [][]string
	cols   []string // "group|name[|unit]" per column
	rows   []guideRow
	// A legacy row being joined from wrapped lines.
	buf      []byte
	offs     []int // offset in buf where each of its lines starts
	lines    []int // and that line's number
	waitLast bool  // all '|' seen, the last cell is on the next line
}

// guideRow is one logical row: its cells and the line each one is on.
type guideRow struct {
	line, end int
	cells     []string
	at        []int
}

// guideTitle returns the kind of a title line (without "ℹ " and trailing
// blanks), or ok false.
func guideTitle(text []byte) (kind int, legacy, ok bool) {
	// Cheap first: every title starts with "ℹ " or a capital then a
	// lower-case letter ("INFO ...", "WARNING ..." do not).
	if len(text) < 14 || text[0] != 0xe2 && !('A' <= text[0] && text[0] <= 'Z' && 'a' <= text[1] && text[1] <= 'z') {
		return 0, false, false
	}
	text = bytes.TrimRight(text, " \t\r")
	info := bytes.HasPrefix(text, []byte("ℹ "))
	if info && len(text) <= 160 {
		// v0.4+ prints every title after "ℹ ": one it does not print is
		// an edited title, read by its table's header rows.
	} else if n := len(text); n < 14 || n > 56 || bytes.IndexByte([]byte("BRSTIVA\xe2"), text[0]) < 0 || bytes.IndexByte([]byte(":)so"), text[n-1]) < 0 {
		return 0, false, false
	}
	text = bytes.TrimPrefix(text, []byte("ℹ "))
	t, ok := guideTitles[string(text)]
	if !ok && info {
		return gtByHeader, false, true
	}
	return t.kind, t.legacy, ok
}

// guideStart opens a guidellm console output at a table title.
func (s *Scanner) guideStart(text []byte) bool {
	kind, legacy, ok := guideTitle(text)
	if !ok {
		return false
	}
	s.rd = &guideState{legacy: legacy}
	s.guideTitleAt(kind, legacy, text)
	return true
}

// guideTitleAt opens the table (or metadata section) of a title line.
func (s *Scanner) guideTitleAt(kind int, legacy bool, text []byte) {
	g := open[*guideState](s)
	if kind < 0 {
		g.inMeta = true
		return
	}
	g.inMeta = false
	t := &guideTable{kind: kind, line: s.line, legacy: legacy, ncols: guideLegacyCols[kind],
		title: string(bytes.TrimPrefix(bytes.TrimSpace(text), []byte("ℹ ")))}
	g.t = t
	g.tables = append(g.tables, t)
}

// guideLine reads one line of a guidellm console output; false if the line
// is not part of it (the output has then been ended, and the line must be
// read as any other).
func (s *Scanner) guideLine(line []byte) bool {
	g := open[*guideState](s)
	text := bytes.TrimRight(s.clean(line), " \t")
	if kind, legacy, ok := guideTitle(text); ok {
		if g.newRun(kind, legacy, text) {
			s.guideEnd()
			s.rd = &guideState{legacy: legacy}
		}
		s.guideTitleAt(kind, legacy, text)
		return true
	}
	if g.inMeta && len(g.meta) < maxBlockLines {
		return s.guideMeta(line, text)
	}
	t := g.t
	if t == nil {
		s.guideEnd()
		return false
	}
	if len(text) == 0 && !t.waitLast {
		return true
	}
	if len(t.rows) >= maxBlockLines || len(g.meta) >= maxBlockLines {
		s.guideEnd()
		return false
	}
	if t.legacy {
		return s.guideLegacyLine(t, text)
	}
	return s.guideTableLine(t, text)
}

// newRun reports whether a title starts the output of another run: a title
// of the other layout, one seen already, or the first title of a run after
// tables.
func (g *guideState) newRun(kind int, legacy bool, text []byte) bool {
	if legacy != g.legacy || kind < 0 && (len(g.tables) > 0 || len(g.meta) > 0) {
		return true
	}
	if (kind == gtSummary || kind == gtInfo) && len(g.tables) > 0 {
		return true
	}
	title := string(bytes.TrimPrefix(bytes.TrimSpace(text), []byte("ℹ ")))
	for _, t := range g.tables {
		if t.title == title {
			return true
		}
	}
	return false
}

// guideMeta reads a line of the "Benchmarks Metadata:" section: a known
// label, or the continuation of the one before (rich wraps long values).
func (s *Scanner) guideMeta(line, text []byte) bool {
	g := open[*guideState](s)
	if len(text) == 0 {
		return true
	}
	for _, l := range guideMetaLabels {
		if len(text) > len(l) && text[len(l)] == ':' && string(text[:len(l)]) == l {
			g.meta = append(g.meta, Label{Label: l, Value: string(bytes.TrimSpace(text[len(l)+1:])), Line: s.line})
			return true
		}
	}
	if len(g.meta) > 0 && len(line) > 0 && (line[0] == ' ' || line[0] == '\t') {
		m := &g.meta[len(g.meta)-1]
		if len(m.Value) < 4096 {
			m.Value += " " + string(text)
		}
		return true
	}
	s.guideEnd()
	return false
}

func isRuleOf(text []byte, c byte) bool {
	if len(text) < 3 {
		return false
	}
	for _, b := range text {
		if b != c {
			return false
		}
	}
	return true
}

// guideLegacyLine reads a line of a v0.2-v0.3 table.
func (s *Scanner) guideLegacyLine(t *guideTable, text []byte) bool {
	eq := isRuleOf(text, '=')
	switch t.phase {
	case 0:
		if eq {
			t.rules++
			return true
		}
		if t.rules == 0 {
			s.guideEnd()
			return false
		}
		t.phase = 1
	case 3:
		if eq {
			return true // the wrapped rest of the closing rule
		}
		s.guideEnd()
		return false
	}
	wrapped := t.rules > 1 && t.ncols > 0
	if eq && len(t.buf) == 0 && !t.waitLast {
		s.guideClose(t)
		return true
	}
	if !wrapped {
		s.guideRow(t, text, []int{0}, []int{s.line})
		return true
	}
	if t.waitLast {
		t.waitLast = false
		if len(text) > 0 && bytes.IndexByte(text, '|') < 0 && !eq {
			t.join(text, s.line)
			s.guideJoined(t)
			return true
		}
		s.guideJoined(t)
		return s.guideLegacyLine(t, text)
	}
	if eq || len(text) == 0 {
		s.guideEnd()
		return false
	}
	t.join(text, s.line)
	n := bytes.Count(t.buf, []byte("|"))
	switch {
	case n > t.ncols-1:
		g := open[*guideState](s)
		g.problems = append(g.problems, &SyntaxError{File: s.name, Line: s.line,
			Msg: "guidellm table " + quote(t.title) + ": a row has more than " + strconv.Itoa(t.ncols) + " columns; the table is read up to here"})
		s.guideEnd()
		return true
	case n == t.ncols-1:
		// The group row ends with its '|'; other rows have a last cell,
		// which the wrap may have put on the next line.
		if len(bytes.TrimSpace(t.buf[bytes.LastIndexByte(t.buf, '|')+1:])) > 0 || len(t.hdr) == 0 {
			s.guideJoined(t)
		} else {
			t.waitLast = true
		}
	case len(t.lines) > 16:
		s.guideEnd()
		return false
	}
	return true
}

// join adds a wrapped line to the row being joined. rich breaks a line at
// a blank, which the break took: it is put back (a rule of '-', which has
// none, is the only word rich folds, and a blank inside it is ignored).
func (t *guideTable) join(text []byte, line int) {
	if len(t.buf) > 0 {
		t.buf = append(t.buf, ' ')
	}
	t.offs, t.lines = append(t.offs, len(t.buf)), append(t.lines, line)
	t.buf = append(t.buf, text...)
}

// guideJoined reads the row joined in t.buf.
func (s *Scanner) guideJoined(t *guideTable) {
	s.guideRow(t, t.buf, t.offs, t.lines)
	t.buf, t.offs, t.lines = t.buf[:0], t.offs[:0], t.lines[:0]
}

// guideRow reads one logical legacy row: the header rows, the '-' rule, or
// a body row. offs and lines give the line of each part of text.
func (s *Scanner) guideRow(t *guideTable, text []byte, offs, lines []int) {
	lineAt := func(off int) int {
		l := lines[0]
		for i, o := range offs {
			if o <= off {
				l = lines[i]
			}
		}
		return l
	}
	parts := bytes.Split(text, []byte("|"))
	cells := make([]string, len(parts))
	at := make([]int, len(parts))
	off := 0
	rule := true
	for i, p := range parts {
		q := bytes.TrimSpace(p)
		cells[i] = strings.Join(strings.Fields(string(q)), " ")
		at[i] = lineAt(off + bytes.Index(p, q))
		if len(q) > 0 && len(bytes.Trim(q, "- ")) > 0 {
			rule = false
		}
		off += len(p) + 1
	}
	switch {
	case t.phase == 1 && rule && len(cells) > 1:
		s.guideHeader(t, false)
		t.phase = 2
	case t.phase == 1:
		t.hdr = append(t.hdr, cells)
	default:
		if len(t.cols) > 0 && len(cells) != len(t.cols) {
			g := open[*guideState](s)
			g.problems = append(g.problems, &SyntaxError{File: s.name, Line: lines[0],
				Msg: "guidellm table " + quote(t.title) + ": a row has " + strconv.Itoa(len(cells)) + " columns, not " + strconv.Itoa(len(t.cols)) + "; not read"})
			return
		}
		t.rows = append(t.rows, guideRow{line: lines[0], end: lines[len(lines)-1], cells: cells, at: at})
	}
}

// guideHeader makes the column names ("group|name|unit") from the header
// rows. A spanned cell continues the one before it: a zero-length cell in
// v0.4+ (an empty one is blank-padded), an empty one in the legacy group row.
func (s *Scanner) guideHeader(t *guideTable, merged bool) {
	if len(t.hdr) == 0 {
		return
	}
	n := len(t.hdr[len(t.hdr)-1])
	t.cols = make([]string, n)
	for r, row := range t.hdr {
		prev := ""
		for c := 0; c < n; c++ {
			v := ""
			if c < len(row) {
				v = row[c]
			}
			cell := strings.TrimSpace(v)
			if c > 0 && (merged && v == "" || !merged && r == 0 && cell == "") {
				cell = prev
			}
			prev = cell
			if r > 0 {
				t.cols[c] += "|"
			}
			t.cols[c] += cell
		}
	}
	for c := range t.cols {
		t.cols[c] = strings.TrimRight(t.cols[c], "|")
	}
}

// guideTableLine reads a line of a v0.4+ table.
func (s *Scanner) guideTableLine(t *guideTable, text []byte) bool {
	g := open[*guideState](s)
	if len(text) == 0 || text[0] != '|' {
		if t.phase == 3 && !g.loose && looksLikeTitle(text) {
			// A title guidellm does not print, between two tables: the
			// next table is known by its header rows.
			g.loose = true
			return true
		}
		s.guideEnd()
		return false
	}
	g.loose = false
	inner := text[1:]
	if len(inner) > 0 && inner[len(inner)-1] == '|' {
		inner = inner[:len(inner)-1]
	}
	isRule := func(c byte) bool {
		for _, b := range inner {
			if b != c && b != '|' {
				return false
			}
		}
		return len(inner) > 0
	}
	switch {
	case isRule('='):
		switch t.phase {
		case 0:
			t.phase = 1
		case 2:
			s.guideClose(t)
		case 3:
			// The top rule of a table without a title of its own.
			s.guideUntitled()
		}
		return true
	case isRule('-'):
		if t.phase == 1 {
			s.guideHeader(t, true)
			t.phase = 2
			if t.kind == gtByHeader {
				s.guideKnowByHeader(t)
			}
		}
		return true
	}
	raw := strings.Split(string(inner), "|")
	if t.phase == 3 {
		// A sibling table: v0.4 prints the input and output modality
		// tables under one title, the second without a rule of its own
		// after the first one's rows.
		nt := &guideTable{kind: t.kind, title: t.title, line: t.line, phase: 1}
		g := open[*guideState](s)
		g.t, t = nt, nt
		g.tables = append(g.tables, nt)
	}
	switch t.phase {
	case 1:
		t.hdr = append(t.hdr, raw)
	case 2:
		cells := make([]string, len(raw))
		at := make([]int, len(raw))
		for i, c := range raw {
			cells[i], at[i] = strings.TrimSpace(c), s.line
		}
		if len(cells) != len(t.cols) {
			g := open[*guideState](s)
			g.problems = append(g.problems, &SyntaxError{File: s.name, Line: s.line,
				Msg: "guidellm table " + quote(t.title) + ": a row has " + strconv.Itoa(len(cells)) + " columns, not " + strconv.Itoa(len(t.cols)) + "; not read"})
			return true
		}
		t.rows = append(t.rows, guideRow{line: s.line, end: s.line, cells: cells, at: at})
	default:
		s.guideEnd()
		return false
	}
	return true
}

// looksLikeTitle: a short line of words, no "label: value".
func looksLikeTitle(text []byte) bool {
	return len(text) > 3 && len(text) < 120 && (isLetter(text[0]) || text[0] >= 0x80) && bytes.IndexByte(text, ':') < 0
}

// guideUntitled opens, at its top rule, a v0.4+ table whose title was
// lost or is not one guidellm prints: its header rows tell its kind.
func (s *Scanner) guideUntitled() {
	g := open[*guideState](s)
	t := &guideTable{kind: gtByHeader, line: s.line, phase: 1, title: "at line " + strconv.Itoa(s.line)}
	g.t = t
	g.tables = append(g.tables, t)
}

// guideRuleStart opens a guidellm output at the top rule of a v0.4+ table
// without its title ("|=====|====|...").
func (s *Scanner) guideRuleStart(text []byte) bool {
	if len(text) < 8 || text[1] != '=' || bytes.Count(text, []byte("|")) < 3 || len(bytes.Trim(text, "=|")) > 0 {
		return false
	}
	s.rd = &guideState{}
	s.guideUntitled()
	return true
}

// guideKnowByHeader gives a table known by its header rows the kind whose
// columns it has most of; a table of a kind the output has already had,
// or a Run Summary after other tables, starts the output of another run.
func (s *Scanner) guideKnowByHeader(t *guideTable) {
	best, kind := 0, gtOther
	// Every guidellm table starts with its Benchmark Strategy column.
	known := len(t.cols) > 1 && strings.EqualFold(t.cols[0], "Benchmark|Strategy")
	for _, k := range []int{gtSummary, gtTokens, gtLatency, gtThroughput} {
		if !known {
			break
		}
		n := 0
		for _, c := range t.cols {
			if _, ok := guideCols[guideColKey(k, c)]; ok {
				n++
			}
		}
		if n > best {
			best, kind = n, k
		}
	}
	t.kind = kind
	g := open[*guideState](s)
	if kind == gtOther || len(g.tables) < 2 {
		return
	}
	earlier := g.tables[:len(g.tables)-1]
	again := kind == gtSummary
	for _, e := range earlier {
		again = again || e.kind == kind
	}
	if !again {
		return
	}
	g.tables = earlier
	s.guideEnd()
	s.rd = &guideState{tables: []*guideTable{t}, t: t}
}

// guideClose closes a table; the last table of a run ends the output.
func (s *Scanner) guideClose(t *guideTable) {
	t.phase = 3
	if t.kind == gtStats || t.kind == gtThroughput {
		s.guideEnd()
	}
}

// guideEnd makes the blocks of the output read so far and queues them.
func (s *Scanner) guideEnd() {
	g := open[*guideState](s)
	s.rd = nil
	if g == nil {
		return
	}
	var anchor *guideTable
	truncated := false
	for _, t := range g.tables {
		if t.kind != gtOther && len(t.rows) > 0 {
			anchor = t
		}
		if t.phase != 3 && t.kind != gtOther && (t.phase > 0 || len(t.buf) > 0) {
			truncated = true
		}
	}
	if anchor == nil {
		return
	}
	version := guideVersion(g)
	for i, ar := range anchor.rows {
		b := &Block{File: s.name, Line: ar.line, EndLine: ar.end, Format: FormatGuideLLMConsole, Tool: ToolGuideLLM,
			Version: version, Definition: TimeSeriesMean, Metrics: map[string]Metric{}}
		b.Labels = append(b.Labels, g.meta...)
		strategy := ar.cells[0]
		for _, t := range g.tables {
			if t.kind == gtOther || len(t.rows) == 0 {
				continue
			}
			if len(t.rows) != len(anchor.rows) && i == 0 && !truncated {
				b.Problems = append(b.Problems, &SyntaxError{File: s.name, Line: t.line,
					Msg: "guidellm table " + quote(t.title) + " has " + strconv.Itoa(len(t.rows)) + " rows but " + quote(anchor.title) + " has " + strconv.Itoa(len(anchor.rows)) + "; rows are matched in order"})
			}
			if i >= len(t.rows) {
				continue
			}
			r := t.rows[i]
			if r.cells[0] != strategy {
				b.Problems = append(b.Problems, &SyntaxError{File: s.name, Line: r.line,
					Msg: "guidellm table " + quote(t.title) + ": row " + strconv.Itoa(i+1) + " is " + quote(r.cells[0]) + " but " + quote(anchor.title) + " has " + quote(strategy) + "; its values are left out"})
				continue
			}
			s.guideRowValues(b, t, r)
		}
		if truncated {
			b.Truncated = true
			b.Problems = append(b.Problems, &SyntaxError{File: s.name, Line: b.EndLine,
				Msg: "guidellm output cut off: a table has no closing rule; read up to here"})
		}
		if i == 0 {
			b.Problems = append(b.Problems, g.problems...)
		}
		if len(b.Metrics) > 0 {
			s.emit(b)
		}
	}
}

// guideRowValues adds one table row's labels and metrics to b.
func (s *Scanner) guideRowValues(b *Block, t *guideTable, r guideRow) {
	for c, v := range r.cells {
		if c >= len(t.cols) {
			break
		}
		col := t.cols[c]
		b.Labels = append(b.Labels, Label{Label: strings.ReplaceAll(col, "|", " "), Value: v, Line: r.at[c]})
		if c == 0 {
			guideStrategy(b, v, r.at[c])
			continue
		}
		cell, ok := guideCols[guideColKey(t.kind, col)]
		if !ok || nullValues[strings.ToLower(v)] || v == "--" {
			continue
		}
		m, ok := makeMetric(cell.spec, v, r.at[c])
		if !ok {
			b.Problems = append(b.Problems, &SyntaxError{File: s.name, Line: r.at[c],
				Msg: strings.ReplaceAll(col, "|", " ") + ": value " + quote(v) + " is not a number; no " + cell.key + " read"})
			continue
		}
		if _, dup := b.Metrics[cell.key]; !dup {
			b.Metrics[cell.key] = m
		}
	}
}

// guideStrategy reads a benchmark's name as guidellm prints it:
// "constant@26.21" and "poisson@2.00" carry the configured request rate,
// "concurrent@8" the number of concurrent streams.
func guideStrategy(b *Block, name string, line int) {
	kind, arg, ok := strings.Cut(name, "@")
	if !ok {
		return
	}
	key := "request_rate"
	if kind == "concurrent" {
		key = "max_concurrency"
	}
	if m, ok := makeMetric(keySpec{key: key}, arg, line); ok {
		b.Metrics[key] = m
	}
}

// guideVersion dates a console output by its tables.
func guideVersion(g *guideState) string {
	if g.legacy {
		for _, t := range g.tables {
			for _, c := range t.cols {
				switch {
				case strings.HasPrefix(c, "Req Latency (ms)"):
					return "v0.2 (Req Latency (ms) header, values in s)"
				case strings.HasPrefix(c, "Req Latency (sec)"):
					return "v0.3 (Req Latency (sec))"
				}
			}
		}
		return "v0.2-v0.3 (Benchmarks Info/Stats tables)"
	}
	for _, t := range g.tables {
		if t.kind != gtThroughput {
			continue
		}
		if strings.HasSuffix(t.title, "(All Requests)") {
			return "v0.6+ (throughput of all requests)"
		}
		return "v0.4-v0.5 (Run Summary Info tables)"
	}
	return "v0.4+ (Run Summary Info tables)"
}
