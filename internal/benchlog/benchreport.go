package benchlog

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// llm-d's Benchmark Report (llm-d-benchmark, schema versions 0.2 and
// 0.2.1; inference-perf and Prism write the same documents), as JSON or as
// YAML. A report is one measurement: run.uid, scenario.load.standardized
// (the tool, its version, the load) and results.request_performance.aggregate,
// whose every metric is a statistics object {units, mean, stddev, min,
// p0p1 ... p99p9, max}. The units are the schema's: a latency is "ms" or
// "s", a per-token latency "ms/token" or "s/token", a token rate
// "tokens/s", a request rate "queries/s", a length "count". A statistic
// whose units are missing or not those the schema allows for it is not read
// (a problem on its line says so): a unit is never guessed.

const (
	FormatBenchReport     Format = "benchmark-report"      // llm-d Benchmark Report v0.2/v0.2.1, JSON
	FormatBenchReportYAML Format = "benchmark-report-yaml" // the same report as YAML
)

// ReportStatistic: a throughput of a Benchmark Report, the mean of its
// statistics object as the tool that filled the report computed it; no
// count/duration identity is checked on it.
const ReportStatistic Definition = "report-statistic"

// brAggregate is the path of a report's aggregate request metrics.
const brAggregate = "results.request_performance.aggregate."

// brMetric is one statistics object of the aggregate: the key base it
// files under and the units the schema allows for it, each with the unit
// perflab converts from ("" for no conversion).
type brMetric struct {
	base  string            // "ttft" -> mean_ttft_ms ...; a single key when single
	units map[string]string // schema unit -> unit converted from
	// single: only the mean is read, under base itself.
	single bool
}

var (
	brTime     = map[string]string{"ms": "ms", "s": "s"}
	brPerToken = map[string]string{"ms/token": "ms", "s/token": "s"}
	brTokRate  = map[string]string{"tokens/s": ""}
	brReqRate  = map[string]string{"queries/s": ""}
	brCount    = map[string]string{"count": ""}
)

var brMetrics = map[string]brMetric{
	"latency.time_to_first_token":   {base: "ttft", units: brTime},
	"latency.time_per_output_token": {base: "tpot", units: brPerToken},
	"latency.inter_token_latency":   {base: "itl", units: brPerToken},
	"latency.request_latency":       {base: "e2el", units: brTime},
	"throughput.output_token_rate":  {base: "output_throughput", units: brTokRate, single: true},
	"throughput.input_token_rate":   {base: "input_throughput", units: brTokRate, single: true},
	"throughput.total_token_rate":   {base: "total_token_throughput", units: brTokRate, single: true},
	"throughput.request_rate":       {base: "request_throughput", units: brReqRate, single: true},
	"requests.input_length":         {base: "mean_input_len", units: brCount, single: true},
	"requests.output_length":        {base: "mean_output_len", units: brCount, single: true},
}

// brStats names the statistics of a statistics object as key prefixes.
var brStats = map[string]string{
	"mean": "mean", "stddev": "std", "min": "min", "max": "max", "p50": "median",
	"p0p1": "p0.1", "p1": "p1", "p5": "p5", "p10": "p10", "p25": "p25", "p75": "p75",
	"p90": "p90", "p95": "p95", "p99": "p99", "p99p9": "p99.9",
}

// brTools maps scenario.load.standardized.tool to perflab's tool ids where
// they are the same program; other tools keep their own name.
var brTools = map[string]string{
	"vllm-benchmark": ToolVLLM, "guidellm": ToolGuideLLM, "aiperf": ToolAIPerf,
}

// isBenchReport says whether an object is a Benchmark Report: a schema
// version of the 0.2 family and a run uid.
func isBenchReport(has map[string]bool, version string) bool {
	return has["run.uid"] && (version == "0.2" || version == "0.2.1")
}

// benchReportBlock turns the scalars of a report into a block; kvs hold
// every scalar by its dotted path.
func benchReportBlock(file string, line, end int, format Format, kvs []jsonKV) *Block {
	b := &Block{File: file, Line: line, EndLine: max(end, line), Format: format,
		Definition: ReportStatistic, Metrics: map[string]Metric{}}
	byPath := make(map[string]jsonKV, len(kvs))
	for _, kv := range kvs {
		byPath[kv.path] = kv
	}
	b.Tool, b.Version = benchReportTool(byPath)
	for _, kv := range kvs {
		if brLabelled(kv.path) {
			b.Labels = append(b.Labels, Label{Label: kv.path, Value: kv.raw, Line: kv.line})
		}
	}
	for _, rel := range sortedKeys(brMetrics) {
		brStatistics(b, byPath, rel, brMetrics[rel])
	}
	brRequests(b, byPath)
	brLoad(b, byPath)
	if kv, ok := byPath["run.time.duration"]; ok {
		if sec, ok := isoSeconds(kv.raw); ok {
			b.Metrics["duration"] = Metric{Value: sec, Decimals: decimalsOf(kv.raw), Line: kv.line, Raw: kv.raw}
		} else {
			b.Problems = append(b.Problems, &SyntaxError{File: file, Line: kv.line,
				Msg: fmt.Sprintf("run.time.duration: %q is not an ISO-8601 duration (PT1M30S); no duration read", kv.raw)})
		}
	}
	return b
}

// benchReportTool names the tool that measured a report and the report's
// version line.
func benchReportTool(byPath map[string]jsonKV) (tool, version string) {
	tool = "benchmark-report"
	name := byPath["scenario.load.standardized.tool"].raw
	if t, ok := brTools[name]; ok {
		tool = t
	} else if name != "" {
		tool = name
	}
	version = "Benchmark Report v" + byPath["version"].raw
	if name != "" {
		version += " (" + name
		if v := byPath["scenario.load.standardized.tool_version"].raw; v != "" {
			version += " " + v
		}
		version += ")"
	}
	return tool, version
}

// brLabelled says whether a scalar of a report is shown as a label.
func brLabelled(path string) bool {
	return path == "version" || strings.HasPrefix(path, "run.") ||
		strings.HasPrefix(path, "scenario.load.standardized.") || strings.HasPrefix(path, brAggregate)
}

// brStatistics reads one statistics object of the aggregate.
func brStatistics(b *Block, byPath map[string]jsonKV, rel string, m brMetric) {
	at := brAggregate + rel
	units, ok := byPath[at+".units"]
	if !ok {
		if _, has := byPath[at+".mean"]; has {
			b.Problems = append(b.Problems, &SyntaxError{File: b.File, Line: byPath[at+".mean"].line,
				Msg: fmt.Sprintf("%s: statistics without units; none of them read (the schema requires units)", at)})
		}
		return
	}
	from, ok := m.units[units.raw]
	if !ok {
		b.Problems = append(b.Problems, &SyntaxError{File: b.File, Line: units.line,
			Msg: fmt.Sprintf("%s.units: %q is not a unit the Benchmark Report allows here (%s); none of its statistics read", at, units.raw, strings.Join(sortedKeys(m.units), ", "))})
		return
	}
	for _, st := range sortedKeys(brStats) {
		kv, ok := byPath[at+"."+st]
		if !ok || m.single && st != "mean" {
			continue
		}
		key, spec := m.base, keySpec{key: m.base}
		if !m.single {
			key = brStats[st] + "_" + m.base + "_ms"
			spec = keySpec{key: key, unit: "ms", from: from}
		}
		brPut(b, kv, key, spec)
	}
}

// brPut files one value of a report under key.
func brPut(b *Block, kv jsonKV, key string, spec keySpec) {
	if kv.raw == "null" || nullValues[strings.ToLower(kv.raw)] {
		if notFinite(key, kv.raw) {
			b.Problems = append(b.Problems, notFiniteProblem(b.File, kv.line, kv.path, kv.raw, key))
		}
		return
	}
	m, ok := makeMetric(spec, kv.raw, kv.line)
	if !ok || kv.str {
		b.Problems = append(b.Problems, notNumber(b.File, kv.line, kv.path, kv.raw, key))
		return
	}
	b.Metrics[key] = m
}

// brRequests reads the request counts: total is what was sent; completed
// is total less failures (and incomplete), only when failures is reported.
func brRequests(b *Block, byPath map[string]jsonKV) {
	at := brAggregate + "requests."
	for _, f := range []struct{ field, key string }{{"total", "num_prompts"}, {"failures", "failed"}, {"incomplete", "incomplete"}} {
		if kv, ok := byPath[at+f.field]; ok {
			brPut(b, kv, f.key, keySpec{key: f.key})
		}
	}
	total, okT := b.Metrics["num_prompts"]
	failed, okF := b.Metrics["failed"]
	if !okT || !okF {
		return
	}
	done := total.Value - failed.Value
	if inc, ok := b.Metrics["incomplete"]; ok {
		done -= inc.Value
	}
	if done >= 0 {
		b.Metrics["completed"] = Metric{Value: done, Line: failed.Line, Raw: strconv.FormatFloat(done, 'f', -1, 64)}
		setDefinition(b, "completed", Derived)
	}
}

// brLoad reads the load a report was measured at.
func brLoad(b *Block, byPath map[string]jsonKV) {
	at := "scenario.load.standardized."
	if kv, ok := byPath[at+"rate_qps"]; ok {
		brPut(b, kv, "request_rate", keySpec{key: "request_rate"})
	}
	if kv, ok := byPath[at+"concurrency"]; ok && !strings.Contains(strings.ToLower(kv.raw), "inf") {
		brPut(b, kv, "max_concurrency", keySpec{key: "max_concurrency"})
	}
}

var isoDurationRE = regexp.MustCompile(`^P(?:([0-9]+(?:\.[0-9]+)?)D)?(?:T(?:([0-9]+(?:\.[0-9]+)?)H)?(?:([0-9]+(?:\.[0-9]+)?)M)?(?:([0-9]+(?:\.[0-9]+)?)S)?)?$`)

// isoSeconds reads an ISO-8601 duration of days, hours, minutes and
// seconds ("PT1M30.5S") as seconds.
func isoSeconds(s string) (float64, bool) {
	m := isoDurationRE.FindStringSubmatch(s)
	if m == nil || s == "P" || strings.HasSuffix(s, "T") {
		return 0, false
	}
	sec := 0.0
	for i, mult := range []float64{86400, 3600, 60, 1} {
		if m[i+1] != "" {
			v, err := strconv.ParseFloat(m[i+1], 64)
			if err != nil {
				return 0, false
			}
			sec += v * mult
		}
	}
	return sec, true
}

// decimalsOf counts the decimals of the last number in s.
func decimalsOf(s string) int {
	i := strings.LastIndexByte(s, '.')
	if i < 0 {
		return 0
	}
	n := 0
	for _, c := range s[i+1:] {
		if c < '0' || c > '9' {
			break
		}
		n++
	}
	return n
}

// sortedKeys returns the keys of a map in order, for a deterministic read.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// brDeep says whether a JSON path is read below the usual depth: the parts
// of a Benchmark Report perflab reads.
func brDeep(path string) bool {
	return strings.HasPrefix(path, "results.request_performance") || strings.HasPrefix(path, "scenario.load") ||
		strings.HasPrefix(path, "run.time")
}

// benchReportJSON returns the block of a JSON object that is a Benchmark
// Report; nil for any other object.
func (s *Scanner) benchReportJSON(o *jsonObj) *Block {
	version := ""
	for _, kv := range o.kvs {
		if kv.path == "version" {
			version = kv.raw
		}
	}
	if !isBenchReport(o.has, version) {
		if version != "" && looksBenchReport(o) && s.err == nil {
			s.err = &SyntaxError{File: s.name, Line: o.line,
				Msg: fmt.Sprintf("a Benchmark Report of version %q: perflab reads versions 0.2 and 0.2.1 of llm-d's schema, not this one", version)}
		}
		return nil
	}
	b := benchReportBlock(s.name, o.line, o.end, FormatBenchReport, o.kvs)
	b.Problems = append(o.problems, b.Problems...)
	return b
}

// looksBenchReport says whether an object has the parts of a Benchmark
// Report of any version: a run uid, or a scenario and metrics (v0.1).
func looksBenchReport(o *jsonObj) bool {
	if o.has["run.uid"] {
		return true
	}
	scenario, metrics := false, false
	for _, kv := range o.kvs {
		scenario = scenario || strings.HasPrefix(kv.path, "scenario.")
		metrics = metrics || strings.HasPrefix(kv.path, "metrics.")
	}
	return scenario && metrics
}
