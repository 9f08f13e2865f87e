package benchlog

import (
	"bytes"
	"fmt"
	"strings"
)

// Ray llmperf, token_benchmark_ray.py (LLMPerfV2, Dec 2023 on; docs/metrics.md).
//
// metrics_summary prints, after the line
// `\Results for token benchmark for <model> queried with the <api> api.`
// (a literal backslash: "\R" is no escape in Python), for each of
// inter_token_latency_s, ttft_s, end_to_end_latency_s,
// request_output_throughput_token_per_s, number_input_tokens and
// number_output_tokens its name alone on a line, then "    p25 = <v>" ...
// "    p99 = <v>", "    mean = <v>", "    min = <v>", "    max = <v>",
// "    stddev = <v>" (Python's repr of the float), then "Number Of Errored
// Requests: N", optionally "Error Code Frequency" and a dict line, "Overall
// Output Throughput: X", "Number Of Completed Requests: N" and "Completed
// Requests Per Minute: X", which ends the block.
//
// The *_summary.json file (--results-dir) holds the same numbers flattened
// with "_": results_<metric>_quantiles_p25 ... results_<metric>_stddev,
// results_num_requests_started, results_number_errors,
// results_mean_output_throughput_token_per_s,
// results_num_completed_requests, results_num_completed_requests_per_min,
// plus the run's settings (model, mean_input_tokens, num_concurrent_requests
// ...). numpy integers are written as strings ("550").

// llmperfMetrics maps llmperf's per-request metrics to key bases.
var llmperfMetrics = map[string]guideMetric{
	"inter_token_latency_s":                 {nvRow{"latency_per_output_token", nvLatency, ""}, "s"},
	"ttft_s":                                {nvRow{"ttft", nvLatency, ""}, "s"},
	"end_to_end_latency_s":                  {nvRow{"e2el", nvLatency, ""}, "s"},
	"request_output_throughput_token_per_s": {nvRow{"user_throughput", nvPerUser, ""}, ""},
	"number_input_tokens":                   {nvRow{"input_len", nvLength, ""}, ""},
	"number_output_tokens":                  {nvRow{"output_len", nvLength, ""}, ""},
}

// llmperfScalars maps llmperf's run totals (printed label or summary key
// without "results_") to keys.
var llmperfScalars = map[string]string{
	"Number Of Errored Requests":         "failed",
	"Overall Output Throughput":          "output_throughput",
	"Number Of Completed Requests":       "completed",
	"Completed Requests Per Minute":      "request_throughput",
	"number_errors":                      "failed",
	"mean_output_throughput_token_per_s": "output_throughput",
	"num_completed_requests":             "completed",
	"num_completed_requests_per_min":     "request_throughput",
	"num_requests_started":               "num_prompts",
	"error_rate":                         "",
	"error_code_frequency":               "",
	"num_concurrent_requests":            "max_concurrency", // a setting, not under results_
}

// llmperfSum is a printed summary being read.
type llmperfSum struct {
	b      *Block
	metric string // the metric whose statistics are being read
	freq   bool   // "Error Code Frequency" was the line before
}

const llmperfBanner = "Results for token benchmark for "

// llmperfStart opens a summary at its "\Results for token benchmark" line,
// or at its first metric name when that line was lost.
func (s *Scanner) llmperfStart(text []byte) bool {
	text = bytes.TrimRight(text, " \t\r")
	t := bytes.TrimPrefix(text, []byte(`\`))
	switch {
	case bytes.HasPrefix(t, []byte(llmperfBanner)):
		b := &Block{File: s.name, Line: s.line, EndLine: s.line, Format: FormatLLMPerf, Tool: ToolLLMPerf,
			Version: "token_benchmark_ray.py (LLMPerfV2)", Definition: CountOverDuration, Metrics: map[string]Metric{}}
		rest := string(t[len(llmperfBanner):])
		if model, api, ok := strings.Cut(rest, " queried with the "); ok {
			b.Labels = append(b.Labels, Label{Label: "model", Value: model, Line: s.line},
				Label{Label: "llm_api", Value: strings.TrimSuffix(api, " api."), Line: s.line})
		}
		s.rd = &llmperfSum{b: b}
		return true
	case string(text) == "inter_token_latency_s":
		b := &Block{File: s.name, Line: s.line, EndLine: s.line, Format: FormatLLMPerf, Tool: ToolLLMPerf,
			Version: "token_benchmark_ray.py (LLMPerfV2), title line lost", Definition: CountOverDuration, Metrics: map[string]Metric{}}
		s.rd = &llmperfSum{b: b, metric: "inter_token_latency_s"}
		return true
	}
	return false
}

// llmperfLine reads one line of a summary; false if it ended the summary
// without being part of it.
func (s *Scanner) llmperfLine(line []byte) bool {
	p := open[*llmperfSum](s)
	b := p.b
	text := bytes.TrimSpace(s.clean(line))
	if len(text) == 0 {
		return true
	}
	if s.line-b.Line > maxBlockLines {
		s.llmperfEnd()
		return false
	}
	if _, ok := llmperfMetrics[string(text)]; ok {
		p.metric, p.freq = string(text), false
		b.EndLine = s.line
		return true
	}
	if p.freq {
		// The dict of error codes.
		p.freq = false
		b.Labels = append(b.Labels, Label{Label: "Error Code Frequency", Value: string(text), Line: s.line})
		b.EndLine = s.line
		return true
	}
	if string(text) == "Error Code Frequency" {
		p.freq = true
		b.EndLine = s.line
		return true
	}
	if name, value, ok := bytes.Cut(text, []byte(" = ")); ok && p.metric != "" && len(name) <= 6 {
		b.EndLine = s.line
		llmperfStat(b, p.metric, string(name), string(value), s.line)
		return true
	}
	if label, value, ok := splitLabel(text); ok {
		if key, known := llmperfScalars[string(label)]; known {
			b.EndLine = s.line
			p.metric = ""
			llmperfScalar(b, string(label), key, string(value), s.line)
			if string(label) == "Completed Requests Per Minute" {
				s.llmperfEnd()
			}
			return true
		}
	}
	s.llmperfEnd()
	return false
}

// llmperfStat adds one statistic of a per-request metric.
func llmperfStat(b *Block, metric, name, value string, line int) {
	label := metric + " " + name
	b.Labels = append(b.Labels, Label{Label: label, Value: value, Line: line})
	gm := llmperfMetrics[metric]
	stat := name
	if stat == "stddev" {
		stat = "std" // pandas: the sample standard deviation (n-1)
	}
	keys, spec := nvRowKeys(gm.row, "", nvStat(stat))
	if gm.from == "s" {
		spec.from = "s"
	}
	if len(keys) == 0 {
		return
	}
	addKeys(b, keys, spec, label, value, line)
}

// llmperfScalar adds a run total; requests per minute become per second.
func llmperfScalar(b *Block, label, key, value string, line int) {
	b.Labels = append(b.Labels, Label{Label: label, Value: value, Line: line})
	if key == "" {
		return
	}
	if key != "request_throughput" {
		addKeys(b, []string{key}, keySpec{}, label, value, line)
		return
	}
	if isNullValue([]byte(value)) {
		addKeys(b, []string{key}, keySpec{}, label, value, line)
		return
	}
	m, ok := makeMetric(keySpec{key: key}, value, line)
	if !ok {
		b.Problems = append(b.Problems, notNumber(b.File, line, label, value, key))
		return
	}
	// Per minute / 60: the rounding of the printed value shrinks sixty
	// times, so one more decimal still bounds it.
	m.Value /= 60
	m.Decimals++
	if _, dup := b.Metrics[key]; !dup {
		b.Metrics[key] = m
	}
}

// addKeys reads a printed value into keys of b (the first value is kept).
func addKeys(b *Block, keys []string, spec keySpec, label, value string, line int) {
	if isNullValue([]byte(value)) {
		if notFinite(keys[0], value) {
			b.Problems = append(b.Problems, notFiniteProblem(b.File, line, label, value, keys[0]))
		}
		return
	}
	for _, k := range keys {
		spec.key = k
		m, ok := makeMetric(spec, value, line)
		if !ok {
			b.Problems = append(b.Problems, notNumber(b.File, line, label, value, k))
			return
		}
		if _, dup := b.Metrics[k]; !dup {
			b.Metrics[k] = m
		}
	}
}

// llmperfEnd queues the summary being read.
func (s *Scanner) llmperfEnd() {
	p := open[*llmperfSum](s)
	s.rd = nil
	b := p.b
	if len(b.Metrics) == 0 {
		return
	}
	if _, ok := b.Metrics["request_throughput"]; !ok {
		b.Truncated = true
		b.Problems = append(b.Problems, &SyntaxError{File: s.name, Line: b.EndLine,
			Msg: fmt.Sprintf(`llmperf summary of line %d has no "Completed Requests Per Minute" line; read up to here`, b.Line)})
	}
	llmperfDefinitions(b)
	s.emit(b)
}

func llmperfDefinitions(b *Block) {
	for k := range b.Metrics {
		if strings.HasSuffix(k, "user_throughput") {
			setDefinition(b, k, PerRequestMean)
		}
	}
}

// llmperfJSON reads a *_summary.json object.
func (s *Scanner) llmperfJSON(o *jsonObj) *Block {
	b := &Block{File: s.name, Line: o.line, EndLine: max(o.end, o.line), Format: FormatLLMPerfJSON, Tool: ToolLLMPerf,
		Version: "summary.json", Definition: CountOverDuration, Metrics: map[string]Metric{}, Problems: o.problems}
	for _, kv := range o.kvs {
		path := kv.path
		if path == "version" {
			b.Version = "summary.json (results version " + kv.raw + ")"
		}
		rest, results := strings.CutPrefix(path, "results_")
		if !results {
			if key := llmperfScalars[path]; key != "" {
				llmperfScalar(b, path, key, kv.raw, kv.line)
			} else if !strings.Contains(path, ".") {
				b.Labels = append(b.Labels, Label{Label: path, Value: kv.raw, Line: kv.line})
			}
			continue
		}
		if key, ok := llmperfScalars[rest]; ok {
			llmperfScalar(b, path, key, kv.raw, kv.line)
			continue
		}
		metric, stat, ok := llmperfSplit(rest)
		if !ok {
			b.Labels = append(b.Labels, Label{Label: path, Value: kv.raw, Line: kv.line})
			continue
		}
		llmperfStat(b, metric, stat, kv.raw, kv.line)
		// llmperfStat labels by "metric stat"; the JSON's own key is the label.
		b.Labels[len(b.Labels)-1].Label = path
	}
	if _, ok := b.Metrics["completed"]; !ok {
		return nil
	}
	llmperfDefinitions(b)
	return b
}

// llmperfSplit splits "ttft_s_quantiles_p50" or "ttft_s_mean" into the
// metric and its statistic.
func llmperfSplit(rest string) (metric, stat string, ok bool) {
	for m := range llmperfMetrics {
		if r, ok := strings.CutPrefix(rest, m+"_"); ok {
			r = strings.TrimPrefix(r, "quantiles_")
			switch r {
			case "mean", "min", "max", "stddev":
				return m, r, true
			}
			if isPercentile(r) {
				return m, r, true
			}
		}
	}
	return "", "", false
}
