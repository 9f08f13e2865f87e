package benchlog

import (
	"bytes"
	"strings"
)

// vLLM's benchmarks/benchmark_guided.py (the offline guided-decoding
// benchmark, late 2024 to 2025) ends with one print() of three arguments:
//
//	Throughput: 4.12 requests/s, 2978.85 total tokens/s, 2109.50 output tokens/s Correct rate is 97.0 %
//	First token latency(msecs):
//	count    100.000000
//	mean     230.220091
//	...
//	max      399.448310
//	dtype: float64
//	Next token latency(msecs):
//	...
//
// The latency sections are pandas Series.describe() of per-request values
// and are printed only with --async-engine; the correct rate is Python's
// repr of the score, or None when no output could be judged (grammar).

// guidedRateText joins the correct rate to the Throughput line.
var guidedRateText = []byte(" Correct rate is ")

// guidedSections are the latency sections and their key bases: the first
// output's latency is a TTFT; the next one is, per request, (last output −
// first output) / (outputs − 1), a gap between engine outputs that equals
// a TPOT only when each output carries one token, so it has a key of its own.
var guidedSections = map[string]string{
	"First token latency(msecs):": "ttft",
	"Next token latency(msecs):":  "next_token_latency",
}

// guidedStats are the rows of Series.describe() and their statistics.
var guidedStats = map[string]string{
	"mean": "mean", "std": "std", "min": "min", "max": "max",
	"25%": "p25", "50%": "p50", "75%": "p75",
}

// offGuidedRate reads the "Correct rate is S %" of the Throughput line.
func (s *Scanner) offGuidedRate(rate []byte) {
	s.off.layout |= offGuided
	v := bytes.TrimSpace(rate)
	num, ok := bytes.CutSuffix(v, []byte("%"))
	num = bytes.TrimSpace(num)
	s.offLabel("Correct rate is", v)
	if !ok || isNullValue(num) {
		return // None: no output was judged
	}
	s.offMetric("correct_rate", "", "", num, v, "Correct rate is")
}

// offGuidedLine reads a line of benchmark_guided.py's latency sections
// after its Throughput line; false if t is not one.
func (s *Scanner) offGuidedLine(t []byte) bool {
	b := s.offOpen(FormatVLLMThroughput)
	if b == nil || s.off.layout&offGuided == 0 {
		return false
	}
	o := s.off
	if base, ok := guidedSections[string(t)]; ok {
		if _, dup := b.Metrics["mean_"+base+"_ms"]; dup {
			return false
		}
		o.guided = base
		s.offLabel(strings.TrimSuffix(string(t), ":"), nil)
		return true
	}
	if o.guided == "" {
		return false
	}
	f := bytes.Fields(t)
	if len(f) != 2 {
		return false
	}
	label := o.guided + " " + string(f[0])
	switch stat := string(f[0]); {
	case stat == "dtype:":
		o.guided = "" // the end of the section
		b.EndLine = s.line
	case stat == "count":
		s.offLabel(label, f[1])
		if _, dup := b.Metrics["completed"]; !dup && o.guided == "ttft" {
			s.offMetric("completed", "", "", wholeCount(f[1]), f[1], label)
		}
	case guidedStats[stat] != "":
		key := guidedStats[stat] + "_" + o.guided + "_ms"
		s.offLabel(label, f[1])
		s.offMetric(key, "ms", "ms", f[1], f[1], label)
		if stat == "50%" {
			s.offMetric("median_"+o.guided+"_ms", "ms", "ms", f[1], f[1], label)
		}
	default:
		return false
	}
	return true
}

// wholeCount drops the zero decimals pandas prints with a count
// ("100.000000" is 100 requests).
func wholeCount(v []byte) []byte {
	if i := bytes.IndexByte(v, '.'); i > 0 && len(bytes.Trim(v[i+1:], "0")) == 0 {
		return v[:i]
	}
	return v
}

// guidedJSONKey maps the keys that benchmark_guided.py's result file adds
// to those of `vllm bench throughput --output-json`: the output rate
// (written as a string), and each describe() statistic of its latencies
// ("first_token_latency(msecs).50%").
func guidedJSONKey(path string) (keySpec, bool) {
	if path == "output_tokens_per_second" {
		return keySpec{key: "output_throughput"}, true
	}
	sec, stat, ok := strings.Cut(path, "(msecs).")
	if !ok {
		return keySpec{}, false
	}
	base := guidedSections[strings.ToUpper(sec[:1])+strings.ReplaceAll(sec[1:], "_", " ")+"(msecs):"]
	st := guidedStats[stat]
	if base == "" || st == "" {
		return keySpec{}, false
	}
	return keySpec{key: st + "_" + base + "_ms", unit: "ms", from: "ms"}, true
}

// guidedMedians files each section's 50% also as its median.
func guidedMedians(b *Block) {
	for _, base := range guidedSections {
		if m, ok := b.Metrics["p50_"+base+"_ms"]; ok {
			b.Metrics["median_"+base+"_ms"] = m
		}
	}
}
