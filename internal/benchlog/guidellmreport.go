package benchlog

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// guidellm's report files (docs/metrics.md), GenerativeBenchmarksReport
// dumped by pydantic: {"benchmarks": [ ... ]} (v0.2-v0.3; v0.4+ adds a
// top-level "args" first), as JSON (one line before v0.3.1, indented after)
// or YAML (yaml.dump: block style, keys sorted, sequences not indented).
// Each benchmark becomes a block. A benchmark holds its strategy
// (args.strategy, v0.4+ config.strategy: type_, rate, streams,
// max_concurrency), its request counts (request_totals, v0.4+
// metrics.request_totals), duration, and per metric a distribution for each
// request status (metrics.<name>.successful.{mean, median, std_dev, min,
// max, total_sum, percentiles.{p001 ... p999}}). Only the successful
// requests' distributions are read; everything else, the per-request
// records above all, is skipped without being kept.

// guideMetric is one metric of a guidellm benchmark.
type guideMetric struct {
	row  nvRow
	from string // the unit of its values: "s" for request_latency
}

// guideMetrics maps the metrics of a guidellm benchmark to key bases.
var guideMetrics = map[string]guideMetric{
	"request_latency":               {nvRow{"e2el", nvLatency, ""}, "s"},
	"time_to_first_token_ms":        {nvRow{"ttft", nvLatency, ""}, "ms"},
	"time_to_first_output_token_ms": {nvRow{"ttfot", nvLatency, ""}, "ms"},
	"inter_token_latency_ms":        {nvRow{"itl", nvLatency, ""}, "ms"},
	"time_per_output_token_ms":      {nvRow{"tpot", nvLatency, ""}, "ms"},
	"prompt_token_count":            {nvRow{"input_len", nvLength, "total_input_tokens"}, ""},
	"output_token_count":            {nvRow{"output_len", nvLength, "total_output_tokens"}, ""},
	"requests_per_second":           {nvRow{"request_throughput", nvSingle, ""}, ""},
	"request_concurrency":           {nvRow{"avg_concurrency", nvSingle, ""}, ""},
	"output_tokens_per_second":      {nvRow{"output_throughput", nvSingle, ""}, ""},
	"tokens_per_second":             {nvRow{"total_token_throughput", nvSingle, ""}, ""},
	"prompt_tokens_per_second":      {nvRow{"input_throughput", nvSingle, ""}, ""},
}

// guidePercentiles names guidellm's percentile fields.
var guidePercentiles = map[string]string{
	"p001": "p0.1", "p01": "p1", "p05": "p5", "p10": "p10", "p25": "p25", "p50": "p50",
	"p75": "p75", "p90": "p90", "p95": "p95", "p99": "p99", "p999": "p99.9",
}

var guideTotals = map[string]string{"successful": "completed", "errored": "failed", "incomplete": "incomplete", "total": "num_prompts"}

// What a path of a benchmark is to the readers.
const (
	gwSkip    = iota
	gwDescend // a mapping to read into
	gwKeep    // a scalar to read
)

// guideWant says whether a path (keys from the benchmark down) is read.
func guideWant(path []string) int {
	switch len(path) {
	case 1:
		switch path[0] {
		case "args", "config", "metrics", "request_totals":
			return gwDescend
		case "duration", "start_time", "end_time", "run_id", "warmup_duration", "cooldown_duration":
			return gwKeep
		}
	case 2:
		switch {
		case (path[0] == "args" || path[0] == "config") && (path[1] == "strategy" || path[1] == "profile"):
			return gwDescend
		case path[0] == "config" && path[1] == "run_id":
			return gwKeep
		case path[0] == "request_totals":
			return gwKeep
		case path[0] == "metrics" && path[1] == "request_totals":
			return gwDescend
		case path[0] == "metrics":
			if _, ok := guideMetrics[path[1]]; ok {
				return gwDescend
			}
		}
	case 3:
		switch {
		case path[1] == "strategy":
			switch path[2] {
			case "type_", "rate", "streams", "max_concurrency":
				return gwKeep
			}
		case path[1] == "profile":
			if path[2] == "type_" {
				return gwKeep
			}
		case path[1] == "request_totals":
			return gwKeep
		case path[0] == "metrics" && path[2] == "successful":
			return gwDescend
		}
	case 4:
		if path[0] == "metrics" && path[2] == "successful" {
			if path[3] == "percentiles" {
				return gwDescend
			}
			return gwKeep
		}
	case 5:
		if path[0] == "metrics" && path[3] == "percentiles" {
			return gwKeep
		}
	}
	return gwSkip
}

// guideBench collects one benchmark of a report.
type guideBench struct {
	b        *Block
	strategy string
	rate     string
	streams  string
}

func newGuideBench(file string, line int, format Format) *guideBench {
	return &guideBench{b: &Block{File: file, Line: line, EndLine: line, Format: format, Tool: ToolGuideLLM,
		Definition: TimeSeriesMean, Metrics: map[string]Metric{}}}
}

// value reads one scalar of the benchmark.
func (g *guideBench) value(path []string, raw string, line int) {
	b := g.b
	var keys []string
	var spec keySpec
	label := strings.Join(path, ".")
	switch {
	case len(path) == 1 && path[0] == "duration":
		keys, spec = []string{"duration"}, keySpec{key: "duration", unit: "s", from: "s"}
	case len(path) == 1 || path[len(path)-1] == "run_id" || path[1] == "profile":
		b.Labels = append(b.Labels, Label{Label: label, Value: raw, Line: line})
		return
	case path[1] == "strategy":
		switch path[2] {
		case "type_":
			g.strategy = raw
			b.Labels = append(b.Labels, Label{Label: label, Value: raw, Line: line})
			return
		case "rate":
			g.rate = raw
			keys = []string{"request_rate"}
		default: // streams, max_concurrency
			if path[2] == "streams" {
				g.streams = raw
			}
			keys = []string{"max_concurrency"}
		}
		spec.key = keys[0]
	case path[len(path)-2] == "request_totals":
		k, ok := guideTotals[path[len(path)-1]]
		if !ok {
			return
		}
		keys, spec = []string{k}, keySpec{key: k}
	default: // metrics.<name>.successful.<stat>[.<percentile>]
		gm := guideMetrics[path[1]]
		stat := path[3]
		switch stat {
		case "percentiles":
			stat = guidePercentiles[path[4]]
		case "std_dev":
			stat = "std"
		case "total_sum":
			stat = "sum"
		case "mean", "median", "min", "max":
		default:
			return // mode, variance, count
		}
		if stat == "" {
			return
		}
		keys, spec = nvRowKeys(gm.row, "", stat)
		if gm.from == "s" {
			spec.from = "s"
		}
		if len(keys) == 0 {
			return
		}
	}
	b.Labels = append(b.Labels, Label{Label: label, Value: raw, Line: line})
	if nullValues[strings.ToLower(raw)] {
		if notFinite(keys[0], raw) {
			b.Problems = append(b.Problems, notFiniteProblem(b.File, line, label, raw, keys[0]))
		}
		return
	}
	for _, k := range keys {
		spec.key = k
		m, ok := makeMetric(spec, raw, line)
		if !ok {
			b.Problems = append(b.Problems, notNumber(b.File, line, label, raw, k))
			return
		}
		// The median is its own field; p50 (v0.4+) fills it only if absent.
		if _, dup := b.Metrics[k]; !dup || path[len(path)-1] == "median" {
			b.Metrics[k] = m
		}
	}
}

// block finishes the benchmark: nil if it has no metric.
func (g *guideBench) block(version string) *Block {
	b := g.b
	if len(b.Metrics) == 0 {
		return nil
	}
	b.Version = version
	if g.strategy != "" {
		name := g.strategy
		switch {
		case g.rate != "" && (g.strategy == "constant" || g.strategy == "poisson"):
			if m, ok := b.Metrics["request_rate"]; ok {
				name += fmt.Sprintf("@%.2f", m.Value)
			}
		case g.streams != "":
			name += "@" + g.streams
		}
		b.Labels = append([]Label{{Label: "Benchmark", Value: name, Line: b.Line}}, b.Labels...)
	}
	return b
}

// guideVersionOf dates a report benchmark by its schema.
func guideReportVersion(v04 bool) string {
	if v04 {
		return "v0.4+ (config, scheduler_metrics)"
	}
	return "v0.2-v0.3 (args, run_stats)"
}

// guideJSON reads the value of a top-level "benchmarks" key of a JSON
// object: each guidellm benchmark in it becomes a block of o.guide.
func (s *Scanner) guideJSON(o *jsonObj) error {
	j := s.js
	tok, err := j.dec.Token()
	if err != nil {
		return err
	}
	if tok != json.Delim('[') {
		return s.skipJSON(tok, 0)
	}
	for j.dec.More() {
		tok, err := j.dec.Token()
		if err != nil {
			return err
		}
		if tok != json.Delim('{') {
			if err := s.skipJSON(tok, 0); err != nil {
				return err
			}
			continue
		}
		g := newGuideBench(s.name, j.rd.lineAt(j.dec.InputOffset()-1), FormatGuideLLMJSON)
		v04 := false
		if err := s.guideJSONObject(g, nil, &v04); err != nil {
			return err
		}
		g.b.EndLine = max(j.rd.lineAt(j.dec.InputOffset()-1), g.b.Line)
		if b := g.block(guideReportVersion(v04) + guideReportRelease(o)); b != nil {
			o.guide = append(o.guide, b)
		}
	}
	_, err = j.dec.Token() // ']'
	return err
}

// guideJSONObject reads the members of an object whose '{' was read.
func (s *Scanner) guideJSONObject(g *guideBench, path []string, v04 *bool) error {
	j := s.js
	for j.dec.More() {
		kt, err := j.dec.Token()
		if err != nil {
			return err
		}
		k, _ := kt.(string)
		line := j.rd.lineAt(j.dec.InputOffset() - 1)
		p := append(path, k)
		if len(p) == 1 && k == "config" {
			*v04 = true
		}
		want := guideWant(p)
		tok, err := j.dec.Token()
		if err != nil {
			return err
		}
		switch {
		case want == gwDescend && tok == json.Delim('{'):
			if err := s.guideJSONObject(g, p, v04); err != nil {
				return err
			}
		case want == gwKeep && !isDelim(tok):
			g.value(p, jsonScalar(tok), line)
		default:
			if err := s.skipJSON(tok, 0); err != nil {
				return err
			}
		}
	}
	_, err := j.dec.Token() // '}'
	return err
}

func isDelim(tok json.Token) bool {
	_, ok := tok.(json.Delim)
	return ok
}

// jsonScalar is a scalar token as text.
func jsonScalar(tok json.Token) string {
	switch v := tok.(type) {
	case json.Number:
		return string(v)
	case string:
		return v
	case nil:
		return "null"
	}
	return fmt.Sprint(tok)
}

// skipJSON skips the rest of a value whose first token was read.
func (s *Scanner) skipJSON(tok json.Token, depth int) error {
	d, ok := tok.(json.Delim)
	if !ok || d == ']' || d == '}' {
		return nil
	}
	if depth > maxJSONNesting {
		return fmt.Errorf("values nested more than %d deep", maxJSONNesting)
	}
	for s.js.dec.More() {
		t, err := s.js.dec.Token()
		if err != nil {
			return err
		}
		if err := s.skipJSON(t, depth+1); err != nil {
			return err
		}
	}
	_, err := s.js.dec.Token()
	return err
}

// guideYAML is a YAML report being read, line by line.
type guideYAML struct {
	indent int // of "benchmarks:"
	g      *guideBench
	v04    bool
	item   int // indent of the item's keys
	stack  []yamlKey
	skip   int // lines indented more than this (or "- " at it) are skipped; -1: none
	seen   bool
}

type yamlKey struct {
	indent int
	key    string
}

// yamlStart opens a YAML report at its "benchmarks:" line.
func (s *Scanner) yamlStart(line []byte) bool {
	if string(bytes.TrimRight(line, " \t\r")) != "benchmarks:" {
		return false
	}
	s.rd = &guideYAML{skip: -1}
	return true
}

// yamlLine reads one line of a YAML report; false when the report has
// ended (the line is then read as any other).
func (s *Scanner) yamlLine(line []byte) bool {
	y := open[*guideYAML](s)
	line = bytes.TrimRight(line, " \t\r")
	indent := 0
	for indent < len(line) && line[indent] == ' ' {
		indent++
	}
	text := line[indent:]
	if len(text) == 0 || text[0] == '#' {
		return true
	}
	item := text[0] == '-' && (len(text) == 1 || text[1] == ' ')
	if y.skip >= 0 {
		if indent > y.skip || indent == y.skip && item {
			y.g.b.EndLine = s.line
			return true
		}
		y.skip = -1
	}
	switch {
	case item && (y.g == nil && indent <= y.indent+2 || y.g != nil && indent == y.item-2):
		s.yamlItemEnd()
		y.g = newGuideBench(s.name, s.line, FormatGuideLLMYAML)
		y.item, y.stack, y.v04 = indent+2, y.stack[:0], false
		y.seen = true
		text = bytes.TrimLeft(text[1:], " ")
		indent, item = indent+2, false
		if len(text) == 0 {
			return true
		}
	case indent <= y.indent:
		s.yamlEnd()
		return false
	}
	if y.g == nil || indent < y.item {
		return true
	}
	y.g.b.EndLine = s.line
	if item {
		y.skip = indent // a list inside the benchmark: never read
		return true
	}
	key, value, ok := yamlKeyValue(text)
	if !ok {
		return true
	}
	for len(y.stack) > 0 && y.stack[len(y.stack)-1].indent >= indent {
		y.stack = y.stack[:len(y.stack)-1]
	}
	path := make([]string, 0, len(y.stack)+1)
	for _, k := range y.stack {
		path = append(path, k.key)
	}
	path = append(path, key)
	if len(path) == 1 && key == "config" {
		y.v04 = true
	}
	want := guideWant(path)
	switch {
	case len(value) == 0 && want == gwDescend:
		y.stack = append(y.stack, yamlKey{indent, key})
	case want == gwKeep && len(value) > 0:
		y.g.value(path, yamlScalar(value), s.line)
		y.skip = indent
	default:
		y.skip = indent
	}
	return true
}

// yamlKeyValue splits "key: value" or "key:" (the key maybe quoted).
func yamlKeyValue(text []byte) (key string, value []byte, ok bool) {
	i := bytes.Index(text, []byte(": "))
	if i < 0 {
		if text[len(text)-1] != ':' {
			return "", nil, false
		}
		i = len(text) - 1
	}
	k := bytes.Trim(text[:i], `"'`)
	if len(k) == 0 || bytes.IndexByte(k, ' ') >= 0 {
		return "", nil, false
	}
	return string(k), bytes.TrimSpace(text[min(i+2, len(text)):]), true
}

// yamlScalar reads a plain or quoted scalar; ~ and the special floats
// become the words the metric readers know.
func yamlScalar(v []byte) string {
	if n := len(v); n >= 2 && (v[0] == '\'' && v[n-1] == '\'' || v[0] == '"' && v[n-1] == '"') {
		return string(v[1 : n-1])
	}
	switch strings.ToLower(string(v)) {
	case "~":
		return "null"
	case ".nan":
		return "nan"
	case ".inf", "+.inf":
		return "inf"
	case "-.inf":
		return "-inf"
	}
	return string(v)
}

// yamlItemEnd queues the benchmark being read.
func (s *Scanner) yamlItemEnd() {
	y := open[*guideYAML](s)
	if y.g == nil {
		return
	}
	if b := y.g.block(guideReportVersion(y.v04)); b != nil {
		s.emit(b)
	}
	y.g = nil
}

// yamlEnd ends the YAML report.
func (s *Scanner) yamlEnd() {
	s.yamlItemEnd()
	s.rd = nil
}
