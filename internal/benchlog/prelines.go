package benchlog

import "bytes"

// vLLM's benchmark_serving.py (v0.6.4 on, and `vllm bench serve`) and the
// copies of it in TensorRT-LLM print the load it was given before the run,
// outside the result table:
//
//	Traffic request rate: 32.0
//	Burstiness factor: 1.0 (Poisson process)
//	Maximum request concurrency: None
//
// (vLLM v0.4 to v0.6.3: the first line only; some 2025 builds: "Traffic
// request rate: 15.0 RPS."). The serving table that follows within
// preWindow lines (a progress bar, a tip stand between) gets request_rate,
// burstiness and max_concurrency from them when it does not print them
// itself, and starts at the first of them. "inf" and "None" give no metric:
// no limit.

// preWindow is how far before a table's first line its load lines may be.
const preWindow = 8

// preLines are the load lines read since the last serving table.
type preLines struct {
	lines [3]Label // by index of preKeys; Line 0 if not seen
}

var preKeys = [3]struct{ label, key string }{
	{"Traffic request rate", "request_rate"},
	{"Burstiness factor", "burstiness"},
	{"Maximum request concurrency", "max_concurrency"},
}

// preLine records text if it is one of the load lines.
func (s *Scanner) preLine(text []byte) bool {
	for i, k := range preKeys {
		rest, ok := bytes.CutPrefix(text, []byte(k.label))
		if !ok || len(rest) < 2 || rest[0] != ':' || (rest[1] != ' ' && rest[1] != '\t') {
			continue
		}
		if i == 0 {
			s.pre = preLines{} // a new run
		}
		s.pre.lines[i] = Label{Label: k.label, Value: string(bytes.TrimSpace(rest[1:])), Line: s.line}
		return true
	}
	return false
}

// addPreLines gives b the load lines read before it, for the keys it lacks,
// and forgets them.
func (s *Scanner) addPreLines(b *Block) {
	var pre []Label
	for i, l := range s.pre.lines {
		key := preKeys[i].key
		if l.Line == 0 || b.Metrics == nil || b.Line-l.Line > preWindow {
			continue
		}
		if _, ok := b.Metrics[key]; ok {
			continue
		}
		pre = append(pre, l)
		// The value's first word: "15.0 RPS." reads as 15.0, "1.0 (Poisson process)" as 1.0.
		v, _, _ := bytes.Cut([]byte(l.Value), []byte(" "))
		if isNullValue(v) {
			continue
		}
		if m, ok := metricBytes(keySpec{key: key}, v, l.Line); ok {
			m.Raw = l.Value
			b.Metrics[key] = m
		}
	}
	s.pre = preLines{}
	if len(pre) > 0 {
		b.Labels = append(pre, b.Labels...)
		b.Line = pre[0].Line
	}
}
