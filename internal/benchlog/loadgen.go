package benchlog

import (
	"fmt"
	"strings"
)

// MLPerf LoadGen's summary (mlcommons/inference loadgen/results.cc,
// PerformanceSummary::LogSummary; mlperf_log_summary.txt or the console):
//
//	================================================
//	MLPerf Results Summary
//	================================================
//	SUT name : PySUT
//	Scenario : Server
//	Mode     : PerformanceOnly
//	Completed samples per second    : 9.87        (Offline: "Samples per second")
//	Completed tokens per second: 2513.45         (LLM benchmarks; Offline: "Tokens per second")
//	Result is : VALID
//	  ...
//	================================================
//	Additional Stats
//	================================================
//	Min latency (ns)                : 456789012
//	50.00 percentile latency (ns)   : 310000000000
//	Mean First Token latency (ns)   : ...
//	Mean Time to Output Token (ns)  : ...
//	================================================
//	Test Parameters Used
//	================================================
//	samples_per_query : 24576
//
// Latencies are in ns as their labels say. A sample is one query element:
// a request only when the summary also counts tokens (the LLM benchmarks,
// one sample per prompt); otherwise its rate keeps a key of its own.

type lgReader struct {
	b       *Block
	samples []lgPending // sample rates, filed at the end
}

// lgPending is a sample rate waiting to know whether the run counted tokens.
type lgPending struct {
	label, value string
	line         int
	scheduled    bool
}

// lgLatencies maps the latency names of the Additional Stats to key bases.
var lgLatencies = map[string]string{"latency": "e2el", "first token latency": "ttft", "time to output token": "tpot"}

func lgStart(s *Scanner, text []byte) lineReader {
	if text[0] != 'M' || string(text) != "MLPerf Results Summary" {
		return nil
	}
	return &lgReader{b: &Block{File: s.name, Line: s.line, EndLine: s.line, Format: FormatLoadGen, Tool: ToolLoadGen,
		Version: "LoadGen summary", Definition: CountOverDuration, Metrics: map[string]Metric{}}}
}

func (r *lgReader) line(s *Scanner, text []byte) bool {
	b := r.b
	if s.line == b.Line || len(text) == 0 || isRule(text) && text[0] == '=' {
		return true
	}
	if text[0] == '*' { // " * Run successful." under an early-stopping result
		b.EndLine = s.line
		return true
	}
	label, value, ok := splitLabel(text)
	if !ok {
		switch string(text) {
		case "Additional Stats", "Test Parameters Used":
			b.EndLine = s.line
			return true
		}
		s.lrEnd()
		return false
	}
	b.EndLine = s.line
	lab, val := string(label), string(value)
	b.Labels = append(b.Labels, Label{Label: lab, Value: val, Line: s.line})
	r.value(s, strings.ToLower(lab), lab, val)
	return true
}

// value files one "label : value" line.
func (r *lgReader) value(s *Scanner, norm, label, value string) {
	b := r.b
	switch norm {
	case "samples per second", "completed samples per second":
		r.samples = append(r.samples, lgPending{label, value, s.line, false})
		return
	case "scheduled samples per second":
		r.samples = append(r.samples, lgPending{label, value, s.line, true})
		return
	case "tokens per second", "completed tokens per second":
		addKeys(b, []string{"output_throughput"}, keySpec{}, label, value, s.line)
		return
	case "result is":
		if value != "VALID" {
			b.Problems = append(b.Problems, &SyntaxError{File: s.name, Line: s.line,
				Msg: fmt.Sprintf("LoadGen says the result is %s: the run broke a rule of its scenario (see the lines below it)", value)})
		}
		return
	}
	name, ok := strings.CutSuffix(norm, " (ns)")
	if !ok {
		return // settings, the test parameters: labels
	}
	var stat string
	switch {
	case strings.HasPrefix(name, "min "):
		stat, name = "min", name[4:]
	case strings.HasPrefix(name, "max "):
		stat, name = "max", name[4:]
	case strings.HasPrefix(name, "mean "):
		stat, name = "mean", name[5:]
	default:
		// "99.90 percentile latency", "90th percentile latency"
		p, rest, ok := strings.Cut(name, " percentile ")
		if !ok {
			return
		}
		p = strings.TrimSuffix(p, "th")
		if strings.Contains(p, ".") {
			p = strings.TrimRight(strings.TrimRight(p, "0"), ".")
		}
		stat, name = "p"+p, rest
	}
	base, ok := lgLatencies[name]
	if !ok {
		return
	}
	keys := []string{stat + "_" + base + "_ms"}
	if stat == "p50" {
		keys = append(keys, "median_"+base+"_ms")
	}
	addKeys(b, keys, keySpec{unit: "ms", from: "ns"}, label, value, s.line)
}

// end files the sample rates and queues the summary if it has a result.
func (r *lgReader) end(s *Scanner) {
	b := r.b
	_, tokens := b.Metrics["output_throughput"]
	for _, p := range r.samples {
		key := "samples_per_s"
		switch {
		case tokens && p.scheduled:
			key = "request_rate"
		case tokens:
			key = "request_throughput"
		case p.scheduled:
			key = "scheduled_samples_per_s"
		}
		addKeys(b, []string{key}, keySpec{}, p.label, p.value, p.line)
	}
	if len(b.Metrics) == 0 {
		return
	}
	s.emit(b)
}
