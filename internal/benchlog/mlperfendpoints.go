package benchlog

import (
	"strings"
)

// MLPerf Endpoints (mlcommons/endpoints, src/inference_endpoint/metrics/
// report.py): result_summary.json, the Report struct encoded as JSON:
// version, n_samples_issued/completed/failed, duration_ns, state, complete,
// a rollup per series (ttft, tpot, latency: {total, min, max, median, avg,
// std_dev, percentiles: {"50": ..., "99.9": ...}, histogram}, in
// nanoseconds as the aggregator records them; input_sequence_lengths and
// output_sequence_lengths in tokens), qps and tps, and
// legacy_loadgen_window_duration_ns: when set, qps is (completed - 1) and
// tps the output tokens over LoadGen's window (first issue to the last
// issued request's completion), not over duration_ns.

const FormatMLPerfEndpoints Format = "mlperf-endpoints-json" // result_summary.json

// ToolMLPerfEndpoints is MLCommons' endpoints benchmark (inference-endpoint).
const ToolMLPerfEndpoints = "mlperf-endpoints"

// LoadgenWindow: a throughput over MLPerf LoadGen's window, (completed - 1)
// requests or all output tokens from the first issue to the completion of
// the last issued request; not count / duration.
const LoadgenWindow Definition = "loadgen-window"

// mlpSeries maps the latency rollups to key bases; values are ns.
var mlpSeries = map[string]string{"ttft": "ttft", "tpot": "tpot", "latency": "e2el"}

// mlpLengths maps the token rollups to their mean and total keys.
var mlpLengths = map[string][2]string{
	"input_sequence_lengths":  {"mean_input_len", "total_input_tokens"},
	"output_sequence_lengths": {"mean_output_len", "total_output_tokens"},
}

// mlpStats maps a rollup's statistics to key prefixes.
var mlpStats = map[string]string{"avg": "mean", "median": "median", "std_dev": "std", "min": "min", "max": "max"}

// mlperfEndpointsJSON returns the block of a result_summary.json; nil for
// another object.
func (s *Scanner) mlperfEndpointsJSON(o *jsonObj) *Block {
	if !o.has["n_samples_completed"] || !o.has["duration_ns"] {
		return nil
	}
	b := &Block{File: s.name, Line: o.line, EndLine: max(o.end, o.line), Format: FormatMLPerfEndpoints,
		Tool: ToolMLPerfEndpoints, Definition: CountOverDuration, Metrics: map[string]Metric{}, Problems: o.problems}
	byPath := make(map[string]jsonKV, len(o.kvs))
	for _, kv := range o.kvs {
		byPath[kv.path] = kv
		if !strings.Contains(kv.path, ".") || strings.HasPrefix(kv.path, "run_config.") {
			b.Labels = append(b.Labels, Label{Label: kv.path, Value: kv.raw, Line: kv.line})
		}
	}
	b.Version = "result_summary.json"
	if v := byPath["version"].raw; v != "" {
		b.Version += " (" + v + ")"
	}
	put := func(path, key string, spec keySpec) {
		if kv, ok := byPath[path]; ok {
			spec.key = key
			brPut(b, kv, key, spec)
		}
	}
	put("n_samples_issued", "num_prompts", keySpec{})
	put("n_samples_completed", "completed", keySpec{})
	put("n_samples_failed", "failed", keySpec{})
	put("duration_ns", "duration", keySpec{unit: "s", from: "ns"})
	put("qps", "request_throughput", keySpec{})
	put("tps", "output_throughput", keySpec{})
	for _, series := range sortedKeys(mlpSeries) {
		base := mlpSeries[series]
		for _, st := range sortedKeys(mlpStats) {
			put(series+"."+st, mlpStats[st]+"_"+base+"_ms", keySpec{unit: "ms", from: "ns"})
		}
		for _, path := range sortedKeys(byPath) {
			if p, ok := strings.CutPrefix(path, series+".percentiles."); ok && isPercentile("p"+strings.TrimSuffix(p, ".0")) {
				put(path, "p"+strings.TrimSuffix(p, ".0")+"_"+base+"_ms", keySpec{unit: "ms", from: "ns"})
			}
		}
	}
	for _, series := range sortedKeys(mlpLengths) {
		put(series+".avg", mlpLengths[series][0], keySpec{})
		put(series+".total", mlpLengths[series][1], keySpec{})
	}
	if w := byPath["legacy_loadgen_window_duration_ns"]; w.raw != "" && w.raw != "null" {
		setDefinition(b, "request_throughput", LoadgenWindow)
		setDefinition(b, "output_throughput", LoadgenWindow)
	}
	if byPath["complete"].raw == "false" {
		b.Truncated = true
	}
	return b
}
