package benchlog

import (
	"bufio"
	"bytes"
	"io"
	"strconv"
)

// inputKind is what a Scanner reads, chosen from the first bytes.
type inputKind int

const (
	inputText inputKind = iota
	inputJSON
	inputCSV
	inputFWCSV // llm_bench's --summary-file (fwcsv.go)
	inputLMCSV // LMDeploy's result CSV files (lmcsv.go)
)

var bom = []byte("\xef\xbb\xbf")

// sniff chooses the reader from the first bytes of the input, without
// consuming them: '{' followed by '"' or '}', or '[' followed by '{' or ']',
// is JSON; a first line (blank and "#" lines skipped) starting with
// "Metric," or "Statistic," is a GenAI-Perf/AIPerf CSV export; anything else
// is a console log. A log line that starts with "[2024-..." or a Python dict
// "{'a': 1}" stays text.
func sniff(r *bufio.Reader) inputKind {
	buf, _ := r.Peek(4096)
	buf = bytes.TrimPrefix(buf, bom)
	i := skipSpace(buf, 0)
	if i < len(buf) {
		j := skipSpace(buf, i+1)
		switch buf[i] {
		case '{':
			if j == len(buf) || buf[j] == '"' || buf[j] == '}' {
				return inputJSON
			}
		case '[':
			if j < len(buf) && (buf[j] == '{' || buf[j] == ']') {
				return inputJSON
			}
		}
	}
	if looksBenchReportYAML(buf) {
		return inputBenchReportYAML
	}
	for len(buf) > 0 {
		line := buf
		if k := bytes.IndexByte(buf, '\n'); k >= 0 {
			line, buf = buf[:k], buf[k+1:]
		} else {
			buf = nil
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		if hasPrefixFold(line, "metric,") || hasPrefixFold(line, "statistic,") {
			return inputCSV
		}
		if isFWSummaryCSV(line) {
			return inputFWCSV
		}
		if isLMDeployCSV(line) {
			return inputLMCSV
		}
		break
	}
	return inputText
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	return i
}

func hasPrefixFold(b []byte, prefix string) bool {
	return len(b) >= len(prefix) && bytes.EqualFold(b[:len(prefix)], []byte(prefix))
}

// jsonReader passes JSON through, rewriting the bare tokens Python writes
// for non-finite floats (Infinity, -Infinity, NaN: SGLang --output-file)
// and those of C's printf (-nan, inf, -inf: llama-bench) into strings, and
// records where its newlines are so that a decoder offset can be turned
// into a line. Newline offsets are kept only until they are counted: memory
// is bounded by what the decoder holds, not by the input.
type jsonReader struct {
	r       io.Reader
	raw     []byte
	buf     []byte // backing array of pending
	pending []byte
	out     int64   // bytes handed out so far
	emitted int64   // bytes put into pending so far (out + len(pending) - taken)
	nl      []int64 // offsets of newlines not yet counted
	head    int
	lines   int // newlines counted
	inStr   bool
	esc     bool
	word    bool // inside a bare word being quoted
	minus   bool // a '-' held back: "-Infinity" must be quoted before it
	err     error
}

func newJSONReader(r io.Reader) *jsonReader {
	return &jsonReader{r: r, raw: make([]byte, 32<<10), buf: make([]byte, 0, 40<<10)}
}

func (t *jsonReader) Read(p []byte) (int, error) {
	for len(t.pending) == 0 {
		if t.err != nil {
			return 0, t.err
		}
		n, err := t.r.Read(t.raw)
		t.transform(t.raw[:n])
		if err != nil {
			t.err = err
			if t.word {
				t.put('"')
				t.word = false
			}
			if t.minus {
				t.put('-')
				t.minus = false
			}
		}
	}
	n := copy(p, t.pending)
	t.pending = t.pending[n:]
	t.out += int64(n)
	return n, nil
}

func (t *jsonReader) put(c ...byte) {
	if len(t.pending) == 0 {
		t.pending = t.buf[:0]
	}
	t.pending = append(t.pending, c...)
	t.emitted += int64(len(c))
}

// transform appends raw to pending, quoting bare words.
func (t *jsonReader) transform(raw []byte) {
	if len(t.pending) == 0 {
		t.pending = t.buf[:0]
	}
	last := 0
	flush := func(i int) {
		t.pending = append(t.pending, raw[last:i]...)
		t.emitted += int64(i - last)
		last = i
	}
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if c == '\n' {
			t.nl = append(t.nl, t.emitted+int64(i-last))
		}
		if t.inStr {
			switch {
			case t.esc:
				t.esc = false
			case c == '\\':
				t.esc = true
			case c == '"':
				t.inStr = false
			}
			continue
		}
		if t.word {
			if isLetter(c) {
				continue
			}
			flush(i)
			t.put('"')
			t.word = false
		}
		if t.minus {
			t.minus = false
			last = i
			if c == 'I' || c == 'i' || c == 'n' {
				t.put('"', '-')
				t.word = true
				continue
			}
			t.put('-')
		}
		switch c {
		case '"':
			t.inStr = true
		case '-':
			flush(i)
			t.minus = true
			last = i + 1
		case 'I', 'N', 'i':
			flush(i)
			t.put('"')
			t.word = true
		}
	}
	if !t.minus {
		flush(len(raw))
	}
}

// lineAt returns the 1-based line of an offset of the passed-through stream.
// Offsets must not decrease from one call to the next.
func (t *jsonReader) lineAt(off int64) int {
	for t.head < len(t.nl) && t.nl[t.head] < off {
		t.head++
		t.lines++
	}
	if t.head > 1024 && t.head*2 > len(t.nl) {
		t.nl = append(t.nl[:0], t.nl[t.head:]...)
		t.head = 0
	}
	return t.lines + 1
}

// floatArray reads a JSON array of numbers ("[0.1, 2, 3e-5]", or null)
// from raw, which holds exactly one JSON value. ok is false if an element
// is not a number (a string "NaN", an object). Reading the bytes directly
// is several times faster than decoding through reflection.
func floatArray(raw []byte) (v []float64, ok bool) {
	raw = bytes.TrimSpace(raw)
	if string(raw) == "null" {
		return nil, true
	}
	v, n, ok := floatsAt(raw, 0, nil)
	if !ok || skipSpace(raw, n) != len(raw) {
		return nil, false
	}
	return v, true
}

// floatArrays reads a JSON array of arrays of numbers (itls).
func floatArrays(raw []byte) (v [][]float64, ok bool) {
	raw = bytes.TrimSpace(raw)
	if string(raw) == "null" {
		return nil, true
	}
	if len(raw) < 2 || raw[0] != '[' {
		return nil, false
	}
	i := skipSpace(raw, 1)
	if i < len(raw) && raw[i] == ']' {
		if skipSpace(raw, i+1) != len(raw) {
			return nil, false
		}
		return [][]float64{}, true
	}
	for {
		var a []float64
		a, i, ok = floatsAt(raw, i, nil)
		if !ok {
			return nil, false
		}
		v = append(v, a)
		i = skipSpace(raw, i)
		if i >= len(raw) {
			return nil, false
		}
		switch raw[i] {
		case ',':
			i = skipSpace(raw, i+1)
		case ']':
			if skipSpace(raw, i+1) != len(raw) {
				return nil, false
			}
			return v, true
		default:
			return nil, false
		}
	}
}

// floatsAt reads the array of numbers that starts at raw[i] and returns the
// index after its ']'.
func floatsAt(raw []byte, i int, dst []float64) ([]float64, int, bool) {
	if i >= len(raw) || raw[i] != '[' {
		return nil, i, false
	}
	i = skipSpace(raw, i+1)
	if i < len(raw) && raw[i] == ']' {
		return []float64{}, i + 1, true
	}
	for {
		j := i
		for j < len(raw) && (raw[j] >= '0' && raw[j] <= '9' || raw[j] == '-' || raw[j] == '+' || raw[j] == '.' || raw[j] == 'e' || raw[j] == 'E') {
			j++
		}
		f, err := strconv.ParseFloat(string(raw[i:j]), 64)
		if err != nil {
			return nil, j, false
		}
		dst = append(dst, f)
		i = skipSpace(raw, j)
		if i >= len(raw) {
			return nil, i, false
		}
		switch raw[i] {
		case ',':
			i = skipSpace(raw, i+1)
		case ']':
			return dst, i + 1, true
		default:
			return nil, i, false
		}
	}
}
