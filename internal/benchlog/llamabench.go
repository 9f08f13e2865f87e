package benchlog

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// llama.cpp's llama-bench (tools/llama-bench/llama-bench.cpp, earlier
// examples/llama-bench): every test (pp512, tg128, pp512+tg128, each maybe
// "@ d<depth>") is repeated -r times and printed as one result, the mean and
// sample standard deviation over the repetitions of (n_prompt + n_gen) /
// repetition time. Each result becomes one block, in every output mode:
//
//   - -o md (the default): a header "| model | size | params | backend |
//     ... | test | t/s |" (always these first and last columns), a rule,
//     one row per test ("%.2f ± %.2f"), and after the last row "build:
//     <commit> (<number>)". A row is a block of one line; the footer gives
//     the rows above it their Version. Lines that llama-bench writes to
//     stderr between rows (--progress, timings) are skipped; another line
//     leaves the rows read so far as they are, but later rows of the table
//     are still read.
//   - -o csv: a header "build_commit,build_number,...", then one row per
//     test, every value quoted.
//   - -o json (an array of objects, one field per line) and -o jsonl (one
//     object per line): read by the JSON reader (see llamaJSON), which
//     takes C's bare -nan and inf for the strings they mean.
//   - -o sql: "INSERT INTO llama_bench (fields) VALUES ('v', ...);" lines
//     (table "test" in early releases), each a block; the CREATE TABLE is
//     skipped.
//
// The fields are found by name: they changed with nearly every release.

// Canonical keys of llama-bench's t/s: the mean of a prompt-processing
// test (n_gen 0), of a generation test (n_prompt 0) and of a test that
// does both (-pg); "std_" + key is the standard deviation.
const (
	keyLlamaPP = "pp_tokens_per_s"
	keyLlamaTG = "tg_tokens_per_s"
	keyLlamaPG = "pg_tokens_per_s"
)

// llamaKey returns the key of a test's t/s.
func llamaKey(nPrompt, nGen int) string {
	switch {
	case nGen == 0:
		return keyLlamaPP
	case nPrompt == 0:
		return keyLlamaTG
	}
	return keyLlamaPG
}

// llamaState is a llama-bench markdown table or CSV being read.
type llamaState struct {
	csv  bool
	cols []string // md: the header cells as printed; csv: the field names
	// held are the rows of a markdown table not yet handed out: the build
	// footer that follows the last row is their Version.
	held []*Block
}

var (
	llamaCSVHeader = []byte("build_commit,")
	llamaSQLInsert = []byte("INSERT INTO ")
	llamaFooter    = []byte("build: ")
)

// llamaStart opens a markdown table at its header or a CSV at its header
// line, or reads one SQL INSERT line; text is a line outside any block.
func (s *Scanner) llamaStart(text []byte) bool {
	text = bytes.TrimRight(text, " \t\r")
	if len(text) == 0 {
		return false
	}
	switch text[0] {
	case '|':
		c := cells(text, "|")
		n := len(c)
		// The first tables (Aug 2023) had no size and params columns.
		if n < 4 || c[0] != "model" || !slices.Contains(c[1:4], "backend") ||
			c[n-2] != "test" || c[n-1] != "t/s" {
			return false
		}
		s.llamaEnd()
		s.lb = &llamaState{cols: c}
		return true
	case 'b':
		if !bytes.HasPrefix(text, llamaCSVHeader) {
			return false
		}
		names := strings.Split(string(text), ",")
		if !slices.Contains(names, "n_prompt") || !slices.Contains(names, "n_gen") || !slices.Contains(names, "avg_ts") {
			return false
		}
		s.llamaEnd()
		s.lb = &llamaState{csv: true, cols: names}
		return true
	case 'I':
		if b := s.llamaSQL(text); b != nil {
			s.emit(b)
			return true
		}
	}
	return false
}

// llamaLine reads a line while a table or CSV is open; false when the line
// is not part of it (read it as any other line: it may open another one).
func (s *Scanner) llamaLine(line []byte, long bool) bool {
	st := s.lb
	if long {
		s.llamaFlush()
		return false
	}
	text := bytes.TrimRight(s.clean(line), " \t\r")
	if len(text) == 0 {
		return false // nothing: the rows stay held
	}
	if st.csv {
		if b := s.llamaCSVRow(text); b != nil {
			s.emit(b)
			return true
		}
		return false
	}
	switch {
	case text[0] == '|':
		if isASCIIBorder(text) {
			return true
		}
		if c := cells(text, "|"); len(c) == len(st.cols) {
			if b := s.llamaRow(c); b != nil {
				st.held = append(st.held, b)
				if len(st.held) >= maxBlockLines {
					s.llamaFlush()
				}
				return true
			}
		}
		s.llamaEnd() // another table
		return false
	case bytes.HasPrefix(text, llamaFooter):
		if v, ok := llamaBuild(text[len(llamaFooter):]); ok {
			for _, b := range st.held {
				b.Version = v
			}
			s.llamaEnd()
			return true
		}
	case bytes.HasPrefix(text, []byte("llama-bench: benchmark ")), bytes.HasPrefix(text, []byte("llama_perf_")),
		bytes.HasPrefix(text, []byte("llama_print_timings")):
		return true // stderr between rows: --progress, timings
	}
	s.llamaFlush()
	return false
}

// llamaFlush hands out the rows held.
func (s *Scanner) llamaFlush() {
	if s.lb == nil {
		return
	}
	for i, b := range s.lb.held {
		s.emit(b)
		s.lb.held[i] = nil
	}
	s.lb.held = s.lb.held[:0]
}

// llamaEnd closes the table or CSV.
func (s *Scanner) llamaEnd() {
	s.llamaFlush()
	s.lb = nil
}

// llamaBuild reads the footer "<commit> (<number>)" into a Version.
func llamaBuild(text []byte) (string, bool) {
	commit, num, ok := bytes.Cut(text, []byte(" ("))
	if !ok || len(commit) == 0 || bytes.IndexByte(commit, ' ') >= 0 || len(num) < 2 || num[len(num)-1] != ')' {
		return "", false
	}
	num = num[:len(num)-1]
	if !allDigits(num) {
		return "", false
	}
	return "build " + string(num) + " (" + string(commit) + ")", true
}

func allDigits[T string | []byte](s T) bool {
	if len(s) == 0 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}

// llamaRow reads a markdown row (c has as many cells as the header); nil
// if its test and t/s cells are not llama-bench's.
func (s *Scanner) llamaRow(c []string) *Block {
	cols := s.lb.cols
	n := len(cols)
	nPrompt, nGen, nDepth, spaced, ok := parseLlamaTest(c[n-2])
	if !ok {
		return nil
	}
	mean, std, ok := strings.Cut(c[n-1], "±")
	if !ok {
		return nil
	}
	b := &Block{File: s.name, Line: s.line, EndLine: s.line, Format: FormatLlamaBench, Tool: ToolLlamaBench,
		Definition: PerRepetitionMean, Metrics: make(map[string]Metric, 2), Labels: make([]Label, 0, n+3)}
	if spaced {
		b.Version = `early layout ("pp 512" test names)`
	}
	for i, col := range cols {
		b.Labels = append(b.Labels, Label{Label: col, Value: c[i], Line: s.line})
	}
	// The test's sizes, as the test cell shows them.
	b.Labels = append(b.Labels, Label{Label: "n_prompt", Value: strconv.Itoa(nPrompt), Line: s.line},
		Label{Label: "n_gen", Value: strconv.Itoa(nGen), Line: s.line})
	if nDepth > 0 {
		b.Labels = append(b.Labels, Label{Label: "n_depth", Value: strconv.Itoa(nDepth), Line: s.line})
	}
	key := llamaKey(nPrompt, nGen)
	s.llamaMetric(b, key, "t/s", strings.TrimSpace(mean), s.line)
	s.llamaMetric(b, "std_"+key, "t/s", strings.TrimSpace(std), s.line)
	return b
}

// parseLlamaTest reads a test name: pp512, tg128, pp512+tg128, each maybe
// followed by " @ d4096" (n_depth); before 2024 "pp 512" and "tg 128"
// (spaced).
func parseLlamaTest(t string) (nPrompt, nGen, nDepth int, spaced, ok bool) {
	if name, depth, found := strings.Cut(t, " @ d"); found {
		if !allDigits(depth) {
			return 0, 0, 0, false, false
		}
		nDepth, _ = strconv.Atoi(depth)
		t = name
	}
	num := func(part, prefix string) (int, bool) {
		rest, ok := strings.CutPrefix(part, prefix)
		if !ok {
			return 0, false
		}
		if r, ok := strings.CutPrefix(rest, " "); ok {
			rest, spaced = r, true
		}
		if !allDigits(rest) || len(rest) > 9 {
			return 0, false
		}
		v, _ := strconv.Atoi(rest)
		return v, true
	}
	pp, tg, both := strings.Cut(t, "+")
	switch {
	case both:
		var ok1, ok2 bool
		nPrompt, ok1 = num(pp, "pp")
		nGen, ok2 = num(tg, "tg")
		ok = ok1 && ok2
	case strings.HasPrefix(t, "pp"):
		nPrompt, ok = num(t, "pp")
	default:
		nGen, ok = num(t, "tg")
	}
	return nPrompt, nGen, nDepth, spaced, ok && nPrompt+nGen > 0
}

// llamaMetric adds a t/s figure; a non-finite one (-nan when every
// repetition took the same time) is a problem, not a metric.
func (s *Scanner) llamaMetric(b *Block, key, label, raw string, line int) {
	if notFinite(key, raw) {
		b.Problems = append(b.Problems, notFiniteProblem(s.name, line, label, raw, key))
		return
	}
	m, ok := makeMetric(keySpec{key: key}, raw, line)
	if !ok {
		b.Problems = append(b.Problems, notNumber(s.name, line, label, raw, key))
		return
	}
	b.Metrics[key] = m
}

// llamaFields are the fields of one result of -o csv, json, jsonl or sql:
// names as llama-bench prints them, values without their quotes.
type llamaFields struct {
	names, values []string
	lines         []int
}

func (f *llamaFields) get(name string) (string, int, bool) {
	for i, n := range f.names {
		if n == name {
			return f.values[i], f.lines[i], true
		}
	}
	return "", 0, false
}

// llamaBlock makes the block of one result of -o csv, json, jsonl or sql;
// nil if it lacks n_prompt, n_gen or avg_ts. Its labels are those the
// markdown table would show (model, size, params, backend, ngl, threads,
// test; backend only from a "backends" field), then every field as printed.
func (s *Scanner) llamaBlock(f *llamaFields, line, end int, format Format) *Block {
	np, _, ok1 := f.get("n_prompt")
	ng, _, ok2 := f.get("n_gen")
	avg, avgLine, ok3 := f.get("avg_ts")
	if !ok1 || !ok2 || !ok3 || !allDigits(np) || !allDigits(ng) || len(np) > 9 || len(ng) > 9 {
		return nil
	}
	nPrompt, _ := strconv.Atoi(np)
	nGen, _ := strconv.Atoi(ng)
	if nPrompt+nGen == 0 {
		return nil
	}
	b := &Block{File: s.name, Line: line, EndLine: end, Format: format, Tool: ToolLlamaBench,
		Definition: PerRepetitionMean, Metrics: make(map[string]Metric, 2), Labels: make([]Label, 0, len(f.names)+7)}
	if num, _, ok := f.get("build_number"); ok {
		b.Version = "build " + num
		if commit, _, ok := f.get("build_commit"); ok && commit != "" {
			b.Version += " (" + commit + ")"
		}
	}
	derive := func(label, field string, format func(string) (string, bool)) {
		v, l, ok := f.get(field)
		if ok && format != nil {
			v, ok = format(v)
		}
		if ok {
			b.Labels = append(b.Labels, Label{Label: label, Value: v, Line: l})
		}
	}
	derive("model", "model_type", nil)
	derive("size", "model_size", func(v string) (string, bool) {
		n, err := strconv.ParseUint(v, 10, 64)
		if n < 1<<30 {
			return fmt.Sprintf("%.2f MiB", float64(n)/1024/1024), err == nil
		}
		return fmt.Sprintf("%.2f GiB", float64(n)/1024/1024/1024), err == nil
	})
	derive("params", "model_n_params", func(v string) (string, bool) {
		n, err := strconv.ParseUint(v, 10, 64)
		if n < 1e9 {
			return fmt.Sprintf("%.2f M", float64(n)/1e6), err == nil
		}
		return fmt.Sprintf("%.2f B", float64(n)/1e9), err == nil
	})
	derive("backend", "backends", nil)
	derive("ngl", "n_gpu_layers", nil)
	derive("threads", "n_threads", nil)
	test := llamaTestName(nPrompt, nGen, 0)
	_, testLine, _ := f.get("n_prompt")
	if d, _, ok := f.get("n_depth"); ok && allDigits(d) && len(d) <= 9 {
		nd, _ := strconv.Atoi(d)
		test = llamaTestName(nPrompt, nGen, nd)
	}
	b.Labels = append(b.Labels, Label{Label: "test", Value: test, Line: testLine})
	for i := range f.names {
		b.Labels = append(b.Labels, Label{Label: f.names[i], Value: f.values[i], Line: f.lines[i]})
	}
	key := llamaKey(nPrompt, nGen)
	s.llamaMetric(b, key, "avg_ts", avg, avgLine)
	if sd, l, ok := f.get("stddev_ts"); ok {
		s.llamaMetric(b, "std_"+key, "stddev_ts", sd, l)
	}
	return b
}

// llamaTestName is the test as the markdown table names it.
func llamaTestName(nPrompt, nGen, nDepth int) string {
	var t string
	switch {
	case nGen == 0:
		t = "pp" + strconv.Itoa(nPrompt)
	case nPrompt == 0:
		t = "tg" + strconv.Itoa(nGen)
	default:
		t = "pp" + strconv.Itoa(nPrompt) + "+tg" + strconv.Itoa(nGen)
	}
	if nDepth > 0 {
		t += " @ d" + strconv.Itoa(nDepth)
	}
	return t
}

// llamaCSVRow reads a row of -o csv; nil if the line is not one.
func (s *Scanner) llamaCSVRow(text []byte) *Block {
	cols := s.lb.cols
	if text[0] != '"' && bytes.Count(text, []byte(",")) < len(cols)-1 {
		return nil
	}
	values, ok := splitCSVLine(text, len(cols))
	if !ok || len(values) != len(cols) {
		return nil
	}
	f := &llamaFields{names: cols, values: values, lines: s.sameLines(len(cols))}
	return s.llamaBlock(f, s.line, s.line, FormatLlamaBenchCSV)
}

// sameLines returns n times the current line.
func (s *Scanner) sameLines(n int) []int {
	l := make([]int, n)
	for i := range l {
		l[i] = s.line
	}
	return l
}

// splitCSVLine splits one CSV line: fields quoted ("" inside for ") or not.
// ok is false for a malformed line or one with more than max fields.
func splitCSVLine(text []byte, max int) ([]string, bool) {
	out := make([]string, 0, max)
	var buf []byte
	for i := 0; ; {
		if len(out) == max {
			return nil, false
		}
		if i < len(text) && text[i] == '"' {
			buf = buf[:0]
			i++
			for {
				j := bytes.IndexByte(text[i:], '"')
				if j < 0 {
					return nil, false
				}
				buf = append(buf, text[i:i+j]...)
				i += j + 1
				if i < len(text) && text[i] == '"' {
					buf = append(buf, '"')
					i++
					continue
				}
				break
			}
			out = append(out, string(buf))
		} else {
			j := bytes.IndexByte(text[i:], ',')
			if j < 0 {
				j = len(text) - i
			}
			if bytes.IndexByte(text[i:i+j], '"') >= 0 {
				return nil, false
			}
			out = append(out, string(text[i:i+j]))
			i += j
		}
		if i == len(text) {
			return out, true
		}
		if text[i] != ',' {
			return nil, false
		}
		i++
	}
}

// llamaSQL reads an -o sql line
//
//	INSERT INTO llama_bench (build_commit, ...) VALUES ('b3d3a1a', ...);
//
// (values are not escaped: one holding "', '" cannot be read).
func (s *Scanner) llamaSQL(text []byte) *Block {
	rest, ok := bytes.CutPrefix(text, llamaSQLInsert)
	if !ok {
		return nil
	}
	_, rest, ok = bytes.Cut(rest, []byte(" ("))
	if !ok {
		return nil
	}
	fields, values, ok := bytes.Cut(rest, []byte(") VALUES ('"))
	if !ok {
		return nil
	}
	values = bytes.TrimSuffix(values, []byte(";"))
	values, ok = bytes.CutSuffix(values, []byte("')"))
	if !ok {
		return nil
	}
	names := strings.Split(string(fields), ", ")
	vals := strings.Split(string(values), "', '")
	if len(names) != len(vals) {
		return nil
	}
	f := &llamaFields{names: names, values: vals, lines: s.sameLines(len(names))}
	return s.llamaBlock(f, s.line, s.line, FormatLlamaBenchSQL)
}

// llamaJSON makes the block of an -o json or -o jsonl object (one printed
// on a single line is JSONL); nil if it is not llama-bench's.
func (s *Scanner) llamaJSON(o *jsonObj) *Block {
	if !o.has["avg_ts"] || !o.has["n_prompt"] || !o.has["n_gen"] {
		return nil
	}
	n := len(o.kvs)
	f := &llamaFields{names: make([]string, 0, n), values: make([]string, 0, n), lines: make([]int, 0, n)}
	for _, kv := range o.kvs {
		if !strings.Contains(kv.path, ".") {
			f.names = append(f.names, kv.path)
			f.values = append(f.values, kv.raw)
			f.lines = append(f.lines, kv.line)
		}
	}
	format := FormatLlamaBenchJSON
	if o.end <= o.line {
		format = FormatLlamaBenchJSONL
	}
	b := s.llamaBlock(f, o.line, max(o.end, o.line), format)
	if b == nil {
		return nil
	}
	b.Problems = append(o.problems, b.Problems...)
	for _, k := range []string{"samples_ns", "samples_ts"} {
		if l, ok := o.floatLine[k]; ok {
			b.Labels = append(b.Labels, Label{Label: k, Value: fmt.Sprintf("[%d values]", len(o.floats[k])), Line: l})
		}
	}
	return b
}
