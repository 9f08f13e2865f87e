package benchlog

import (
	"bytes"
	"strings"
)

// EvalScope `evalscope perf` (evalscope/perf/utils/db_util.py summary_result;
// docs/metrics.md).
//
// After each run (one per --parallel/--number pair) the logger prints
// "Benchmarking summary:" alone on a line, then a two-column table, then
// "Percentile results:" and a percentile table:
//
//   - 2024-11 to 2026-04: tabulate "grid" (+---+, | Key | Value |, +===+)
//     with the labels of BenchmarkMetrics.create_message ("Time taken for
//     tests (s)", "Succeed requests", ...; before 2025-04
//     "Throughput(average tokens/s)", "Average QPS", and an "Average time
//     per output token (s)" that is total time / output tokens), then a
//     tabulate "pretty" table, one row per percentile ("10%" ... "99%"),
//     one column per metric ("TTFT (s)", "ITL (s)", "TPOT (s)", "Latency
//     (s)", "Input tokens", "Output tokens", "Output (tok/s)" ...).
//   - 2026-04 on: tabulate "simple_outline" (box drawing, │ Metric │ Value │)
//     with section rows ("── General ──"), "Total / Success / Failed" on one
//     row and latencies in ms ("Avg TTFT (ms)"); its percentile table (from
//     2026-07) has one row per metric and one column per percentile ("min",
//     "1%" ... "99%", "max").
//
// One block per summary; the percentile table after it joins it.

// evalLabels maps EvalScope's summary labels (normalised) to keys.
var evalLabels = map[string]keySpec{
	"time taken for tests (s)":                     {key: "duration", unit: "s", from: "s"},
	"test duration (s)":                            {key: "duration", unit: "s", from: "s"},
	"number of concurrency":                        {key: "max_concurrency"},
	"concurrency":                                  {key: "max_concurrency"},
	"request rate (req/s)":                         {key: "request_rate"},
	"total requests":                               {key: "num_prompts"},
	"succeed requests":                             {key: "completed"},
	"success requests":                             {key: "completed"},
	"failed requests":                              {key: "failed"},
	"output token throughput (tok/s)":              {key: "output_throughput"},
	"output throughput (tok/s)":                    {key: "output_throughput"},
	"throughput(average tokens/s)":                 {key: "output_throughput"},
	"throughput(average output tokens per second)": {key: "output_throughput"},
	"time taken for tests (senconds)":              {key: "duration", unit: "s", from: "s"},
	"ttft (ms)":                                    {key: "mean_ttft_ms", unit: "ms", from: "ms"},
	"tpot (ms)":                                    {key: "mean_tpot_ms", unit: "ms", from: "ms"},
	"itl (ms)":                                     {key: "mean_itl_ms", unit: "ms", from: "ms"},
	"total token throughput (tok/s)":               {key: "total_token_throughput"},
	"total throughput (tok/s)":                     {key: "total_token_throughput"},
	"input throughput (tok/s)":                     {key: "input_throughput"},
	"request throughput (req/s)":                   {key: "request_throughput"},
	"req throughput (req/s)":                       {key: "request_throughput"},
	"average qps":                                  {key: "request_throughput"},
	"average latency (s)":                          {key: "mean_e2el_ms", unit: "ms", from: "s"},
	"avg latency (s)":                              {key: "mean_e2el_ms", unit: "ms", from: "s"},
	"average time to first token (s)":              {key: "mean_ttft_ms", unit: "ms", from: "s"},
	"avg ttft (ms)":                                {key: "mean_ttft_ms", unit: "ms", from: "ms"},
	"average time per output token (s)":            {key: "mean_tpot_ms", unit: "ms", from: "s"},
	"avg tpot (ms)":                                {key: "mean_tpot_ms", unit: "ms", from: "ms"},
	"average inter-token latency (s)":              {key: "mean_itl_ms", unit: "ms", from: "s"},
	"avg itl (ms)":                                 {key: "mean_itl_ms", unit: "ms", from: "ms"},
	"average input tokens per request":             {key: "mean_input_len"},
	"avg input tokens":                             {key: "mean_input_len"},
	"average output tokens per request":            {key: "mean_output_len"},
	"avg output tokens":                            {key: "mean_output_len"},
}

// evalPercentiles maps the percentile table's metrics to key bases.
var evalPercentiles = map[string]nvRow{
	"ttft":                     {"ttft", nvLatency, ""},
	"first chunk latency":      {"ttft", nvLatency, ""},
	"itl":                      {"itl", nvLatency, ""},
	"tpot":                     {"tpot", nvLatency, ""},
	"latency":                  {"e2el", nvLatency, ""},
	"input tokens":             {"input_len", nvLength, ""},
	"output tokens":            {"output_len", nvLength, ""},
	"output (tok/s)":           {"user_throughput", nvPerUser, ""},
	"output throughput(tok/s)": {"user_throughput", nvPerUser, ""},
	"throughput(tokens/s)":     {"user_throughput", nvPerUser, ""},
	// per request (input + output tokens) / latency
	"total (tok/s)": {"total_user_throughput", nvPerUser, ""},
}

// evalPctBase says whether a percentile table column is one EvalScope
// prints, and its key base.
func evalPctBase(col string) (string, bool) {
	name, _ := splitUnit(col)
	row, ok := evalPercentiles[name]
	if !ok {
		row, ok = evalPercentiles[normLabel([]byte(col))]
	}
	return row.base, ok
}

const (
	evalWaitSummary = iota // after "Benchmarking summary:"
	evalSummary            // in its table
	evalBetween            // after it, waiting for "Percentile results:"
	evalWaitPct            // after "Percentile results:"
	evalPct                // in the percentile table
	evalPlain              // in the print() layout (evalscope_plain.go)
)

// evalState is an EvalScope summary being read.
type evalState struct {
	b        *Block
	mode     int
	header   []string // the table's header cells; nil before its header row
	byRow    bool     // percentile table: one row per metric (2026-07+)
	tpotGaps bool     // its "TPOT" column holds chunk gaps (2024-12 to 2025-04)
	untitled bool     // a summary found by its header row, without its title
	legacy   bool     // "Throughput(average tokens/s)" era
	between  int      // lines read in evalBetween or a wait
	plain    bool     // the print() layout of 2024
	cut      bool     // a percentile table without its summary
	pctBase  string   // print() layout: the key base of the percentile section being read
	pctLabel string   // and its title
}

var (
	evalSummaryTitle = []byte("Benchmarking summary:")
	evalPctTitle     = []byte("Percentile results:")
)

// evalStart opens a summary at its "Benchmarking summary:" line.
func (s *Scanner) evalStart(text []byte) bool {
	text = bytes.TrimSpace(text)
	cut := bytes.Equal(text, evalPctTitle) // a percentile table whose summary was cut (evalscope_plain.go)
	if !cut && !bytes.Equal(text, evalSummaryTitle) {
		return false
	}
	s.rd = &evalState{b: &Block{File: s.name, Line: s.line, EndLine: s.line, Format: FormatEvalScope,
		Tool: ToolEvalScope, Definition: CountOverDuration, Metrics: map[string]Metric{}}}
	if cut {
		s.evalCutStart()
	}
	return true
}

// evalHeaderStart opens, at its header row, a percentile table printed
// without its "Percentile results:" title (and without the summary above
// it): the row's first cell is "Percentiles" and another names a
// percentile column EvalScope prints.
func (s *Scanner) evalHeaderStart(text []byte) bool {
	text = bytes.TrimSpace(text)
	c := evalCells(text)
	if evalSummaryHeader(c) {
		// A summary whose "Benchmarking summary:" title was lost: kept
		// only if its rows are EvalScope's (evalEnd).
		s.rd = &evalState{b: &Block{File: s.name, Line: s.line, EndLine: s.line, Format: FormatEvalScope,
			Tool: ToolEvalScope, Definition: CountOverDuration, Metrics: map[string]Metric{}}}
		e := open[*evalState](s)
		e.mode, e.untitled = evalSummary, true
		s.evalRow(text)
		return true
	}
	if !evalPctHeader(c) {
		return false
	}
	s.rd = &evalState{b: &Block{File: s.name, Line: s.line, EndLine: s.line, Format: FormatEvalScope,
		Tool: ToolEvalScope, Definition: CountOverDuration, Metrics: map[string]Metric{}}}
	s.evalCutStart()
	e := open[*evalState](s)
	e.mode = evalPct
	s.evalRow(text)
	return true
}

// evalSummaryHeader reports whether cells are the header row of a summary
// table: "Key | Value" (tabulate grid, 2024-11 to 2026-04) or "Metric |
// Value" (2026-04 on).
func evalSummaryHeader(c []string) bool {
	return len(c) == 2 && (strings.EqualFold(c[0], "key") || strings.EqualFold(c[0], "metric")) &&
		strings.EqualFold(c[1], "value")
}

// evalPctHeader reports whether cells are the header row of a percentile
// table with a column per metric: its first cell is "Percentiles"
// ("Percentile" until 2025-04) and another a column EvalScope prints.
func evalPctHeader(c []string) bool {
	if len(c) < 3 || !strings.EqualFold(c[0], "percentiles") && !strings.EqualFold(c[0], "percentile") {
		return false
	}
	for _, col := range c[1:] {
		if _, ok := evalPctBase(col); ok {
			return true
		}
	}
	return false
}

// evalLine reads one line of a summary; false if the line ended it and must
// be read as any other.
func (s *Scanner) evalLine(line []byte) bool {
	e := open[*evalState](s)
	text := bytes.TrimSpace(s.clean(line))
	if e.mode == evalWaitSummary && evalPlainStart(text) {
		e.mode, e.plain = evalPlain, true
	}
	if e.mode == evalPlain {
		if s.evalPlainLine(text) {
			return true
		}
		s.evalEnd()
		return false
	}
	if len(text) > 0 && (text[0] == '|' || text[0] == '+' || text[0] >= 0x80) {
		if e.mode == evalWaitSummary || e.mode == evalWaitPct {
			e.mode++
			e.header = nil
		}
		if e.mode == evalSummary || e.mode == evalPct {
			s.evalRow(text)
			return true
		}
	}
	switch e.mode {
	case evalSummary:
		e.mode, e.between = evalBetween, 0
	case evalPct:
		s.evalEnd()
		return false
	}
	if bytes.Equal(text, evalPctTitle) && e.mode == evalBetween {
		e.mode, e.between = evalWaitPct, 0
		return true
	}
	if bytes.Equal(text, evalSummaryTitle) {
		s.evalEnd()
		return s.evalStart(text)
	}
	// The logger's own line (the message starts with a newline) or a line
	// between the two tables.
	e.between++
	if e.between > 3 {
		s.evalEnd()
		return false
	}
	return true
}

// evalCells splits a table row; nil for a rule.
func evalCells(text []byte) []string {
	switch {
	case text[0] == '|':
		return cells(text, "|")
	case bytes.HasPrefix(text, []byte("│")):
		return cells(text, "│")
	}
	return nil
}

// evalRow reads one line of a table.
func (s *Scanner) evalRow(text []byte) {
	e := open[*evalState](s)
	b := e.b
	c := evalCells(text)
	if c == nil {
		return
	}
	b.EndLine = s.line
	if e.header == nil {
		e.header = c
		if e.mode == evalPct && len(c) > 0 {
			e.byRow = strings.EqualFold(c[0], "metric")
			e.tpotGaps = !e.byRow && evalTPOTIsGaps(c)
		}
		return
	}
	if e.mode == evalSummary && evalPctHeader(c) {
		// The percentile table right under the summary, its title lost.
		e.mode, e.header = evalPct, c
		e.tpotGaps = evalTPOTIsGaps(c)
		return
	}
	if e.mode == evalSummary {
		if len(c) != 2 {
			return
		}
		s.evalSummaryRow(c[0], c[1])
		return
	}
	if len(c) != len(e.header) || len(c) < 2 {
		return
	}
	for i := 1; i < len(c); i++ {
		if e.byRow {
			evalPctCell(b, c[0], e.header[i], c[i], s.line, false)
		} else {
			evalPctCell(b, e.header[i], c[0], c[i], s.line, e.tpotGaps)
		}
	}
}

// evalSummaryRow reads one row of the summary table.
func (s *Scanner) evalSummaryRow(label, value string) {
	if strings.HasPrefix(label, "──") {
		return // a section row
	}
	e := open[*evalState](s)
	evalSummaryValue(e.b, &e.legacy, label, value, s.line)
}

// evalSummaryValue reads one summary value, printed or from
// benchmark_summary.json; legacy is set at the first label of the 2024
// layout.
func evalSummaryValue(b *Block, legacy *bool, label, value string, line int) {
	b.Labels = append(b.Labels, Label{Label: label, Value: value, Line: line})
	norm := normLabel([]byte(label))
	if norm == "total / success / failed" {
		parts := strings.Split(value, "/")
		if len(parts) == 3 {
			for i, k := range []string{"num_prompts", "completed", "failed"} {
				addKeys(b, []string{k}, keySpec{}, label, strings.TrimSpace(parts[i]), line)
			}
		}
		return
	}
	switch norm {
	case "throughput(average tokens/s)", "average qps", "throughput(average output tokens per second)":
		*legacy = true
	case "average time per output token (s)":
		if *legacy {
			return // total time / output tokens, not a per-request TPOT
		}
	}
	spec, ok := evalLabels[norm]
	if !ok {
		return
	}
	if spec.key == "request_rate" && strings.HasPrefix(value, "-") {
		return // -1: no rate set
	}
	v, ok := nvCell(value)
	if !ok {
		return
	}
	addKeys(b, []string{spec.key}, spec, label, v, line)
}

// evalJSON reads a benchmark_summary.json object: the summary's labels as
// keys.
func (s *Scanner) evalJSON(o *jsonObj) *Block {
	b := &Block{File: s.name, Line: o.line, EndLine: max(o.end, o.line), Format: FormatEvalScopeJSON,
		Tool: ToolEvalScope, Definition: CountOverDuration, Metrics: map[string]Metric{}, Problems: o.problems}
	legacy := false
	for _, kv := range o.kvs {
		if strings.Contains(kv.path, ".") {
			continue
		}
		evalSummaryValue(b, &legacy, kv.path, kv.raw, kv.line)
	}
	if _, ok := b.Metrics["duration"]; !ok {
		return nil
	}
	s.evalVersion(b, legacy)
	return b
}

// evalTPOTIsGaps reports whether a percentile table's header has a
// "TPOT" column and no "ITL" one: from 2024-12 to 2025-04-10 EvalScope
// headed with "TPOT (s)" the percentiles of every gap between two chunks
// of every request (db_util.py's inter_token_latencies), an ITL; the
// per-request TPOT column came in 2025-04-27, beside "ITL (s)".
func evalTPOTIsGaps(header []string) bool {
	tpot, itl := false, false
	for _, col := range header[1:] {
		switch base, _ := evalPctBase(col); base {
		case "tpot":
			tpot = true
		case "itl":
			itl = true
		}
	}
	return tpot && !itl
}

// evalPctCell reads one cell of the percentile table: metric is its column
// (or row) name with its unit, pct "10%", "min" or "max"; gaps files a
// "TPOT" column as the chunk gaps it holds (evalTPOTIsGaps).
func evalPctCell(b *Block, metric, pct, cell string, line int, gaps bool) {
	b.Labels = append(b.Labels, Label{Label: metric + " " + pct, Value: cell, Line: line})
	name, unit := splitUnit(metric)
	row, ok := evalPercentiles[name]
	if !ok {
		row, ok = evalPercentiles[normLabel([]byte(metric))]
		unit = ""
	}
	if !ok {
		return
	}
	stat := nvStat(pct)
	if stat == "" {
		return
	}
	if gaps && row.base == "tpot" {
		row.base = "itl"
	}
	if row.kind == nvLatency && unit == "" {
		if unit = evalBareUnit(b, row.base); unit == "" {
			evalNoUnit(b, metric, line)
			return
		}
	}
	keys, spec := nvRowKeys(row, unit, stat)
	if len(keys) == 0 {
		return
	}
	if row.kind == nvLatency && unit == "s" {
		spec.unit, spec.from = "ms", "s"
	}
	v, ok := nvCell(cell)
	if !ok {
		return
	}
	addKeys(b, keys, spec, metric+" "+pct, v, line)
}

// evalEnd queues the summary being read.
func (s *Scanner) evalEnd() {
	e := open[*evalState](s)
	s.rd = nil
	b := e.b
	if len(b.Metrics) == 0 || e.untitled && evalSummaryKeys(b) < 3 {
		return // not EvalScope's, or too little of it to tell
	}
	s.evalVersion(b, e.legacy)
	if e.plain {
		b.Version = "2024-01 to 2024-11 (print() lines, times in s)"
	}
	if e.cut {
		b.Version = "percentile table only (its summary was cut)"
	}
	evalIdentities(b)
	s.emit(b)
}

// evalVersion names the layout era of b and marks its per-request rates.
func (s *Scanner) evalVersion(b *Block, legacy bool) {
	switch {
	case legacy:
		b.Version = "2024-11 to 2025-03 (Throughput(average tokens/s), Average QPS)"
	case b.hasLabel("Test Duration (s)"):
		b.Version = "2026-04+ (Test Duration, latencies in ms)"
	default:
		b.Version = "2025-04 to 2026-04 (Time taken for tests)"
	}
	for k := range b.Metrics {
		if strings.HasSuffix(k, "user_throughput") {
			setDefinition(b, k, PerRequestMean)
		}
	}
}

// hasLabel reports whether b has a label printed as l.
func (b *Block) hasLabel(l string) bool {
	for _, x := range b.Labels {
		if x.Label == l {
			return true
		}
	}
	return false
}

// evalSummaryKeys counts the labels of b that are EvalScope summary labels.
func evalSummaryKeys(b *Block) int {
	n := 0
	for _, l := range b.Labels {
		if _, ok := evalLabels[normLabel([]byte(l.Label))]; ok {
			n++
		}
	}
	return n
}
