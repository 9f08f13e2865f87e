package benchlog

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
)

// JSON results (docs/metrics.md, "Outputs perflab reads"): a vLLM
// --save-result file (one object, or several with --append-result), SGLang
// --output-file JSON lines, TensorRT-LLM's --save-result, or a trtllm-bench
// --report_json; also a top-level array of such objects. Each object is read
// with the decoder's tokens: scalar values are kept (nested objects as
// "parent.child"), the per-request arrays are decoded one at a time, and
// anything else (generated_texts, server_info lists) is skipped token by
// token, so memory is bounded by one object's arrays.

type jsonScan struct {
	rd      *jsonReader
	dec     *json.Decoder
	inArray bool
}

// jsonKV is one scalar of an object.
type jsonKV struct {
	path string
	raw  string // number text, string value, "true", "false" or "null"
	str  bool
	line int
}

// jsonObj is one object being read.
type jsonObj struct {
	line, end int
	kvs       []jsonKV
	has       map[string]bool
	floats    map[string][]float64 // per-request arrays
	floatLine map[string]int
	itls      [][]float64
	errs      []*string
	problems  []*SyntaxError
	guide     []*Block // guidellm report benchmarks
}

const (
	maxJSONScalars = 10000
	maxJSONDepth   = 3
	// maxJSONNesting refuses deeper values (no result nests that deep).
	maxJSONNesting = 64
)

var perRequestArrays = map[string]bool{
	"ttfts": true, "latencies": true, "e2els": true, "input_lens": true, "output_lens": true,
	"start_times": true, "queue_times": true,
	"samples_ns": true, "samples_ts": true, // llama-bench
}

func (s *Scanner) scanJSON() {
	if s.js == nil {
		rd := newJSONReader(s.r)
		dec := json.NewDecoder(rd)
		dec.UseNumber()
		s.js = &jsonScan{rd: rd, dec: dec}
	}
	j := s.js
	for {
		tok, err := j.dec.Token()
		if err == io.EOF {
			s.eof = true
			return
		}
		if err != nil {
			s.jsonFail(err, 0)
			return
		}
		switch tok {
		case json.Delim('['):
			if j.inArray {
				s.jsonFail(fmt.Errorf("expected a result object, found a nested array"), 0)
				return
			}
			j.inArray = true
			continue
		case json.Delim(']'):
			j.inArray = false
			continue
		case json.Delim('{'):
		default:
			s.jsonFail(fmt.Errorf("expected a result object, found %v", tok), 0)
			return
		}
		line := j.rd.lineAt(j.dec.InputOffset() - 1)
		obj, err := s.readObject(line)
		if err != nil {
			s.jsonFail(err, line)
			return
		}
		if len(obj.guide) > 0 {
			s.outq = append(s.outq, obj.guide...)
			return
		}
		if b := s.jsonBlock(obj); b != nil {
			s.emit(b)
			return
		}
	}
}

// jsonFail ends the input at a JSON syntax or read error.
func (s *Scanner) jsonFail(err error, objLine int) {
	s.eof = true
	if objLine > 0 && (err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF)) {
		s.err = &SyntaxError{File: s.name, Line: s.js.rd.lineAt(s.js.dec.InputOffset()),
			Msg: fmt.Sprintf("invalid JSON: the input ends inside the object of line %d (a cut-off file?); the objects before it are read", objLine)}
		return
	}
	var se *json.SyntaxError
	if errors.As(err, &se) || errors.Is(err, io.ErrUnexpectedEOF) || err.Error() == "unexpected EOF" {
		line := s.js.rd.lineAt(s.js.dec.InputOffset())
		if se != nil {
			line = s.js.rd.lineAt(se.Offset)
		}
		msg := "invalid JSON: " + err.Error()
		if objLine > 0 {
			msg += fmt.Sprintf(" (in the object of line %d); the objects before it are read", objLine)
		}
		s.err = &SyntaxError{File: s.name, Line: line, Msg: msg}
		return
	}
	if s.js.rd.err != nil && s.js.rd.err != io.EOF {
		s.err = fmt.Errorf("%s: %w", s.name, s.js.rd.err)
		return
	}
	s.err = &SyntaxError{File: s.name, Line: s.js.rd.lineAt(s.js.dec.InputOffset()), Msg: err.Error()}
}

func (s *Scanner) readObject(line int) (*jsonObj, error) {
	j := s.js
	obj := &jsonObj{line: line, has: map[string]bool{}, floats: map[string][]float64{}, floatLine: map[string]int{}}
	for j.dec.More() {
		tok, err := j.dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := tok.(string)
		kline := j.rd.lineAt(j.dec.InputOffset() - 1)
		switch {
		case perRequestArrays[key]:
			var raw json.RawMessage
			if err := j.dec.Decode(&raw); err != nil {
				return nil, err
			}
			v, ok := floatArray(raw)
			if !ok {
				obj.problems = append(obj.problems, &SyntaxError{File: s.name, Line: kline,
					Msg: fmt.Sprintf("%s: not an array of numbers; nothing recomputed from it", key)})
				continue
			}
			obj.floats[key], obj.floatLine[key] = v, kline
		case key == "itls":
			var raw json.RawMessage
			if err := j.dec.Decode(&raw); err != nil {
				return nil, err
			}
			v, ok := floatArrays(raw)
			if !ok {
				obj.problems = append(obj.problems, &SyntaxError{File: s.name, Line: kline,
					Msg: "itls: not an array of arrays of numbers; no ITL recomputed"})
				continue
			}
			obj.itls, obj.floatLine[key] = v, kline
		case key == "benchmarks":
			if err := s.guideJSON(obj); err != nil {
				return nil, err
			}
		case key == "errors":
			var v []*string
			if err := j.dec.Decode(&v); err != nil {
				if !isTypeError(err) {
					return nil, err
				}
				continue
			}
			obj.errs = v
		default:
			if err := s.jsonValue(obj, key, kline, 1); err != nil {
				return nil, err
			}
		}
	}
	if _, err := j.dec.Token(); err != nil { // '}'
		return nil, err
	}
	obj.end = j.rd.lineAt(j.dec.InputOffset() - 1)
	return obj, nil
}

func isTypeError(err error) bool {
	var te *json.UnmarshalTypeError
	return errors.As(err, &te)
}

// jsonValue reads one value: scalars are kept under path, objects are read
// as "path.key" down to maxJSONDepth, arrays and deeper values are skipped.
func (s *Scanner) jsonValue(obj *jsonObj, path string, line, depth int) error {
	j := s.js
	tok, err := j.dec.Token()
	if err != nil {
		return err
	}
	if depth > maxJSONNesting {
		return fmt.Errorf("values nested more than %d deep", maxJSONNesting)
	}
	keep := path != "" && (depth <= maxJSONDepth || brDeep(path)) && len(obj.kvs) < maxJSONScalars
	switch v := tok.(type) {
	case json.Delim:
		if v == '[' {
			for j.dec.More() {
				if err := s.jsonValue(obj, "", 0, depth+1); err != nil {
					return err
				}
			}
			_, err := j.dec.Token()
			return err
		}
		for j.dec.More() {
			kt, err := j.dec.Token()
			if err != nil {
				return err
			}
			sub := ""
			if keep {
				k, _ := kt.(string)
				sub = path + "." + k
			}
			kline := line
			if sub != "" {
				kline = j.rd.lineAt(j.dec.InputOffset() - 1)
			}
			if err := s.jsonValue(obj, sub, kline, depth+1); err != nil {
				return err
			}
		}
		_, err := j.dec.Token()
		return err
	case json.Number:
		if keep {
			obj.add(jsonKV{path: path, raw: string(v), line: line})
		}
	case string:
		if keep {
			obj.add(jsonKV{path: path, raw: v, str: true, line: line})
		}
	case bool:
		if keep {
			obj.add(jsonKV{path: path, raw: fmt.Sprint(v), line: line})
		}
	case nil:
		if keep {
			obj.add(jsonKV{path: path, raw: "null", line: line})
		}
	}
	return nil
}

func (o *jsonObj) add(kv jsonKV) {
	o.kvs = append(o.kvs, kv)
	o.has[kv.path] = true
}

// jsonKeys maps the keys of vLLM, SGLang and TensorRT-LLM JSON results that
// are not already canonical.
var jsonKeys = map[string]string{
	"request_inthroughput":             "request_throughput", // early 2024 typo
	"request_goodput:":                 "request_goodput",    // benchmark_serving.py v0.6.4-v0.10, TensorRT-LLM
	"total_throughput":                 "total_token_throughput",
	"concurrency":                      "avg_concurrency",
	"accept_length":                    "spec_decode_acceptance_length",
	"avg_decoded_tokens_per_iter.mean": "spec_decode_acceptance_length",
	"correct_rate(%)":                  "correct_rate", // benchmark_serving_structured_output.py
	// trtllm-bench --report_json
	"performance.total_latency_ms":                 "duration",
	"performance.avg_request_latency_ms":           "mean_e2el_ms",
	"performance.request_throughput_req_s":         "request_throughput",
	"performance.system_output_throughput_tok_s":   "output_throughput",
	"performance.system_total_throughput_tok_s":    "total_token_throughput",
	"performance.output_throughput_per_user_tok_s": "user_throughput",
	"performance.output_throughput_per_gpu_tok_s":  "output_throughput_per_gpu",
	"streaming_metrics.token_output_speed_tok_s":   "output_throughput_per_user",
	"streaming_metrics.avg_ttft_ms":                "mean_ttft_ms",
	"streaming_metrics.avg_tpot_ms":                "mean_tpot_ms",
	"request_info.num_requests":                    "completed",
	"request_info.avg_num_concurrent_requests":     "avg_concurrency",
	"request_info.avg_input_length":                "mean_input_len",
	"request_info.avg_output_length":               "mean_output_len",
	// decoding_stats (speculative decoding): per-request means; the
	// acceptance rate is a fraction, not vLLM's percentage.
	"decoding_stats.acceptance_length_percentiles.average":     "spec_decode_acceptance_length",
	"decoding_stats.draft_acceptance_rate_percentiles.average": "draft_acceptance_rate",
}

// canonicalJSON lists the keys that are canonical as written.
var canonicalJSON = map[string]bool{
	"completed": true, "failed": true, "duration": true, "num_prompts": true,
	"total_input_tokens": true, "total_output_tokens": true, "total_output_tokens_retokenized": true,
	"total_input_text_tokens": true, "total_input_vision_tokens": true,
	"request_throughput": true, "request_goodput": true, "input_throughput": true, "output_throughput": true,
	"total_token_throughput": true, "max_output_tokens_per_s": true, "max_concurrent_requests": true,
	"rtfx": true, "request_rate": true, "burstiness": true, "max_concurrency": true,
	"spec_decode_acceptance_rate": true, "spec_decode_acceptance_length": true, "spec_decode_num_drafts": true,
	"spec_decode_draft_tokens": true, "spec_decode_accepted_tokens": true,
	"probe_completed": true, "probe_failed": true, "probe_median_e2el_ms": true, "probe_p99_e2el_ms": true,
	"probe_max_e2el_ms": true, "input_sequence_throughput": true, "total_input_sequences": true,
	"user_throughput": true, "output_throughput_retokenized": true, "total_throughput_retokenized": true,
	"diffusion_committed_throughput": true, "diffusion_steps_per_canvas": true, "diffusion_committed_per_step": true,
	"diffusion_committed_tokens": true, "diffusion_denoising_steps": true, "diffusion_canvas_positions": true,
}

var statKeyRE = regexp.MustCompile(`^(mean|median|std|min|max|p[0-9]+(?:\.[0-9]+)?)_(ttft|tpot|itl|e2el|e2e_latency|ttst|client_queue_time|e2el_including_client_queue)_ms$`)

// benchPercentiles maps trtllm-bench percentile objects to key bases.
var benchPercentiles = map[string]string{
	"performance.request_latency_percentiles_ms": "e2el",
	"streaming_metrics.ttft_percentiles":         "ttft",
	"streaming_metrics.tpot_percentiles":         "tpot",
	"streaming_metrics.gen_tps_percentiles":      "gtps",
}

// jsonMetricKey returns the canonical key of a JSON path and its key spec.
func jsonMetricKey(path string) (string, keySpec, bool) {
	if k, ok := jsonKeys[path]; ok {
		if k == "duration" && strings.HasSuffix(path, "_ms") {
			return k, keySpec{key: k, unit: "s", from: "ms"}, true
		}
		return k, keySpec{key: k}, true
	}
	if canonicalJSON[path] {
		return path, keySpec{key: path}, true
	}
	if m := statKeyRE.FindStringSubmatch(path); m != nil {
		name := m[2]
		if name == "e2e_latency" {
			name = "e2el"
		}
		k := m[1] + "_" + name + "_ms"
		return k, keySpec{key: k}, true
	}
	if i := strings.LastIndexByte(path, '.'); i > 0 {
		if base, ok := benchPercentiles[path[:i]]; ok {
			st := nvStat(path[i+1:])
			if st == "" {
				return "", keySpec{}, false
			}
			if base == "gtps" {
				if st == "mean" {
					return "output_throughput_per_user", keySpec{key: "output_throughput_per_user"}, true
				}
				k := st + "_output_throughput_per_user"
				return k, keySpec{key: k}, true
			}
			k := st + "_" + base + "_ms"
			return k, keySpec{key: k}, true
		}
	}
	return "", keySpec{}, false
}

// jsonBlock turns an object into a block; nil if it is not a result (a
// PyTorch benchmark-DB record, a config file).
func (s *Scanner) jsonBlock(o *jsonObj) *Block {
	if b := s.benchReportJSON(o); b != nil {
		return b
	}
	if b := s.aiperfJSON(o); b != nil {
		return b
	}
	if b := s.mlperfEndpointsJSON(o); b != nil {
		return b
	}
	if b := s.llamaJSON(o); b != nil {
		return b
	}
	if b := s.offlineJSON(o); b != nil {
		return b
	}
	if o.has["results_num_completed_requests"] || o.has["results_ttft_s_mean"] {
		return s.llmperfJSON(o)
	}
	if o.has["Time taken for tests (s)"] || o.has["Test Duration (s)"] {
		return s.evalJSON(o)
	}
	b := &Block{File: s.name, Line: o.line, EndLine: max(o.end, o.line), Metrics: map[string]Metric{},
		Definition: CountOverDuration, Problems: o.problems}
	bench := o.has["performance.total_latency_ms"] || o.has["performance.request_throughput_req_s"]
	switch {
	case bench:
		b.Format, b.Tool, b.Version = FormatTRTLLMBenchJS, ToolTRTLLM, "--report_json"
	case o.has["total_throughput"] || o.has["mean_e2e_latency_ms"] || o.has["accept_length"] ||
		o.has["total_output_tokens_retokenized"] || o.has["concurrency"]:
		b.Format, b.Tool, b.Version = FormatSGLangJSONL, ToolSGLang, "--output-file JSONL"
		if o.has["max_itl_ms"] || o.has["output_throughput_retokenized"] {
			b.Version = "2026 (metrics dataclass)"
		}
	case o.has["user_throughput"] || o.has["avg_decoded_tokens_per_iter.mean"]:
		b.Format, b.Tool, b.Version = FormatTRTLLMJSON, ToolTRTLLM, "benchmark_serving.py --save-result"
	default:
		b.Format, b.Tool = FormatVLLMJSON, ToolVLLM
		b.Version = jsonVLLMVersion(o)
		if o.has["correct_rate(%)"] {
			b.Version += ", structured output (correct_rate)"
		}
	}
	feb2024 := b.Format == FormatVLLMJSON && o.has["total_input"]
	for _, kv := range o.kvs {
		key, spec, ok := jsonMetricKey(kv.path)
		if feb2024 {
			key, spec, ok = vllmFeb2024Key(kv.path, key, spec, ok)
		}
		if ok || !strings.Contains(kv.path, ".") {
			// Nested settings (server_info, engine) are not shown.
			b.Labels = append(b.Labels, Label{Label: kv.path, Value: kv.raw, Line: kv.line})
		}
		if !ok || kv.raw == "null" || kv.raw == "true" || kv.raw == "false" || nullValues[strings.ToLower(kv.raw)] {
			if ok && notFinite(key, kv.raw) {
				b.Problems = append(b.Problems, notFiniteProblem(s.name, kv.line, kv.path, kv.raw, key))
			}
			continue
		}
		m, ok := makeMetric(spec, kv.raw, kv.line)
		if !ok {
			if !kv.str {
				b.Problems = append(b.Problems, notNumber(s.name, kv.line, kv.path, kv.raw, key))
			}
			continue
		}
		if _, dup := b.Metrics[key]; !dup {
			b.Metrics[key] = m
		}
	}
	for _, k := range []string{"input_lens", "output_lens", "ttfts", "latencies", "e2els", "itls"} {
		if l, ok := o.floatLine[k]; ok {
			n := len(o.floats[k])
			if k == "itls" {
				n = len(o.itls)
			}
			b.Labels = append(b.Labels, Label{Label: k, Value: fmt.Sprintf("[%d values]", n), Line: l})
		}
	}
	if bench {
		if m, ok := b.Metrics["completed"]; ok {
			b.Metrics["num_prompts"] = m
		}
		deriveTotals(b)
	}
	_, dur := b.Metrics["duration"]
	_, done := b.Metrics["completed"]
	_, rate := b.Metrics["request_throughput"]
	if !dur || !(done || rate) {
		return nil
	}
	for _, k := range []string{"max_output_tokens_per_s", "max_concurrent_requests"} {
		if _, ok := b.Metrics[k]; ok {
			setDefinition(b, k, PeakBucket)
		}
	}
	for k := range b.Metrics {
		if strings.Contains(k, "user") {
			setDefinition(b, k, PerRequestMean)
		}
	}
	if b.Format == FormatTRTLLMBenchJS {
		for _, k := range []string{"avg_concurrency", "spec_decode_acceptance_length", "draft_acceptance_rate"} {
			if _, ok := b.Metrics[k]; ok || k == "avg_concurrency" {
				setDefinition(b, k, PerRequestMean)
			}
		}
	}
	s.recompute(b, o)
	return b
}

// vllmJSONEras dates a vLLM --save-result object by its keys.
var vllmJSONEras = []struct{ key, version string }{
	{"input_throughput", "before v0.6.0 (input_throughput)"},
	{"total_token_throughput", "v0.6.0+ (total_token_throughput)"},
	{"burstiness", "v0.6.4+ (burstiness)"},
	{"request_goodput:", "v0.6.4-v0.10 benchmark_serving.py (request_goodput: typo)"},
	{"max_output_tokens_per_s", "v0.10.2+ (peak metrics)"},
	{"failed", "v0.11.1+ (failed)"},
	{"endpoint_type", "2026 (endpoint_type)"},
}

// vllmFeb2024Key maps the keys of the first --save-result of the
// rewritten benchmark_serving.py (vLLM, February 2024): "total_input" and
// "total_output" are the token totals, and its "mean_tpot_ms",
// "median_tpot_ms", "p99_tpot_ms" are per request latency / output tokens,
// the first token included (printed as "Mean latency per output token"),
// not a TPOT.
func vllmFeb2024Key(path, key string, spec keySpec, ok bool) (string, keySpec, bool) {
	switch path {
	case "total_input":
		return "total_input_tokens", keySpec{key: "total_input_tokens"}, true
	case "total_output":
		return "total_output_tokens", keySpec{key: "total_output_tokens"}, true
	}
	if base, found := strings.CutSuffix(key, "_tpot_ms"); ok && found {
		k := base + "_latency_per_output_token_ms"
		return k, keySpec{key: k}, true
	}
	return key, spec, ok
}

func jsonVLLMVersion(o *jsonObj) string {
	if o.has["total_input"] {
		return "Feb 2024 (total_input; latency per output token)"
	}
	if o.has["request_inthroughput"] {
		return "early 2024 (request_inthroughput typo)"
	}
	v := "--save-result"
	for _, e := range vllmJSONEras {
		if o.has[e.key] {
			v = e.version
		}
	}
	return v
}
