package benchlog

import (
	"bytes"
	"fmt"
	"strings"
)

// EvalScope perf before its tabulate tables (2024-01 to 2024-11,
// evalscope/perf/http_client.py summary_result, and llmuses before it):
// print() lines after "Benchmarking summary: ":
//
//	 Time taken for tests: 22.512 seconds
//	 Number of concurrency: 128
//	 Average latency: 14.140
//	 ...
//	 Percentile of time to first token:
//	     p50: 2.7137
//	 Percentile of request latency:
//	     p50: 14.7637
//
// Only the duration carries its unit. Every other time is in seconds: the
// printing code divides time.perf_counter() differences and never scales
// them, so the unit comes from this layout, and evalIdentities cross-checks
// it before anything is filed.

// evalPlainLabels maps the layout's labels (normalised) to keys; a label
// mapped to the zero keySpec is the layout's own and kept as a label only.
var evalPlainLabels = map[string]keySpec{
	"time taken for tests":                         {key: "duration", unit: "s", from: "s"},
	"expected number of requests":                  {},
	"number of concurrency":                        {key: "max_concurrency"},
	"total requests":                               {key: "num_prompts"},
	"succeed requests":                             {key: "completed"},
	"failed requests":                              {key: "failed"},
	"average qps":                                  {key: "request_throughput"},
	"average latency":                              {key: "mean_e2el_ms", unit: "ms", from: "s"},
	"average time to first token":                  {key: "mean_ttft_ms", unit: "ms", from: "s"},
	"average input tokens per request":             {key: "mean_input_len"},
	"average output tokens per request":            {key: "mean_output_len"},
	"throughput(average output tokens per second)": {key: "output_throughput"},
	// Total time / output tokens: not a per-request TPOT.
	"average time per output token": {},
	"average package per request":   {},
	"average package latency":       {},
}

// evalPlainPcts maps the percentile sections to key bases.
var evalPlainPcts = map[string]string{
	"percentile of time to first token": "ttft",
	"percentile of request latency":     "e2el",
}

// evalPlainStart reports whether text, the first line after the summary's
// title, opens the print() layout.
func evalPlainStart(text []byte) bool {
	return bytes.HasPrefix(text, []byte("Time taken for tests:"))
}

// evalPlainLine reads one line of the print() layout; false if the line is
// not part of it.
func (s *Scanner) evalPlainLine(text []byte) bool {
	e := open[*evalState](s)
	b := e.b
	if bytes.Equal(text, []byte("Too little data to calculate quantiles!")) {
		b.EndLine = s.line
		return true
	}
	label, value, ok := bytes.Cut(text, []byte(":"))
	if !ok {
		return false
	}
	norm := normLabel(label)
	value = bytes.TrimSpace(value)
	if base, ok := evalPlainPcts[norm]; ok && len(value) == 0 {
		e.pctBase, e.pctLabel = base, string(label)
		b.EndLine = s.line
		return true
	}
	if e.pctBase != "" && len(norm) > 1 && norm[0] == 'p' && isDigits(norm[1:]) {
		s.evalPlainPct(norm, string(label), string(value))
		return true
	}
	spec, ok := evalPlainLabels[norm]
	if !ok || e.pctBase != "" {
		return false
	}
	b.EndLine = s.line
	b.Labels = append(b.Labels, Label{Label: string(label), Value: string(value), Line: s.line})
	if spec.key == "" {
		return true
	}
	v := string(value)
	if spec.key == "duration" {
		v = strings.TrimSuffix(v, " seconds")
	}
	addKeys(b, []string{spec.key}, spec, string(label), v, s.line)
	return true
}

// evalPlainPct reads a "pNN: value" line of a percentile section.
func (s *Scanner) evalPlainPct(stat, label, value string) {
	b := open[*evalState](s).b
	b.EndLine = s.line
	name := open[*evalState](s).pctBase
	full := open[*evalState](s).pctLabel + " " + label
	b.Labels = append(b.Labels, Label{Label: full, Value: value, Line: s.line})
	keys := []string{stat + "_" + name + "_ms"}
	if stat == "p50" {
		keys = append(keys, "median_"+name+"_ms")
	}
	addKeys(b, keys, keySpec{unit: "ms", from: "s"}, full, value, s.line)
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// evalIdentities cross-checks the units of an EvalScope summary.
func evalIdentities(b *Block) { unitIdentities(b, "EvalScope") }

// evalBareUnit returns the unit of a percentile column printed without
// one ("Latency", as a pasted table may lose it): request latency is in
// seconds in every layout; TTFT, TPOT and ITL are in the unit the same
// summary prints their mean in (s until 2026-04, ms after). "" if the
// summary does not say.
func evalBareUnit(b *Block, base string) string {
	if base == "e2el" {
		return "s"
	}
	for _, l := range b.Labels {
		spec, ok := evalLabels[normLabel([]byte(l.Label))]
		if ok && spec.key == "mean_"+base+"_ms" {
			return spec.from
		}
	}
	return ""
}

// evalNoUnit reports, once per column, a latency whose unit is undecided.
func evalNoUnit(b *Block, metric string, line int) {
	msg := fmt.Sprintf("EvalScope column %q prints no unit and the summary above it does not fix one (s or ms); its values are not read: paste the summary table with it", metric)
	for _, p := range b.Problems {
		if p.Msg == msg {
			return
		}
	}
	b.Problems = append(b.Problems, &SyntaxError{File: b.File, Line: line, Msg: msg})
}

// evalCutStart reads a "Percentile results:" table pasted without the
// summary above it: the percentile columns carry their units, a bare one
// finds none to take and is not read.
func (s *Scanner) evalCutStart() {
	e := open[*evalState](s)
	e.mode, e.cut = evalWaitPct, true
	e.b.Problems = append(e.b.Problems, cutTopProblem(s.name, s.line, "EvalScope percentile table", `"Benchmarking summary:" table`))
}
