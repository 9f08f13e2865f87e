package benchlog

import (
	"fmt"
	"strings"
)

// AISBench (AISBench/benchmark, `ais_bench --mode perf`, summarizer
// default_perf) prints two tabulate tables drawn with box characters:
//
//	│ Performance Parameters │ Stage  │ Average       │ Min          │ ... │ P99          │ N │
//	│ E2EL                   │ total  │ 2048.2945  ms │ 1729.7498 ms │ ... │ 3424.4354 ms │ 8 │
//	│ InputTokens            │ total  │ 1512.5        │ 1481.0       │ ... │ 1563.06      │ 8 │
//	│ OutputTokenThroughput  │ total  │ 115.9216      │ 107.6555     │ ... │ 118.6388     │ 8 │
//
//	│ Common Metric            │ Stage │ Value              │
//	│ Benchmark Duration       │ total │ 19897.8505 ms      │
//	│ Request Throughput       │ total │ 0.4021 req/s       │
//	│ Output Token Throughput  │ total │ 115.7835 token/s   │
//
// with rules of ╒ ╞ ├ ╘ between. Both tables are one block. A latency is
// read only with its "ms"; a rate with the unit its row prints, or none
// where AISBench prints its per-request rates without one (their
// definitions, tokens over seconds, fix it).

type aisReader struct {
	b      *Block
	cols   []string // the current table's header
	common bool     // in the Common Metric table
	stage  string
}

// aisRows maps a Performance Parameters row to its key base and the unit
// its cells carry ("" none: a count, or a rate printed bare).
var aisRows = map[string]struct{ base, unit string }{
	"e2el":                   {"e2el_ms", "ms"},
	"ttft":                   {"ttft_ms", "ms"},
	"tpot":                   {"tpot_ms", "ms"},
	"itl":                    {"itl_ms", "ms"},
	"inputtokens":            {"input_len", ""},
	"outputtokens":           {"output_len", ""},
	"outputtokenthroughput":  {"user_throughput", "token/s"},
	"prefilltokenthroughput": {"user_prefill_throughput", "token/s"},
}

// aisCommon maps a Common Metric row to its key and the unit it must print.
var aisCommon = map[string]struct{ key, unit string }{
	"benchmark duration":       {"duration", "ms"},
	"total requests":           {"num_prompts", ""},
	"failed requests":          {"failed", ""},
	"success requests":         {"completed", ""},
	"concurrency":              {"avg_concurrency", ""},
	"max concurrency":          {"max_concurrency", ""},
	"request throughput":       {"request_throughput", "req/s"},
	"total input tokens":       {"total_input_tokens", ""},
	"prefill token throughput": {"prefill_throughput", "token/s"},
	"total generated tokens":   {"total_output_tokens", ""},
	"input token throughput":   {"input_throughput", "token/s"},
	"output token throughput":  {"output_throughput", "token/s"},
	"total token throughput":   {"total_token_throughput", "token/s"},
}

var aisStats = map[string]string{"average": "mean", "min": "min", "max": "max", "median": "p50", "p75": "p75", "p90": "p90", "p99": "p99"}

// aisStart opens the tables at either header row.
func (s *Scanner) aisStart(text []byte) bool {
	c := evalCells(text)
	if len(c) < 3 || c[1] != "Stage" || c[0] != "Performance Parameters" && c[0] != "Common Metric" {
		return false
	}
	r := &aisReader{b: &Block{File: s.name, Line: s.line, EndLine: s.line, Format: FormatAISBench, Tool: ToolAISBench,
		Version: "ais_bench --mode perf", Definition: CountOverDuration, Metrics: map[string]Metric{}}}
	s.rd = &lineBlock{r}
	return r.line(s, text)
}

func (r *aisReader) line(s *Scanner, text []byte) bool {
	if len(text) == 0 {
		return true
	}
	if strings.HasPrefix(string(text), "╒") || strings.HasPrefix(string(text), "╞") ||
		strings.HasPrefix(string(text), "├") || strings.HasPrefix(string(text), "╘") {
		return true
	}
	c := evalCells(text)
	if len(c) < 3 {
		s.lrEnd()
		return false
	}
	b := r.b
	b.EndLine = s.line
	switch c[0] {
	case "Performance Parameters", "Common Metric":
		r.cols, r.common = c, c[0] == "Common Metric"
		return true
	}
	if len(c) != len(r.cols) {
		s.lrEnd()
		return false
	}
	if r.stage == "" {
		r.stage = c[1]
		if c[1] != "total" {
			b.Version += " (" + c[1] + " stage)"
		}
	}
	if r.common {
		b.Labels = append(b.Labels, Label{Label: c[0], Value: c[2], Line: s.line})
		if m, ok := aisCommon[strings.ToLower(c[0])]; ok {
			r.value(s, c[0], c[2], m.key, m.unit, m.unit != "")
		}
		return true
	}
	row, known := aisRows[strings.ToLower(c[0])]
	for i := 2; i < len(c); i++ {
		label := c[0] + " " + r.cols[i]
		b.Labels = append(b.Labels, Label{Label: label, Value: c[i], Line: s.line})
		stat := aisStats[strings.ToLower(r.cols[i])]
		if !known || stat == "" {
			continue // N: the requests the statistics are over
		}
		key := stat + "_" + row.base
		if stat == "mean" && row.unit == "token/s" {
			key = row.base // user_throughput is the mean, as llmperf's
		}
		r.value(s, label, c[i], key, row.unit, row.unit == "ms")
		if stat == "p50" {
			r.value(s, label, c[i], "median_"+row.base, row.unit, row.unit == "ms")
		}
	}
	return true
}

// value files a cell that prints unit, or none where that is allowed.
func (r *aisReader) value(s *Scanner, label, cell, key, unit string, needUnit bool) {
	f := strings.Fields(cell)
	if len(f) == 0 {
		return
	}
	got := strings.Join(f[1:], " ")
	if got != unit && (needUnit || got != "") {
		r.b.Problems = append(r.b.Problems, &SyntaxError{File: s.name, Line: s.line,
			Msg: fmt.Sprintf("AISBench %s: %q is not in %s as AISBench prints it; not read, since its unit cannot be told", label, cell, unit)})
		return
	}
	spec := keySpec{}
	switch {
	case unit == "ms" && key == "duration":
		spec = keySpec{unit: "s", from: "ms"}
	case unit == "ms":
		spec = keySpec{unit: "ms", from: "ms"}
	}
	addKeys(r.b, []string{key}, spec, label, f[0], s.line)
}

// end queues the block if it has a value.
func (r *aisReader) end(s *Scanner) {
	b := r.b
	if len(b.Metrics) == 0 {
		return
	}
	for k := range b.Metrics {
		if strings.HasSuffix(k, "user_throughput") || strings.HasSuffix(k, "user_prefill_throughput") || k == "avg_concurrency" {
			setDefinition(b, k, PerRequestMean)
		}
	}
	s.emit(b)
}
