package benchlog

import (
	"bytes"
	"fmt"
	"strings"
)

// vLLM's multi-turn benchmark (benchmarks/multi_turn/benchmark_serving_multi_turn.py,
// 2025 on), read from its process_statistics. For each assumed warm-up
// share it prints
//
//	Statistics summary:                      (or "Statistics summary (assuming 50% warmup samples):")
//	runtime_sec = 215.810                    ("{k} = {v:.3f}" for floats)
//	requests_per_sec = 0.769
//	[warmup_runtime_sec = ..., total_runtime_incl_warmup_sec = ...]   (--warmup-step)
//	----------------------------------------------------------------------------------------------------
//	                   count     mean     std      min      25%      50%      75%      90%      99%      max
//	ttft_ms            166.0    78.22   67.63    45.91    59.94    62.26    64.43    69.66   353.18   567.54
//	...
//	----------------------------------------------------------------------------------------------------
//
// The header lines may carry ANSI colours. The table is print(df) of
// pandas' describe().transpose() with display.precision 2: one row per
// measured column (ttft_ms, tpot_ms, latency_ms, input_num_turns,
// input_num_tokens, output_num_tokens, output_num_chunks), the percentiles
// 25, 50, 75, 90 and, with 100, 1000 or 10000 samples, 99, 99.9 and 99.99.
// pandas fits the table to the terminal (80 columns when the output goes to
// a pipe or a file) by dropping middle columns behind a "..." column; the
// columns are therefore found by their header, and a "..." column is
// skipped. A column with a tiny or huge value is printed in scientific
// notation (8.95e+02), which is read as such; NaN (the std of one sample)
// gives no value.

// mtRows maps the rows of the table to key bases; the others
// (input_num_turns, output_num_chunks) are kept as labels.
var mtRows = map[string]nvRow{
	"ttft_ms":           {"ttft", nvLatency, ""},
	"tpot_ms":           {"tpot", nvLatency, ""},
	"latency_ms":        {"e2el", nvLatency, ""},
	"input_num_tokens":  {"input_len", nvLength, ""},
	"output_num_tokens": {"output_len", nvLength, ""},
}

// mtParams maps the "k = v" lines before the table.
var mtParams = map[string]keySpec{
	"runtime_sec":      {key: "duration", unit: "s"},
	"requests_per_sec": {key: "request_throughput"},
}

const mtTitle = "Statistics summary"

// multiTurn is a statistics summary being read.
type multiTurn struct {
	b     *Block
	rules int      // separator lines seen: 1 before the table, 2 after it
	cols  []string // the table's columns ("count", "mean", "25%", "...")
}

// mtStart opens a block at a "Statistics summary" line.
func (s *Scanner) mtStart(text []byte) bool {
	if !bytes.HasPrefix(text, []byte(mtTitle)) {
		return false
	}
	rest, ok := bytes.CutPrefix(bytes.TrimRight(text, " \t"), []byte(mtTitle))
	if !ok || len(rest) == 0 || rest[len(rest)-1] != ':' {
		return false
	}
	rest = rest[:len(rest)-1]
	warmup := ""
	if len(rest) > 0 {
		w, ok := bytes.CutPrefix(rest, []byte(" (assuming "))
		if !ok {
			return false
		}
		w, ok = bytes.CutSuffix(w, []byte(" warmup samples)"))
		if !ok {
			return false
		}
		warmup = string(w)
	}
	b := &Block{File: s.name, Line: s.line, EndLine: s.line, Format: FormatVLLMMultiTurn, Tool: ToolVLLM,
		Version: "benchmark_serving_multi_turn.py (2025+)", Definition: CountOverDuration, Metrics: map[string]Metric{}}
	if warmup != "" {
		b.Labels = append(b.Labels, Label{Label: "warmup samples", Value: warmup, Line: s.line})
	}
	s.rd = &multiTurn{b: b}
	return true
}

// mtLine reads a line of the summary; false if the line is not part of it
// (the block has been ended; read the line as any other).
func (s *Scanner) mtLine(line []byte) bool {
	m := open[*multiTurn](s)
	text := bytes.TrimRight(s.clean(line), " \t")
	if len(text) == 0 {
		return true
	}
	if isDashRule(text) {
		m.rules++
		m.b.EndLine = s.line
		if m.rules == 2 || m.cols != nil {
			s.mtEnd(false)
		}
		return true
	}
	if m.rules == 0 {
		k, v, ok := bytes.Cut(text, []byte(" = "))
		if !ok || bytes.IndexByte(k, ' ') >= 0 {
			s.mtEnd(true)
			return false
		}
		s.mtParam(string(k), string(v))
		return true
	}
	f := bytes.Fields(text)
	if m.cols == nil {
		if len(f) < 2 || string(f[0]) != "count" {
			s.mtEnd(true)
			return false
		}
		for _, c := range f {
			m.cols = append(m.cols, string(c))
		}
		m.b.EndLine = s.line
		return true
	}
	if len(f) != len(m.cols)+1 {
		s.mtEnd(true)
		return false
	}
	s.mtRow(f, text)
	return true
}

// isDashRule reports whether text is a rule of at least 10 '-' only.
func isDashRule(text []byte) bool {
	if len(text) < 10 {
		return false
	}
	for _, c := range text {
		if c != '-' {
			return false
		}
	}
	return true
}

func (s *Scanner) mtParam(k, v string) {
	b := open[*multiTurn](s).b
	b.Labels = append(b.Labels, Label{Label: k, Value: v, Line: s.line})
	b.EndLine = s.line
	if spec, ok := mtParams[k]; ok {
		s.mtMetric(spec, v)
	}
}

// mtRow reads one row of the table: its name and one value per column.
func (s *Scanner) mtRow(f [][]byte, text []byte) {
	m := open[*multiTurn](s)
	name := string(f[0])
	m.b.Labels = append(m.b.Labels, Label{Label: name, Value: string(bytes.TrimSpace(text[len(f[0]):])), Line: s.line})
	m.b.EndLine = s.line
	row, known := mtRows[name]
	for i, col := range m.cols {
		v := string(f[i+1])
		if col == "count" {
			if _, ok := m.b.Metrics["completed"]; !ok {
				s.mtMetric(keySpec{key: "completed"}, v)
			}
			continue
		}
		if !known || v == "..." {
			continue
		}
		st := nvStat(col)
		if st == "" {
			continue
		}
		keys, spec := nvRowKeys(row, "", st)
		for _, k := range keys {
			spec.key = k
			s.mtMetric(spec, v)
		}
	}
}

func (s *Scanner) mtMetric(spec keySpec, v string) {
	b := open[*multiTurn](s).b
	if strings.EqualFold(v, "nan") {
		return // pandas: no value (the std of one sample)
	}
	if notFinite(spec.key, v) {
		b.Problems = append(b.Problems, notFiniteProblem(s.name, s.line, spec.key, v, spec.key))
		return
	}
	m, ok := makeMetric(spec, v, s.line)
	if !ok {
		b.Problems = append(b.Problems, notNumber(s.name, s.line, "", v, spec.key))
		return
	}
	if _, dup := b.Metrics[spec.key]; !dup {
		b.Metrics[spec.key] = m
	}
}

// mtEnd queues the summary if it holds a result (a runtime or a table).
func (s *Scanner) mtEnd(truncated bool) {
	m := open[*multiTurn](s)
	s.rd = nil
	b := m.b
	if len(b.Metrics) == 0 {
		return
	}
	b.Truncated = truncated
	if truncated {
		b.Problems = append(b.Problems, &SyntaxError{File: s.name, Line: b.EndLine,
			Msg: fmt.Sprintf("multi-turn statistics summary of line %d ends before its closing ----- rule; read up to here", b.Line)})
	}
	s.emit(b)
}
