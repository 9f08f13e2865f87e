package benchlog

import (
	"bytes"
	"fmt"
	"strings"
)

// Offline and latency benchmarks, which run the engine in the benchmark's
// own process, without a server (docs/metrics.md). Each is read from the
// lines its printing code writes, exactly:
//
//   - FormatVLLMThroughput: the end of `vllm bench throughput` and
//     benchmarks/benchmark_throughput.py. "Throughput: X requests/s, Y
//     tokens/s" until late 2024 (Y counts prompt and output tokens), then
//     "Throughput: X requests/s, Y total tokens/s, Z output tokens/s", since
//     2025 followed by "Total num prompt tokens:  N" and "Total num output
//     tokens:  N". The numbers are count / elapsed time: CountOverDuration,
//     though the elapsed time itself is printed only in --output-json.
//   - FormatVLLMLatency: `vllm bench latency` and benchmark_latency.py: "Avg
//     latency: X seconds", then (2024 on) "NN% percentile latency: X seconds"
//     for 10, 25, 50, 75, 90 (and 99 later), and in the newest release "Std
//     latency: X seconds" after the average. Each latency is the wall time of
//     one whole batch; the statistics are over the timed iterations.
//   - FormatSGLangOneBatch: python -m sglang.bench_one_batch and its
//     predecessor sglang.bench_latency, one block per (batch, input, output)
//     run: "Prefill. latency: X s, throughput: Y token/s", per-step "Decode.
//     latency: ..." or "Decode N. Batch size: B, latency: ..." lines,
//     "Decode.  median latency: ..., median throughput: ..." (2024
//     bench_latency: "avg latency", "avg throughput"), and "Total. latency:
//     X s, throughput: Y token/s", which closes the run. The run after
//     "Warmup ..." and before "Benchmark ..." is a warm-up: it is read and
//     dropped.
//   - FormatVLLMThroughputJSON and FormatVLLMLatencyJSON: their --output-json
//     files (offlineJSON).
//
// sglang.bench_offline_throughput prints a banner table read by the
// serving-table reader (FormatSGLangOffline, see offlineBanner).
//
// A line that is none of these (blank lines aside) ends the block it follows,
// and SGLang's run then is truncated if its "Total." line is missing. Only
// whole lines of these shapes are read, so prose such as "Throughput: about 5
// requests/s" is not a result.

// offScan is the state of the offline reader of a console log.
type offScan struct {
	blk    *Block // being read; nil between blocks
	warmup bool   // after SGLang's "Warmup ...", before its "Benchmark ..."
	skip   bool   // blk is a warm-up run: read, never emitted
	done   bool   // SGLang: the "Total." line closed blk
	layout uint16 // the layout features blk shows (off* bits)
	// guided is the latency section of vLLM's benchmark_guided.py being
	// read (guided.go): its key base, "" outside one.
	guided string
	// sgl are the held Throughput lines of the first sglang
	// bench_offline_throughput releases (sgloffline.go).
	sgl []sglPending
}

// Layout features, which date a block.
const (
	offSplit  uint16 = 1 << iota // vLLM throughput: total and output tokens/s
	offCounts                    // vLLM throughput: Total num prompt/output tokens lines
	offPct                       // vLLM latency: percentile lines
	offP99                       // vLLM latency: a 99% percentile line
	offStd                       // vLLM latency: Std latency line
	offAvg                       // SGLang: "Decode.  avg latency" (2024 bench_latency)
	offMedian                    // SGLang: "Decode.  median latency"
	offBatch                     // SGLang: "Decode N. Batch size: B" lines
	offGuided                    // vLLM benchmark_guided.py: "Correct rate is" (guided.go)
)

// offlineBannerText opens sglang.bench_offline_throughput's result table.
var offlineBannerText = []byte("Offline Throughput Benchmark Result")

// offlineBanner opens a serving-table block at the banner of
// sglang.bench_offline_throughput ("====== Offline Throughput Benchmark
// Result ======="), which prints the labels of bench_serving's table (and
// "Last generation throughput (tok/s)", a scheduler gauge kept as a label).
func (s *Scanner) offlineBanner(text []byte) bool {
	if !bytes.Contains(text, offlineBannerText) {
		return false
	}
	s.begin(true)
	s.marks.offline = true
	return true
}

// offlineTableVersion dates a FormatSGLangOffline block.
func offlineTableVersion(b *Block) string {
	for _, l := range b.Labels {
		if l.Label == "Last generation throughput (tok/s)" {
			return "2025+ (Last generation throughput)"
		}
	}
	return "late 2024 (first banner layout)"
}

// offStart is called by noise for a line outside any block that starts with
// a letter (text: the line without its indentation): it reads the line if it
// opens an offline block or is an SGLang warm-up marker.
func (s *Scanner) offStart(line, text []byte) bool {
	switch text[0] {
	case 'T':
		if !bytes.HasPrefix(text, []byte("Throughput:")) {
			return false
		}
	case 'A':
		if !bytes.HasPrefix(text, []byte("Avg latency:")) {
			return false
		}
	case 'P':
		if !bytes.HasPrefix(text, []byte("Prefill.")) {
			return false
		}
	case 'W':
		if !bytes.HasPrefix(text, []byte("Warmup ...")) {
			return false
		}
	case 'B':
		if !bytes.HasPrefix(text, []byte("Benchmark ...")) {
			return false
		}
	default:
		return false
	}
	return s.offRead(s.clean(line))
}

// offLine reads a line while an offline block is open; false when the line
// is not part of it (the block has been ended; read the line as any other).
func (s *Scanner) offLine(line []byte, long bool) bool {
	if !long {
		text := s.clean(line)
		if len(text) == 0 {
			return true
		}
		if s.offRead(text) {
			return true
		}
	}
	s.offEnd()
	return false
}

// offRead reads a cleaned line of one of the offline layouts.
func (s *Scanner) offRead(t []byte) bool {
	if len(t) == 0 {
		return false
	}
	if s.offGuidedLine(t) {
		return true
	}
	switch c := t[0]; {
	case c == 'T':
		switch {
		case bytes.HasPrefix(t, []byte("Throughput:")):
			return s.offThroughput(t)
		case bytes.HasPrefix(t, []byte("Total num ")):
			return s.offCount(t)
		case bytes.HasPrefix(t, []byte("Total.")):
			return s.offSGLang(t)
		}
	case c == 'A' || c == 'S' || isDigit(c):
		return s.offLatency(t)
	case c == 'P' || c == 'D':
		return s.offSGLang(t)
	case c == 'W' || c == 'B':
		warm := string(t) == "Warmup ..."
		if !warm && string(t) != "Benchmark ..." {
			return false
		}
		s.offEnd()
		if s.off == nil {
			s.off = &offScan{}
		}
		s.off.warmup = warm
		return true
	}
	return false
}

// offBegin opens a block at the current line, ending the one before.
func (s *Scanner) offBegin(f Format, tool string, def Definition) *Block {
	s.offEnd()
	if s.off == nil {
		s.off = &offScan{}
	}
	o := s.off
	o.blk = &Block{File: s.name, Line: s.line, EndLine: s.line, Format: f, Tool: tool, Definition: def, Metrics: map[string]Metric{}}
	o.skip = f == FormatSGLangOneBatch && o.warmup
	o.done, o.layout, o.guided = false, 0, ""
	return o.blk
}

// offOpen returns the open block if it is of format f.
func (s *Scanner) offOpen(f Format) *Block {
	if s.off == nil || s.off.blk == nil || s.off.blk.Format != f {
		return nil
	}
	return s.off.blk
}

// offEnd closes the open block, dates it and queues it for Scan (a warm-up
// run is dropped).
func (s *Scanner) offEnd() {
	o := s.off
	if o == nil || o.blk == nil {
		return
	}
	b := o.blk
	o.blk = nil
	if o.skip {
		return
	}
	// The first era whose lines the block has names its version; the last
	// of each list has none to look for.
	for _, e := range offEras[b.Format] {
		if e.bit == 0 || o.layout&e.bit != 0 {
			b.Version = e.version
			break
		}
	}
	if b.Format == FormatSGLangOneBatch && !o.done {
		b.Truncated = true
		b.Problems = append(b.Problems, &SyntaxError{File: s.name, Line: b.EndLine,
			Msg: fmt.Sprintf(`SGLang run of line %d has no "Total. latency" line; read up to here`, b.Line)})
	}
	s.emit(b)
}

// offEras date the offline blocks by the lines they print, newest first.
var offEras = map[Format][]struct {
	bit     uint16
	version string
}{
	FormatVLLMThroughput: {
		{offGuided, "benchmark_guided.py (Correct rate)"},
		{offCounts, "2025+ (Total num prompt/output tokens)"},
		{offSplit, "late 2024+ (total and output tokens/s)"},
		{0, "v0.1-v0.6 (requests/s, tokens/s)"},
	},
	FormatVLLMLatency: {
		{offStd, "newest (Std latency)"},
		{offP99, "10-99% percentiles"},
		{offPct, "10-90% percentiles"},
		{0, "v0.1+ (Avg latency only)"},
	},
	FormatSGLangOneBatch: {
		{offAvg, "bench_latency (Decode. avg latency)"},
		{offBatch, "Decode N. Batch size lines"},
		{offMedian, "Decode. median latency"},
		{0, "Prefill and Total lines"},
	},
}

// offLabel records a line of the open block.
func (s *Scanner) offLabel(label string, value []byte) {
	b := s.off.blk
	b.Labels = append(b.Labels, Label{Label: label, Value: string(value), Line: s.line})
	b.EndLine = s.line
}

// offMetric records a metric of the current line in the open block: num is
// the number, raw the value as printed (unit included), from the unit it is
// printed in when unit is a conversion ("ms" from "s").
func (s *Scanner) offMetric(key, unit, from string, num, raw []byte, label string) {
	b := s.off.blk
	if notFinite(key, string(num)) {
		b.Problems = append(b.Problems, notFiniteProblem(s.name, s.line, label, string(raw), key))
		return
	}
	m, ok := metricBytes(keySpec{key: key, unit: unit, from: from}, num, s.line)
	if !ok {
		b.Problems = append(b.Problems, &SyntaxError{File: s.name, Line: s.line,
			Msg: fmt.Sprintf("%s: value %q is out of range; no %s read", label, string(raw), key)})
		return
	}
	m.Raw = string(raw)
	b.Metrics[key] = m
}

// offNum returns the number of v, which must be a number followed by unit
// (its words separated by any blanks; "" for none). NaN and infinities are
// numbers here, reported by offMetric.
func offNum(v []byte, unit string) ([]byte, bool) {
	v = bytes.TrimSpace(v)
	num, u := v, []byte(nil)
	if i := bytes.IndexAny(v, " \t"); i >= 0 {
		num, u = v[:i], v[i+1:]
	}
	var buf [32]byte
	if string(appendNorm(buf[:0], u)) != unit {
		return nil, false
	}
	if _, _, vu, _, ok := parseValueBytes(num); (!ok || len(vu) > 0) && !notFinite("", string(num)) {
		return nil, false
	}
	return num, true
}

// offPair is one "label: value" part of a line.
type offPair struct{ label, value []byte }

// offPairs splits "latency: 0.1 s, throughput:   9.0 token/s" at its commas
// into label/value pairs; false if a part has no "label: value" shape or
// there are more parts than dst holds.
func offPairs(rest []byte, dst []offPair) ([]offPair, bool) {
	out := dst[:0]
	for len(rest) > 0 {
		part := rest
		if i := bytes.IndexByte(rest, ','); i >= 0 {
			part, rest = rest[:i], rest[i+1:]
			if len(rest) == 0 {
				return nil, false // a trailing comma
			}
		} else {
			rest = nil
		}
		if len(out) == cap(dst) {
			return nil, false
		}
		l, v, ok := splitLabel(bytes.TrimSpace(part))
		if !ok {
			return nil, false
		}
		out = append(out, offPair{l, v})
	}
	return out, len(out) > 0
}

// offThroughput reads vLLM's "Throughput: 5.35 requests/s, 2735.50 total
// tokens/s, 1369.41 output tokens/s" (or the two-value line before late
// 2024), which opens a block.
func (s *Scanner) offThroughput(t []byte) bool {
	rest := t[len("Throughput:"):]
	if len(rest) == 0 || (rest[0] != ' ' && rest[0] != '\t') {
		return false
	}
	rest, rate, guided := bytes.Cut(rest, guidedRateText)
	var parts [3][]byte
	n := 0
	for p := rest; p != nil; {
		part := p
		if i := bytes.IndexByte(p, ','); i >= 0 {
			part, p = p[:i], p[i+1:]
		} else {
			p = nil
		}
		if n == len(parts) {
			return false
		}
		parts[n] = bytes.TrimSpace(part)
		n++
	}
	if !guided && (n == 1 || n == 3) && s.sglThroughput(parts[:n], rest) {
		return true
	}
	units, keys := offThroughput2, offThroughputKeys2
	switch n {
	case 2:
	case 3:
		units, keys = offThroughput3, offThroughputKeys3
	default:
		return false
	}
	var nums [3][]byte
	for i := range n {
		num, ok := offNum(parts[i], units[i])
		if !ok {
			return false
		}
		nums[i] = num
	}
	s.offBegin(FormatVLLMThroughput, ToolVLLM, CountOverDuration)
	s.offLabel("Throughput", bytes.TrimSpace(rest))
	for i := range n {
		s.offMetric(keys[i], "", "", nums[i], parts[i], "Throughput")
	}
	if n == 3 {
		s.off.layout |= offSplit
	}
	if guided {
		s.offGuidedRate(rate)
	}
	return true
}

var (
	offThroughput2     = []string{"requests/s", "tokens/s"}
	offThroughputKeys2 = []string{"request_throughput", "total_token_throughput"}
	offThroughput3     = []string{"requests/s", "total tokens/s", "output tokens/s"}
	offThroughputKeys3 = []string{"request_throughput", "total_token_throughput", "output_throughput"}
)

// offCount reads "Total num prompt tokens:  N" and "Total num output tokens:
// N" after vLLM's Throughput line; the second of them ends the block.
func (s *Scanner) offCount(t []byte) bool {
	b := s.offOpen(FormatVLLMThroughput)
	if b == nil {
		return false
	}
	label, value, ok := splitLabel(t)
	if !ok {
		return false
	}
	var key string
	switch string(label) {
	case "Total num prompt tokens":
		key = "total_input_tokens"
	case "Total num output tokens":
		key = "total_output_tokens"
	default:
		return false
	}
	num, ok := offNum(value, "")
	if _, dup := b.Metrics[key]; dup || !ok {
		return false
	}
	s.offLabel(string(label), value)
	s.offMetric(key, "", "", num, value, string(label))
	s.off.layout |= offCounts
	_, in := b.Metrics["total_input_tokens"]
	_, out := b.Metrics["total_output_tokens"]
	if in && out {
		s.offEnd() // the last line vLLM prints
	}
	return true
}

// offLatency reads vLLM's "Avg latency: X seconds" (which opens a block),
// "Std latency: X seconds" and "NN% percentile latency: X seconds".
func (s *Scanner) offLatency(t []byte) bool {
	label, value, ok := splitLabel(t)
	if !ok {
		return false
	}
	num, ok := offNum(value, "seconds")
	if !ok {
		return false
	}
	var key string
	var bit uint16
	switch string(label) {
	case "Avg latency":
		key = "mean_e2el_ms"
	case "Std latency":
		key, bit = "std_e2el_ms", offStd
	default:
		p, ok := bytes.CutSuffix(label, []byte("% percentile latency"))
		if !ok || len(p) > 8 || !isPercentile("p"+string(p)) {
			return false
		}
		key, bit = "p"+string(p)+"_e2el_ms", offPct
		if string(p) == "99" {
			bit |= offP99
		}
	}
	if key == "mean_e2el_ms" {
		s.offBegin(FormatVLLMLatency, ToolVLLM, StaticBatch)
	} else if b := s.offOpen(FormatVLLMLatency); b == nil {
		return false
	} else if _, dup := b.Metrics[key]; dup {
		return false
	}
	s.offLabel(string(label), value)
	s.offMetric(key, "ms", "s", num, value, string(label))
	s.off.layout |= bit
	return true
}

// offSGLang reads a line of sglang.bench_one_batch / bench_latency:
//
//	Prefill. latency: 0.03104 s, throughput:  32989.35 token/s
//	Decode 0. Batch size: 1, latency: 0.00712 s, throughput:    140.45 token/s
//	Decode.  latency: 0.00712 s, throughput:    140.45 token/s
//	Decode.  median latency: 0.00711 s, median throughput:    140.63 token/s
//	Decode.  avg latency: 0.00711 s, avg throughput:    140.63 token/s
//	Total. latency:  0.345 s, throughput:   3018.39 token/s
//
// "Prefill." opens a block, "Total." closes it.
func (s *Scanner) offSGLang(t []byte) bool {
	dot := bytes.IndexByte(t, '.')
	if dot < 0 || dot+1 == len(t) || (t[dot+1] != ' ' && t[dot+1] != '\t') {
		return false
	}
	head := t[:dot]
	var buf [3]offPair
	ps, ok := offPairs(t[dot+1:], buf[:])
	if !ok {
		return false
	}
	step := false // a "Decode N." line
	switch string(head) {
	case "Prefill", "Total", "Decode":
	default:
		n, ok := bytes.CutPrefix(head, []byte("Decode "))
		if !ok || len(n) == 0 || len(n) > 9 || !allDigits(n) {
			return false
		}
		step = true
	}
	if step {
		if len(ps) != 3 || string(ps[0].label) != "Batch size" {
			return false
		}
		if _, ok := offNum(ps[0].value, ""); !ok {
			return false
		}
		ps = ps[1:]
	}
	if len(ps) != 2 {
		return false
	}
	// The two pairs: "[word ]latency: X s" and "[word ]throughput: Y token/s".
	word, ok := bytes.CutSuffix(ps[0].label, []byte("latency"))
	if !ok || string(ps[1].label) != string(word)+"throughput" {
		return false
	}
	lat, ok1 := offNum(ps[0].value, "s")
	thr, ok2 := offNum(ps[1].value, "token/s")
	if !ok1 || !ok2 {
		return false
	}
	var latKey, thrKey, latUnit string
	var bit uint16
	switch {
	case string(head) == "Prefill" && len(word) == 0:
		latKey, thrKey, latUnit = "prefill_latency_ms", "prefill_throughput", "ms"
	case string(head) == "Total" && len(word) == 0:
		latKey, thrKey, latUnit = "duration", "total_token_throughput", "s"
	case string(head) == "Decode" && string(word) == "median ":
		latKey, thrKey, latUnit, bit = "median_decode_latency_ms", "median_decode_throughput", "ms", offMedian
	case string(head) == "Decode" && string(word) == "avg ":
		latKey, thrKey, latUnit, bit = "mean_decode_latency_ms", "mean_decode_throughput", "ms", offAvg
	case (string(head) == "Decode" || step) && len(word) == 0:
		// One decode step: a label only.
	default:
		return false
	}
	var b *Block
	if string(head) == "Prefill" {
		b = s.offBegin(FormatSGLangOneBatch, ToolSGLang, StaticBatch)
	} else {
		b = s.offOpen(FormatSGLangOneBatch)
		if b == nil || s.off.done {
			return false
		}
		if _, dup := b.Metrics[latKey]; latKey != "" && dup {
			return false
		}
	}
	label := string(t[:dot+1])
	value := bytes.TrimSpace(t[dot+1:])
	s.offLabel(label, value)
	if step {
		s.off.layout |= offBatch
		if _, ok := b.Metrics["batch_size"]; !ok {
			num, _ := offNum(buf[0].value, "")
			s.offMetric("batch_size", "", "", num, bytes.TrimSpace(buf[0].value), label)
		}
	}
	if latKey != "" {
		s.offMetric(latKey, latUnit, "s", lat, bytes.TrimSpace(ps[0].value), label)
		s.offMetric(thrKey, "", "", thr, bytes.TrimSpace(ps[1].value), label)
	}
	s.off.layout |= bit
	if string(head) == "Total" {
		s.off.done = true
		s.offEnd()
	}
	return true
}

// offlineJSONKeys map the keys of vLLM's offline --output-json files.
var offlineJSONKeys = map[string]keySpec{
	// vllm bench throughput / benchmark_throughput.py
	"elapsed_time":        {key: "duration", unit: "s"},
	"num_requests":        {key: "completed"},
	"total_num_tokens":    {key: "total_tokens"},
	"requests_per_second": {key: "request_throughput"},
	"tokens_per_second":   {key: "total_token_throughput"},
	// vllm bench latency / benchmark_latency.py: seconds
	"avg_latency": {key: "mean_e2el_ms", unit: "ms", from: "s"},
	"std_latency": {key: "std_e2el_ms", unit: "ms", from: "s"},
}

// offlineJSON reads an object of vLLM's offline --output-json files; nil if
// it is none:
//
//	{"elapsed_time": 186.9, "num_requests": 1000, "total_num_tokens": 511378,
//	 "requests_per_second": 5.35, "tokens_per_second": 2735.5}
//	{"avg_latency": 5.25, "std_latency": 0.01, "latencies": [...],
//	 "percentiles": {"10": 5.24, ..., "99": 5.27}}
//
// std_latency is written by the newest release only.
func (s *Scanner) offlineJSON(o *jsonObj) *Block {
	var f Format
	def, version := CountOverDuration, "--output-json"
	switch {
	case o.has["elapsed_time"] && (o.has["requests_per_second"] || o.has["tokens_per_second"]):
		f = FormatVLLMThroughputJSON
	case o.has["avg_latency"]:
		f, def = FormatVLLMLatencyJSON, StaticBatch
		if o.has["std_latency"] {
			version = "--output-json, newest (std_latency)"
		}
	default:
		return nil
	}
	b := &Block{File: s.name, Line: o.line, EndLine: max(o.end, o.line), Format: f, Tool: ToolVLLM,
		Version: version, Definition: def, Metrics: map[string]Metric{}, Problems: o.problems}
	for _, kv := range o.kvs {
		spec, ok := offlineJSONKeys[kv.path]
		if f == FormatVLLMThroughputJSON && !ok {
			spec, ok = guidedJSONKey(kv.path)
		}
		if p, pct := strings.CutPrefix(kv.path, "percentiles."); pct && f == FormatVLLMLatencyJSON {
			ok = len(p) <= 8 && isPercentile("p"+p)
			spec = keySpec{key: "p" + p + "_e2el_ms", unit: "ms", from: "s"}
		}
		if !ok {
			_, spec, ok = jsonMetricKey(kv.path) // canonical keys a fork may add
			ok = ok && !kv.str
		}
		if ok || !strings.Contains(kv.path, ".") {
			b.Labels = append(b.Labels, Label{Label: kv.path, Value: kv.raw, Line: kv.line})
		}
		if !ok || kv.raw == "null" || kv.raw == "true" || kv.raw == "false" {
			continue
		}
		if notFinite(spec.key, kv.raw) {
			b.Problems = append(b.Problems, notFiniteProblem(s.name, kv.line, kv.path, kv.raw, spec.key))
			continue
		}
		m, ok := makeMetric(spec, kv.raw, kv.line)
		if !ok {
			b.Problems = append(b.Problems, notNumber(s.name, kv.line, kv.path, kv.raw, spec.key))
			continue
		}
		if _, dup := b.Metrics[spec.key]; !dup {
			b.Metrics[spec.key] = m
		}
	}
	if f == FormatVLLMThroughputJSON && o.has["correct_rate(%)"] {
		b.Version = "benchmark_guided.py result file (correct_rate)"
		guidedMedians(b)
	}
	if l, ok := o.floatLine["latencies"]; ok {
		b.Labels = append(b.Labels, Label{Label: "latencies", Value: fmt.Sprintf("[%d values]", len(o.floats["latencies"])), Line: l})
	}
	return b
}
