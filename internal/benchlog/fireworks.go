package benchlog

import (
	"bytes"
	"fmt"
	"strings"
)

// Fireworks' llm_bench (fw-ai/benchmark llm_bench/load_test.py, a Locust
// file; 2023-11 on) prints at exit
//
//	=================================== Summary ====================================
//	Provider                : vllm
//	Concurrency             : 8               (or "QPS 2.0 constant")
//	Time To First Token     : 85.32
//	Total Latency           : 2611.4
//	Num Requests            : 412
//	Qps                     : 6.85
//	P50 Time To First Token : 81.0            (2025 on; P50, P90, P95, P99, P99.9)
//	================================================================================
//
// labels made from metric names, no units. Every time is a Locust custom
// metric that the file records as seconds x 1000, so ms: the unit comes
// from the file, and the latency identities are checked before filing.
// Averages are over the run's successful requests; Qps is Locust's
// total_rps (requests over the run).

var fwSummaryTitle = []byte(" Summary ")

// fwLabels maps the summary's labels (normalised) to keys; a label mapped
// to the zero keySpec is kept as a label only.
var fwLabels = map[string]keySpec{
	"time to first token":       {key: "mean_ttft_ms", unit: "ms", from: "ms"},
	"total latency":             {key: "mean_e2el_ms", unit: "ms", from: "ms"},
	"overall latency per token": {key: "mean_latency_per_output_token_ms", unit: "ms", from: "ms"},
	"num tokens":                {key: "mean_output_len"},
	"prompt tokens":             {key: "mean_input_len"},
	"num requests":              {key: "completed"},
	"qps":                       {key: "request_throughput"},
	// (end - first token) / tokens: neither vLLM's TPOT nor its ITL.
	"latency per token": {},
}

// fwPctMetrics are the metrics with percentile lines.
var fwPctMetrics = map[string]string{"time to first token": "ttft", "total latency": "e2el"}

type fwReader struct{ b *Block }

// fwStart opens a summary at its title line.
func fwStart(s *Scanner, text []byte) lineReader {
	if text[0] != '=' || !bytes.Contains(text, fwSummaryTitle) || strings.Trim(string(text), "= ") != "Summary" {
		return nil
	}
	return &fwReader{&Block{File: s.name, Line: s.line, EndLine: s.line, Format: FormatFireworksBench, Tool: ToolFireworksBench,
		Version: "llm_bench load_test.py (2023-11+)", Definition: CountOverDuration, Metrics: map[string]Metric{}}}
}

func (r *fwReader) line(s *Scanner, text []byte) bool {
	b := r.b
	if s.line == b.Line {
		return true // the title
	}
	if len(text) > 0 && isRule(text) && text[0] == '=' {
		b.EndLine = s.line
		s.lrEnd()
		return true
	}
	label, value, ok := bytes.Cut(text, []byte(":"))
	if !ok || len(label) == 0 || !isLetter(label[0]) {
		b.Truncated = true
		b.Problems = append(b.Problems, &SyntaxError{File: s.name, Line: b.EndLine,
			Msg: fmt.Sprintf("llm_bench summary of line %d has no closing ===== rule; read up to here", b.Line)})
		s.lrEnd()
		return false
	}
	b.EndLine = s.line
	lab, val := strings.TrimSpace(string(label)), strings.TrimSpace(string(value))
	b.Labels = append(b.Labels, Label{Label: lab, Value: val, Line: s.line})
	if val == "" {
		return true // a metric the run did not have (TTFT without --stream)
	}
	fwValue(b, normLabel([]byte(lab)), lab, val, s.line)
	return true
}

// fwValue files one value of the summary.
func fwValue(b *Block, norm, label, value string, line int) {
	if norm == "concurrency" {
		if rate, ok := strings.CutPrefix(value, "QPS "); ok {
			f := strings.Fields(rate)
			if len(f) > 0 {
				addKeys(b, []string{"request_rate"}, keySpec{}, label, f[0], line)
			}
			return
		}
		addKeys(b, []string{"max_concurrency"}, keySpec{}, label, value, line)
		return
	}
	if spec, ok := fwLabels[norm]; ok {
		if spec.key != "" {
			addKeys(b, []string{spec.key}, spec, label, value, line)
		}
		return
	}
	// "P99.9 Total Latency"
	p, metric, ok := strings.Cut(norm, " ")
	base, known := fwPctMetrics[metric]
	if !ok || !known || len(p) < 2 || p[0] != 'p' {
		return
	}
	keys := []string{p + "_" + base + "_ms"}
	if p == "p50" {
		keys = append(keys, "median_"+base+"_ms")
	}
	addKeys(b, keys, keySpec{unit: "ms", from: "ms"}, label, value, line)
}

func (r *fwReader) end(s *Scanner) {
	b := r.b
	if _, ok := b.Metrics["mean_e2el_ms"]; !ok {
		return
	}
	unitIdentities(b, "llm_bench")
	s.emit(b)
}
