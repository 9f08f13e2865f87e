package benchlog

import (
	"fmt"
	"strconv"
	"strings"
)

// AIPerf's JSON exports (ai-dynamo/aiperf, aiperf/exporters):
//
//   - profile_export_aiperf.json: one object, a member per metric tag
//     ({"unit": "ms", "avg": ..., "p50": ..., "std": ...}), beside
//     input_config, start_time and end_time. Values are in the unit the
//     member names (display units: ms for latencies, sec for the duration).
//   - aggregate/profile_export_aiperf_aggregate.json, written by
//     --num-profile-runs N: "metadata" (aggregation_type "confidence",
//     num_profile_runs, num_successful_runs, confidence_level) and
//     "metrics", a member per tag and statistic ("time_to_first_token_avg")
//     holding the statistic over the runs: mean, std (n-1), min, max, cv,
//     se, ci_low, ci_high, t_critical and its unit. The block files each
//     statistic's mean across runs; its interval is kept in Intervals.
//
// A unit that is not the one AIPerf writes for a metric leaves the metric
// unread, with a problem on its line.

const (
	FormatAIPerfJSON      Format = "aiperf-json"           // profile_export_aiperf.json
	FormatAIPerfAggregate Format = "aiperf-aggregate-json" // profile_export_aiperf_aggregate.json
)

// RunMean: a statistic averaged over the runs of AIPerf's
// --num-profile-runs, with its confidence interval in Block.Intervals.
const RunMean Definition = "run-mean"

// Interval is a confidence interval a tool printed for a metric over its
// repeated runs.
type Interval struct {
	Low   float64 `json:"low"`
	High  float64 `json:"high"`
	Level float64 `json:"level"` // confidence level, 0.95
	Runs  int     `json:"runs"`  // successful runs behind it
	Line  int     `json:"line"`
}

// aiperfExtra are AIPerf tags whose rows the console tables name otherwise.
var aiperfExtra = map[string]nvRow{
	"total_isl": {"total_input_tokens", nvSingle, ""},
	"total_osl": {"total_output_tokens", nvSingle, ""},
}

// aiperfRow returns the row of an AIPerf metric tag.
func aiperfRow(tag string) (nvRow, bool) {
	if r, ok := aiperfExtra[tag]; ok {
		return r, true
	}
	r, ok := nvRows[strings.ReplaceAll(tag, "_", " ")]
	return r, ok
}

// aiperfUnitOK says whether unit is one AIPerf writes for a row.
func aiperfUnitOK(row nvRow, unit string) bool {
	switch row.kind {
	case nvLatency:
		return unit == "ns" || unit == "us" || unit == "ms" || unit == "sec"
	case nvLength:
		return unit == "tokens"
	case nvPerUser:
		return unit == "tokens/sec/user"
	}
	switch row.base {
	case "request_throughput", "request_goodput":
		return unit == "requests/sec"
	case "output_throughput":
		return unit == "tokens/sec"
	case "completed", "failed":
		return unit == "requests"
	case "duration":
		return unit == "sec"
	case "total_input_tokens", "total_output_tokens":
		return unit == "tokens"
	}
	return false
}

// aiperfJSON returns the block of an AIPerf export; nil for another object.
func (s *Scanner) aiperfJSON(o *jsonObj) *Block {
	agg := o.has["metadata.aggregation_type"]
	if !agg && !(o.has["request_throughput.unit"] || o.has["request_count.unit"] || o.has["benchmark_duration.unit"]) {
		return nil
	}
	byPath := make(map[string]jsonKV, len(o.kvs))
	for _, kv := range o.kvs {
		byPath[kv.path] = kv
	}
	b := &Block{File: s.name, Line: o.line, EndLine: max(o.end, o.line), Format: FormatAIPerfJSON, Tool: ToolAIPerf,
		Version: "profile_export_aiperf.json", Definition: CountOverDuration, Metrics: map[string]Metric{}, Problems: o.problems}
	if agg {
		b.Format, b.Definition = FormatAIPerfAggregate, RunMean
		b.Version = "profile_export_aiperf_aggregate.json (" + byPath["metadata.aggregation_type"].raw + ")"
	}
	if v := byPath["aiperf_version"].raw; v != "" {
		b.Version += ", AIPerf " + v
	}
	for _, kv := range o.kvs {
		if !strings.HasPrefix(kv.path, "input_config.") {
			b.Labels = append(b.Labels, Label{Label: kv.path, Value: kv.raw, Line: kv.line})
		}
	}
	if agg {
		s.aiperfAggregate(b, byPath)
	} else {
		for _, kv := range o.kvs {
			if tag, ok := strings.CutSuffix(kv.path, ".unit"); ok && !strings.Contains(tag, ".") {
				s.aiperfMember(b, byPath, tag, tag, aiperfExportStats, nil)
			}
		}
	}
	nvDefinitions(b)
	return b
}

// aiperfMember files the statistics of one member at path (tag is the
// metric): stats maps each field read to the statistic it holds. got, when
// set, is called with each key filed, its field and the key's unit spec.
func (s *Scanner) aiperfMember(b *Block, byPath map[string]jsonKV, path, tag string, stats map[string]string, got func(key, field string, spec keySpec)) {
	row, ok := aiperfRow(tag)
	if !ok {
		return
	}
	unit := byPath[path+".unit"]
	if !aiperfUnitOK(row, unit.raw) {
		b.Problems = append(b.Problems, &SyntaxError{File: s.name, Line: unit.line,
			Msg: fmt.Sprintf("%s.unit: %q is not the unit AIPerf writes for %s; none of its values read", path, unit.raw, tag)})
		return
	}
	for _, field := range sortedKeys(stats) {
		kv, ok := byPath[path+"."+field]
		if !ok || kv.raw == "null" || nullValues[strings.ToLower(kv.raw)] {
			continue
		}
		keys, spec := nvRowKeys(row, strings.ReplaceAll(unit.raw, "sec", "s"), stats[field])
		for _, k := range keys {
			spec.key = k
			m, ok := makeMetric(spec, kv.raw, kv.line)
			if !ok || kv.str {
				b.Problems = append(b.Problems, notNumber(s.name, kv.line, path+"."+field, kv.raw, k))
				continue
			}
			if _, dup := b.Metrics[k]; !dup {
				b.Metrics[k] = m
				if got != nil {
					got(k, field, spec)
				}
			}
		}
	}
}

// aiperfExportStats maps the fields of a profile export member.
var aiperfExportStats = func() map[string]string {
	m := map[string]string{}
	for _, f := range []string{"avg", "min", "max", "std", "p1", "p5", "p10", "p25", "p50", "p75", "p90", "p95", "p99"} {
		m[f] = nvStat(f)
	}
	return m
}()

// aiperfAggregate files each aggregate member's mean over the runs, and
// its interval.
func (s *Scanner) aiperfAggregate(b *Block, byPath map[string]jsonKV) {
	runs, _ := strconv.Atoi(byPath["metadata.num_successful_runs"].raw)
	level, _ := strconv.ParseFloat(byPath["metadata.confidence_level"].raw, 64)
	for _, path := range sortedKeys(byPath) {
		member, ok := strings.CutSuffix(path, ".unit")
		if !ok || !strings.HasPrefix(member, "metrics.") {
			continue
		}
		name := strings.TrimPrefix(member, "metrics.")
		i := strings.LastIndexByte(name, '_')
		if i < 0 || nvStat(name[i+1:]) == "" {
			continue
		}
		s.aiperfMember(b, byPath, member, name[:i], map[string]string{"mean": nvStat(name[i+1:])}, func(key, _ string, spec keySpec) {
			lo, okL := makeMetric(spec, byPath[member+".ci_low"].raw, 0)
			hi, okH := makeMetric(spec, byPath[member+".ci_high"].raw, 0)
			if !okL || !okH {
				return
			}
			if b.Intervals == nil {
				b.Intervals = map[string]Interval{}
			}
			b.Intervals[key] = Interval{Low: lo.Value, High: hi.Value, Level: level, Runs: runs, Line: byPath[member+".ci_low"].line}
		})
	}
	if runs > 0 {
		b.Version += fmt.Sprintf(", %d runs", runs)
	}
}
