package benchlog

import (
	"bytes"
	"strings"
)

// The first releases of sglang.bench_offline_throughput (2024, before its
// "Offline Throughput Benchmark Result" banner) print, for each run, one
// line from throughput_test_once, the warm-up run first:
//
//   - the first version: "Throughput: BSZ 4 tokens, Num sequences 4,
//     throughput: 1234.5678 tokens/s" per (batch, input, output) case, then,
//     without --result-filename, print(result_list): a Python list of dicts
//     {'run_name': ..., 'batch_size': 4, 'input_len': 1024, 'output_len':
//     16, 'total_latency': 0.52, 'throughput': 7907.6}. Its output_len (and
//     so its throughput, (input_len + output_len) x batch / latency) is the
//     first --output-len for every case, not the case's own: both are kept
//     as labels only.
//   - then: "Throughput: 5927.7612 tokens/s" (warm-up, then the run), and
//     print() of the run's dict {['run_name': ..., ]'total_input_tokens': N,
//     'total_latency': s, 'total_output_tokens': M, 'throughput': T}, or
//     "None" when the result went to --result-filename. T = (N + M) /
//     latency.
//
// The Throughput lines alone do not say which is the warm-up; they are held
// until the dict, list or None that closes the run, and the last one is the
// run's (the others are the warm-up). Lines that nothing closes are not
// read. The values are Python reprs of floats, read as printed.

// sglPending is a held Throughput line.
type sglPending struct {
	line int
	num  string // the throughput, as printed
	raw  string // the line after "Throughput:"
	bsz  bool   // the first version's "BSZ ..." line
}

// maxSGLPending bounds the held lines (a log of many runs never closed).
const maxSGLPending = 64

// sglThroughput holds a Throughput line of the first releases; false if
// the line has another shape.
func (s *Scanner) sglThroughput(parts [][]byte, rest []byte) bool {
	p := sglPending{line: s.line, raw: string(bytes.TrimSpace(rest))}
	switch len(parts) {
	case 1:
		num, ok := offNum(parts[0], "tokens/s")
		if !ok {
			return false
		}
		p.num = string(num)
	case 3:
		_, v, ok := splitLabel(parts[2])
		if !ok || !bytes.HasPrefix(parts[0], []byte("BSZ ")) || !bytes.HasPrefix(parts[1], []byte("Num sequences ")) {
			return false
		}
		num, ok := offNum(v, "tokens/s")
		if !ok {
			return false
		}
		p.num, p.bsz = string(num), true
	default:
		return false
	}
	if s.off == nil {
		s.off = &offScan{}
	}
	o := s.off
	if len(o.sgl) == maxSGLPending {
		o.sgl = append(o.sgl[:0], o.sgl[1:]...)
	}
	o.sgl = append(o.sgl, p)
	return true
}

// sglResult reads the line that closes a run of the first releases (text,
// a line outside any block, starts with '{', '[' or 'N'); false if it does
// not.
func (s *Scanner) sglResult(text []byte) bool {
	o := s.off
	last := o.sgl[len(o.sgl)-1]
	text = bytes.TrimRight(text, " \t\r")
	var b *Block
	switch {
	case string(text) == "None" && !last.bsz:
		b = s.sglBlock(last.line, false)
		b.Labels = append(b.Labels, Label{Label: "Throughput", Value: last.raw, Line: last.line})
		s.sglMetric(b, "total_token_throughput", "", last.num, last.line)
		b.EndLine = s.line
		b.Labels = append(b.Labels, Label{Label: "result", Value: "None", Line: s.line})
	case text[0] == '{' && !last.bsz:
		kvs, rest, ok := pyDict(text)
		if !ok || len(rest) != 0 {
			return false
		}
		b = s.sglBlock(last.line, false)
		b.Labels = append(b.Labels, Label{Label: "Throughput", Value: last.raw, Line: last.line})
		b.EndLine = s.line
		if !s.sglDict(b, kvs, sglDictKeys) {
			return false
		}
	case text[0] == '[' && last.bsz:
		var dicts [][]pyKV
		rest := bytes.TrimSpace(text[1:])
		for len(rest) > 0 && rest[0] == '{' {
			kvs, r, ok := pyDict(rest)
			if !ok {
				return false
			}
			dicts = append(dicts, kvs)
			rest = bytes.TrimSpace(r)
			if len(rest) > 0 && rest[0] == ',' {
				rest = bytes.TrimSpace(rest[1:])
			}
		}
		if string(rest) != "]" || len(dicts) == 0 {
			return false
		}
		var blocks []*Block
		for i, kvs := range dicts {
			b := s.sglBlock(s.line, true)
			// The dicts are the runs of the last Throughput lines, in order.
			if j := len(o.sgl) - len(dicts) + i; j >= 0 {
				b.Labels = append(b.Labels, Label{Label: "Throughput", Value: o.sgl[j].raw, Line: o.sgl[j].line})
			}
			if !s.sglDict(b, kvs, sglListKeys) {
				return false
			}
			blocks = append(blocks, b)
		}
		o.sgl = o.sgl[:0]
		for _, b := range blocks {
			s.emit(b)
		}
		return true
	default:
		return false
	}
	o.sgl = o.sgl[:0]
	s.emit(b)
	return true
}

// sglDictKeys and sglListKeys map the keys of the printed dicts; the
// others are labels.
var (
	sglDictKeys = map[string]keySpec{
		"total_input_tokens":  {key: "total_input_tokens"},
		"total_output_tokens": {key: "total_output_tokens"},
		"total_latency":       {key: "duration", unit: "s"},
		"throughput":          {key: "total_token_throughput"},
	}
	sglListKeys = map[string]keySpec{
		"batch_size":    {key: "batch_size"},
		"input_len":     {key: "mean_input_len"},
		"total_latency": {key: "duration", unit: "s"},
	}
)

// sglBlock makes the block of a run from line to the current one.
func (s *Scanner) sglBlock(line int, first bool) *Block {
	b := &Block{File: s.name, Line: line, EndLine: s.line, Format: FormatSGLangOfflineLegacy, Tool: ToolSGLang,
		Definition: CountOverDuration, Version: "2024 before the banner (Throughput: tokens/s line)", Metrics: map[string]Metric{}}
	if first {
		b.Definition, b.Version = StaticBatch, "2024 first version (Throughput: BSZ lines)"
	}
	return b
}

// sglDict records the keys of a printed dict; false if it is not a run's
// (no total_latency).
func (s *Scanner) sglDict(b *Block, kvs []pyKV, keys map[string]keySpec) bool {
	found := false
	for _, kv := range kvs {
		b.Labels = append(b.Labels, Label{Label: kv.key, Value: kv.value, Line: s.line})
		spec, ok := keys[kv.key]
		if !ok {
			continue
		}
		found = found || kv.key == "total_latency"
		if kv.str {
			b.Problems = append(b.Problems, notNumber(s.name, s.line, kv.key, kv.value, spec.key))
			continue
		}
		s.sglMetric(b, spec.key, spec.unit, kv.value, s.line)
	}
	return found
}

func (s *Scanner) sglMetric(b *Block, key, unit, v string, line int) {
	if notFinite(key, v) {
		b.Problems = append(b.Problems, notFiniteProblem(s.name, line, key, v, key))
		return
	}
	m, ok := makeMetric(keySpec{key: key, unit: unit}, v, line)
	if !ok {
		b.Problems = append(b.Problems, notNumber(s.name, line, key, v, key))
		return
	}
	b.Metrics[key] = m
}

// pyKV is one entry of a Python dict repr.
type pyKV struct {
	key, value string
	str        bool // the value is a quoted string
}

// pyDict reads a Python dict repr of string keys and scalar values
// ("{'a': 1, 'b': 'x', 'c': None}") at the start of text and returns what
// follows it.
func pyDict(text []byte) (kvs []pyKV, rest []byte, ok bool) {
	if len(text) == 0 || text[0] != '{' {
		return nil, nil, false
	}
	p := bytes.TrimSpace(text[1:])
	if len(p) > 0 && p[0] == '}' {
		return nil, p[1:], true
	}
	for {
		key, r, ok := pyString(p)
		if !ok {
			return nil, nil, false
		}
		r = bytes.TrimSpace(r)
		if len(r) == 0 || r[0] != ':' {
			return nil, nil, false
		}
		r = bytes.TrimSpace(r[1:])
		kv := pyKV{key: key}
		if len(r) > 0 && (r[0] == '\'' || r[0] == '"') {
			kv.value, r, ok = pyString(r)
			if !ok {
				return nil, nil, false
			}
			kv.str = true
		} else {
			i := bytes.IndexAny(r, ",}")
			if i <= 0 {
				return nil, nil, false
			}
			kv.value, r = string(bytes.TrimSpace(r[:i])), r[i:]
		}
		kvs = append(kvs, kv)
		switch {
		case len(r) > 0 && r[0] == '}':
			return kvs, r[1:], true
		case len(r) > 0 && r[0] == ',':
			p = bytes.TrimSpace(r[1:])
		default:
			return nil, nil, false
		}
	}
}

// pyString reads a quoted Python string repr at the start of p.
func pyString(p []byte) (string, []byte, bool) {
	if len(p) < 2 || (p[0] != '\'' && p[0] != '"') {
		return "", nil, false
	}
	q := p[0]
	var b strings.Builder
	for i := 1; i < len(p); i++ {
		switch c := p[i]; {
		case c == '\\' && i+1 < len(p):
			i++
			b.WriteByte(p[i])
		case c == q:
			return b.String(), p[i+1:], true
		default:
			b.WriteByte(c)
		}
	}
	return "", nil, false
}
