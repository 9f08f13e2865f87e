package benchlog

import (
	"bytes"
	"strings"
)

// LMDeploy's benchmark scripts (benchmark/*.py of InternLM/lmdeploy;
// docs/metrics.md).
//
// Legacy lines (profile_throughput.py 2023-07 to 2024-12,
// profile_restful_api.py to 2024-10), after a rule of 50 '-':
//
//	concurrency: 256
//	elapsed_time: 123.456s
//
//	first token latency(s)(min, max, ave): 0.123, 4.567, 1.234
//	per-token latency(s) percentile(50, 75, 95, 99): [0.012, 0.015, 0.02, 0.03]
//
//	number of prompt tokens: 123456
//	number of completion tokens: 234567
//	token throughput (completion token): 1900.123 token/s
//	token throughput (prompt + completion token): 2900.456 token/s
//	RPS (request per second): 8.123 req/s
//	RPM (request per minute): 487.380 req/min
//	--------------------------------------------------
//
// (2023: "first_token latency(min, max, ave): 0.1s, 0.2s, 0.3s"; the first
// profile_restful_api.py: "token throughput: X token/s", "req throughput: X
// req/s"). The latency lines are printed for streamed runs only; RPS counts
// every request sent, failed ones too.
//
// profile_generation.py (2023-06 to 2025-09, then removed) prints the same
// kind of lines for each case it runs (concurrency x prompt and completion
// lengths), in three eras:
//
//	concurrency: 64, input_tokens: 1, output_tokens: 2048      (2023-06 to 2023-11)
//	elapsed_time: 738.32s
//	first_token latency(min, max, ave): 0.12s, 0.34s, 0.23s
//	token latency(min, max, ave): 45.43s, 94.67s, 89.29s
//	throughput: 22.93 token/s
//
//	total time: 12.34s                                          (2023-12 on)
//	concurrency: 16, test_round: 3
//	input_tokens: 128, output_tokens: 128
//	first_token latency(min, max, ave): 0.05s, 0.5s, 0.2s
//	total_token latency(min, max, ave): 5.1s, 6.2s, 5.5s
//	token_latency percentiles(50%,75%,95%,99%)(s): [0.04, 0.05, 0.06, 0.07]
//	throughput: 4567.89 token/s                                 (2024-10 on: the two lines below)
//	throughput(output): 4567.89 token/s
//	throughput(total): 9135.78 token/s
//
// between rules of 50 '-' (" - " * 50 in its last version). In 2023 "token
// latency" is the time from a request's first token to its last, and the
// throughput those tokens over the summed decode times, times the
// concurrency: both are kept as labels only. Since 2023-12 the total_token
// latency is a request's whole latency (e2el), the percentiles those of
// the gaps between tokens after the first (itl), the throughput the
// generated tokens over the elapsed time.
//
// lmdeploy.profiler.Profiler.summarize (profile_throughput.py and
// profile_pipeline_api.py, 2025-01 on): a banner of '=' around " Profile
// Throughput " or " Profile Pipeline API ", then rows of a name padded to
// 40 columns and values right-justified in 10 ("Benchmark duration",
// "Total requests", "Successful requests", the settings, "Total input
// tokens", "Total generated tokens", "Input/Output throughput (tok/s)",
// "Request throughput (req/s)"), a rule of '-', a header row "mean P50 P75
// P95 P99" and the latency rows in seconds, closed by a rule of '='.
// (profile_restful_api.py prints vLLM's serving table since 2024-10; that is
// read as FormatSGLang/FormatVLLM.)

// lmState is an LMDeploy output being read.
type lmState struct {
	b       *Block
	table   bool     // Profiler.summarize layout
	stats   []string // the statistic columns of the latency rows
	started bool     // legacy: "elapsed_time:" was read
	gen     bool     // profile_generation.py
	decode  bool     // its 2023 lines: "token latency" and "throughput" are of the decode phase
}

// lmLegacy maps legacy labels (normalised) to keys.
var lmLegacy = map[string]keySpec{
	"elapsed_time":                                 {key: "duration", unit: "s", from: "s"},
	"number of prompt tokens":                      {key: "total_input_tokens"},
	"number of completion tokens":                  {key: "total_output_tokens"},
	"token throughput (completion token)":          {key: "output_throughput"},
	"token throughput (prompt + completion token)": {key: "total_token_throughput"},
	"token throughput":                             {key: "output_throughput"},
	"rps (request per second)":                     {key: "request_throughput"},
	"req throughput":                               {key: "request_throughput"},
	"rpm (request per minute)":                     {},
	// profile_generation.py
	"total time":         {key: "duration", unit: "s", from: "s"},
	"throughput":         {key: "output_throughput"},
	"throughput(output)": {key: "output_throughput"},
	"throughput(total)":  {key: "total_token_throughput"},
	"input_tokens":       {key: "mean_input_len"},
	"output_tokens":      {key: "mean_output_len"},
	"test_round":         {},
}

// lmTable maps Profiler.summarize's rows to keys.
var lmTable = map[string]keySpec{
	"benchmark duration":         {key: "duration", unit: "s", from: "s"},
	"total requests":             {key: "num_prompts"},
	"successful requests":        {key: "completed"},
	"concurrency":                {key: "max_concurrency"},
	"total input tokens":         {key: "total_input_tokens"},
	"total generated tokens":     {key: "total_output_tokens"},
	"input throughput (tok/s)":   {key: "input_throughput"},
	"output throughput (tok/s)":  {key: "output_throughput"},
	"request throughput (req/s)": {key: "request_throughput"},
}

// lmLatency maps the latency rows of Profiler.summarize to key bases.
var lmLatency = map[string]string{
	"end-to-end latency":           "e2el",
	"time to first token (ttft)":   "ttft",
	"time per output token (tpot)": "tpot",
	"inter-token latency (itl)":    "itl",
}

var lmTitles = []string{"Profile Throughput", "Profile Pipeline API"}

// lmBanner opens a Profiler.summarize table at its '=' banner.
func (s *Scanner) lmBanner(text []byte) bool {
	t := bytes.TrimSpace(text)
	if len(t) < 10 || t[len(t)-1] != '=' {
		return false
	}
	title := bytes.TrimSpace(bytes.Trim(t, "="))
	for _, l := range lmTitles {
		if string(title) == l {
			s.rd = &lmState{table: true, b: &Block{File: s.name, Line: s.line, EndLine: s.line, Format: FormatLMDeploy,
				Tool: ToolLMDeploy, Version: "Profiler.summarize (2025-01+), " + l, Definition: CountOverDuration,
				Metrics: map[string]Metric{}}}
			return true
		}
	}
	return false
}

// lmStart opens the legacy lines at "concurrency: N", or
// profile_generation.py's at "concurrency: N, input_tokens: ..." (2023) or
// "total time: 12.34s" (2023-12 on).
func (s *Scanner) lmStart(text []byte) bool {
	label, value, ok := splitLabel(bytes.TrimSpace(text))
	if !ok {
		return false
	}
	b := &Block{File: s.name, Line: s.line, EndLine: s.line, Format: FormatLMDeployLegacy, Tool: ToolLMDeploy,
		Version: "profile_throughput.py / profile_restful_api.py (2023-07 to 2024-12)", Definition: CountOverDuration,
		Metrics: map[string]Metric{}}
	l := &lmState{b: b}
	switch {
	case string(label) == "total time" && bytes.HasSuffix(value, []byte("s")):
		l.gen, l.started = true, true
		b.Version = "profile_generation.py (2023-12 to 2025-09)"
		s.lmPairs(b, text)
	case string(label) != "concurrency":
		return false
	case bytes.IndexByte(value, ',') >= 0:
		l.gen, l.decode = true, true
		b.Version = "profile_generation.py (2023-06 to 2023-11)"
		s.lmPairs(b, text)
	default:
		b.Labels = append(b.Labels, Label{Label: "concurrency", Value: string(value), Line: s.line})
		addKeys(b, []string{"max_concurrency"}, keySpec{}, "concurrency", string(value), s.line)
	}
	s.rd = l
	return true
}

// lmPairs reads a line of profile_generation.py's "name: value" pairs
// ("concurrency: 16, test_round: 3"); false, and nothing read, if a name is
// not one of its own.
func (s *Scanner) lmPairs(b *Block, text []byte) bool {
	type pair struct {
		label, value string
		spec         keySpec
	}
	var pairs []pair
	for _, p := range strings.Split(string(bytes.TrimSpace(text)), ", ") {
		label, value, ok := splitLabel([]byte(p))
		if !ok {
			return false
		}
		norm := normLabel(label)
		spec, known := lmLegacy[norm]
		if norm == "concurrency" {
			spec, known = keySpec{key: "max_concurrency"}, true
		}
		if !known {
			return false
		}
		pairs = append(pairs, pair{string(label), string(value), spec})
	}
	b.EndLine = s.line
	for _, p := range pairs {
		b.Labels = append(b.Labels, Label{Label: p.label, Value: p.value, Line: s.line})
		if p.spec.key != "" {
			addKeys(b, []string{p.spec.key}, p.spec, p.label, strings.TrimSuffix(p.value, "s"), s.line)
		}
	}
	return true
}

// lmLine reads one line; false if the line ended the output and must be
// read as any other.
func (s *Scanner) lmLine(line []byte) bool {
	l := open[*lmState](s)
	if l.table {
		return s.lmTableLine(line)
	}
	b := l.b
	text := bytes.TrimSpace(s.clean(line))
	if len(text) == 0 {
		return true
	}
	if bytes.HasPrefix(text, []byte("-----")) && len(bytes.Trim(text, "-")) == 0 ||
		l.gen && bytes.HasPrefix(text, []byte("- - -")) && len(bytes.Trim(text, "- ")) == 0 {
		b.EndLine = s.line
		s.lmEnd()
		return true
	}
	if l.gen && bytes.Contains(text, []byte(", ")) && !bytes.Contains(text, []byte("latency")) {
		if s.lmPairs(b, text) {
			return true
		}
		s.lmEnd()
		return false
	}
	label, value, ok := splitLabel(text)
	if !ok {
		s.lmEnd()
		return false
	}
	norm := normLabel(label)
	v := string(value)
	switch {
	case norm == "elapsed_time" && !l.started:
		l.started = true
	case !l.started:
		s.rd = nil // "concurrency:" without the lines of a result
		return false
	case strings.HasPrefix(norm, "first token latency") || strings.HasPrefix(norm, "first_token latency"):
		b.EndLine = s.line
		b.Labels = append(b.Labels, Label{Label: string(label), Value: v, Line: s.line})
		parts := strings.Split(v, ",")
		if len(parts) == 3 {
			for i, k := range []string{"min_ttft_ms", "max_ttft_ms", "mean_ttft_ms"} {
				lmAdd(b, k, string(label), strings.TrimSpace(parts[i]), s.line)
			}
		}
		return true
	case l.gen && norm == "total_token latency(min, max, ave)":
		b.EndLine = s.line
		b.Labels = append(b.Labels, Label{Label: string(label), Value: v, Line: s.line})
		parts := strings.Split(v, ",")
		if len(parts) == 3 {
			for i, k := range []string{"min_e2el_ms", "max_e2el_ms", "mean_e2el_ms"} {
				lmAdd(b, k, string(label), strings.TrimSpace(parts[i]), s.line)
			}
		}
		return true
	case l.gen && norm == "token_latency percentiles(50%,75%,95%,99%)(s)":
		norm = "per-token latency(s) percentile(50, 75, 95, 99)"
		fallthrough
	case strings.HasPrefix(norm, "per-token latency(s) percentile("):
		b.EndLine = s.line
		b.Labels = append(b.Labels, Label{Label: string(label), Value: v, Line: s.line})
		ps := strings.Split(strings.TrimSuffix(strings.TrimPrefix(norm, "per-token latency(s) percentile("), ")"), ",")
		vs := strings.Split(strings.Trim(v, "[]"), ",")
		if len(ps) == len(vs) {
			for i := range ps {
				p := "p" + strings.TrimSpace(ps[i])
				if !isPercentile(p) {
					continue
				}
				x := strings.TrimSpace(vs[i])
				x = strings.TrimSuffix(strings.TrimPrefix(x, "np.float64("), ")")
				lmAdd(b, p+"_itl_ms", string(label), x, s.line)
				if p == "p50" {
					lmAdd(b, "median_itl_ms", string(label), x, s.line)
				}
			}
		}
		return true
	}
	spec, known := lmLegacy[norm]
	if l.decode && norm == "token latency(min, max, ave)" {
		known = true // the decode phase of a request: no key
	}
	if !known {
		s.lmEnd()
		return false
	}
	b.EndLine = s.line
	b.Labels = append(b.Labels, Label{Label: string(label), Value: v, Line: s.line})
	if l.decode && norm == "throughput" {
		spec.key = "" // decode tokens over decode time, times the concurrency
	}
	if spec.key != "" {
		x, _, _ := strings.Cut(v, " ")
		if spec.key == "duration" {
			x = strings.TrimSuffix(x, "s")
		}
		addKeys(b, []string{spec.key}, spec, string(label), x, s.line)
	}
	return true
}

// lmAdd adds a latency printed in seconds ("0.123" or "0.123s") as ms.
func lmAdd(b *Block, key, label, v string, line int) {
	addKeys(b, []string{key}, keySpec{unit: "ms", from: "s"}, label, strings.TrimSuffix(v, "s"), line)
}

// lmTableLine reads one line of a Profiler.summarize table.
func (s *Scanner) lmTableLine(line []byte) bool {
	l := open[*lmState](s)
	b := l.b
	text := bytes.TrimRight(s.clean(line), " \t")
	if len(text) == 0 {
		return true
	}
	if t := bytes.TrimSpace(text); len(bytes.Trim(t, "=")) == 0 && len(t) >= 10 {
		b.EndLine = s.line
		s.lmEnd()
		return true
	} else if len(bytes.Trim(t, "-")) == 0 && len(t) >= 10 {
		b.EndLine = s.line
		return true
	}
	if f := strings.Fields(string(text)); f[0] == "mean" && lmHeader(f[1:]) {
		b.EndLine = s.line
		l.stats = f // the header row: mean P50 P75 P95 P99
		return true
	}
	var label string
	var values []string
	if len(text) > 40 && text[39] == ' ' {
		label = strings.TrimSpace(string(text[:40]))
		values = strings.Fields(string(text[40:]))
	} else {
		f := strings.Fields(string(text))
		if len(f) < 2 {
			s.lmEnd()
			return false
		}
		label, values = strings.Join(f[:len(f)-1], " "), f[len(f)-1:]
	}
	if len(values) == 0 {
		s.lmEnd()
		return false
	}
	b.EndLine = s.line
	norm := normLabel([]byte(label))
	if base, ok := lmLatency[norm]; ok && len(values) == len(l.stats) {
		for i, v := range values {
			stat := nvStat(strings.ToLower(l.stats[i]))
			b.Labels = append(b.Labels, Label{Label: label + " " + l.stats[i], Value: v, Line: s.line})
			keys, _ := nvRowKeys(nvRow{base, nvLatency, ""}, "s", stat)
			if len(keys) > 0 {
				addKeys(b, keys, keySpec{unit: "ms", from: "s"}, label, v, s.line)
			}
		}
		return true
	}
	b.Labels = append(b.Labels, Label{Label: label, Value: strings.Join(values, " "), Line: s.line})
	if spec, ok := lmTable[norm]; ok && len(values) == 1 {
		addKeys(b, []string{spec.key}, spec, label, values[0], s.line)
	}
	return true
}

// lmHeader reports whether f are percentile columns: P50 P75 P95 P99.
func lmHeader(f []string) bool {
	for _, w := range f {
		if len(w) < 2 || w[0] != 'P' || !isPercentile(strings.ToLower(w)) {
			return false
		}
	}
	return true
}

// lmEnd queues the output being read, if it is a result.
func (s *Scanner) lmEnd() {
	l := open[*lmState](s)
	s.rd = nil
	b := l.b
	_, d := b.Metrics["duration"]
	_, r := b.Metrics["request_throughput"]
	_, o := b.Metrics["output_throughput"]
	if !d || !r && !o && !l.gen {
		return
	}
	s.emit(b)
}
