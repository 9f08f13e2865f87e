package benchlog

import (
	"fmt"
	"strings"
	"time"
)

// Ollama's `ollama run --verbose` (api/types.go, Metrics.Summary) prints
// after each answer, to stderr,
//
//	total duration:       1.842927792s
//	load duration:        26.123333ms
//	prompt eval count:    26 token(s)
//	prompt eval duration: 211.413ms
//	prompt eval rate:     122.98 tokens/s
//	eval count:           290 token(s)
//	eval duration:        1.604022s
//	eval rate:            180.80 tokens/s
//
// each line only when its value is above zero. Durations are Go's
// time.Duration strings ("1m5.2s", "511.5µs"), read with their unit; the
// rates are the phase's tokens over the phase's duration (static-batch: a
// batch of one request).

// olLine is one line of the summary: its key and its kind of value.
type olLine struct {
	key  string
	kind byte // 'd' duration, 'c' token count, 'r' rate in tokens/s
}

var olLines = map[string]olLine{
	"total duration":       {"duration", 'd'},
	"load duration":        {"load_duration_ms", 'd'},
	"prompt eval count":    {"total_input_tokens", 'c'},
	"prompt eval duration": {"prefill_latency_ms", 'd'},
	"prompt eval rate":     {"input_throughput", 'r'},
	"eval count":           {"total_output_tokens", 'c'},
	"eval duration":        {"decode_duration_ms", 'd'},
	"eval rate":            {"output_throughput", 'r'},
}

type olReader struct{ b *Block }

// olStart opens a summary at any of its lines (the first ones are left
// out when zero, or cut from a paste).
func olStart(s *Scanner, text []byte) lineReader {
	if c := text[0]; c != 't' && c != 'l' && c != 'p' && c != 'e' {
		return nil
	}
	label, _, ok := splitLabel(text)
	if !ok {
		return nil
	}
	if _, known := olLines[string(label)]; !known {
		return nil
	}
	return &olReader{&Block{File: s.name, Line: s.line, EndLine: s.line, Format: FormatOllama, Tool: ToolOllama,
		Version: "ollama run --verbose", Definition: StaticBatch, Metrics: map[string]Metric{}}}
}

func (r *olReader) line(s *Scanner, text []byte) bool {
	b := r.b
	label, value, ok := splitLabel(text)
	spec, known := olLines[string(label)]
	if !ok || !known || b.hasLabel(string(label)) {
		s.lrEnd()
		return false
	}
	lab, val := string(label), string(value)
	b.Labels = append(b.Labels, Label{Label: lab, Value: val, Line: s.line})
	b.EndLine = s.line
	switch spec.kind {
	case 'd':
		m, ok := goDuration(val, spec.key, s.line)
		if !ok {
			r.problem(s, lab, val, "a Go duration (1.5s, 26.1ms, 511µs)")
			break
		}
		m.Raw = val
		b.Metrics[spec.key] = m
	case 'c':
		r.number(s, spec.key, lab, val, "token(s)")
	case 'r':
		r.number(s, spec.key, lab, val, "tokens/s")
	}
	if lab == "eval rate" {
		s.lrEnd()
	}
	return true
}

// number reads "26 token(s)" or "122.98 tokens/s": a value in any other
// unit is not read.
func (r *olReader) number(s *Scanner, key, label, value, unit string) {
	num, u, _ := strings.Cut(value, " ")
	if strings.TrimSpace(u) != unit {
		r.problem(s, label, value, "a value in "+unit)
		return
	}
	addKeys(r.b, []string{key}, keySpec{}, label, num, s.line)
}

func (r *olReader) problem(s *Scanner, label, value, want string) {
	r.b.Problems = append(r.b.Problems, &SyntaxError{File: s.name, Line: s.line,
		Msg: fmt.Sprintf("Ollama %s: %q is not %s as Ollama prints it; not read, since its unit cannot be told", label, value, want)})
}

// end queues the summary if it has a rate or a duration.
func (r *olReader) end(s *Scanner) {
	b := r.b
	for _, k := range []string{"output_throughput", "input_throughput", "duration"} {
		if _, ok := b.Metrics[k]; ok {
			s.emit(b)
			return
		}
	}
}

// goDuration reads a Go time.Duration string into key's unit (s for
// duration, ms for _ms keys), its decimals those of its last figure.
func goDuration(v, key string, line int) (Metric, bool) {
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 || strings.ContainsAny(v, "+-") {
		return Metric{}, false
	}
	// The last figure and its unit ("5.2" "s" of "1m5.2s").
	i := len(v)
	for i > 0 && !isDigit(v[i-1]) {
		i--
	}
	unit := v[i:]
	j := i
	for j > 0 && (isDigit(v[j-1]) || v[j-1] == '.') {
		j--
	}
	dec := 0
	if k := strings.IndexByte(v[j:i], '.'); k >= 0 {
		dec = i - j - k - 1
	}
	// Go ends a duration in s, ms, µs or ns ("1h2m0s" too).
	if unit == "µs" || unit == "μs" {
		unit = "us"
	}
	target := "s"
	if strings.HasSuffix(key, "_ms") {
		target = "ms"
	}
	dec -= unitShift(unit, target)
	val := d.Seconds()
	if target == "ms" {
		val = float64(d) / 1e6
	}
	return Metric{Value: val, Decimals: dec, Line: line}, true
}
