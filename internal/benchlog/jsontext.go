package benchlog

import "bytes"

// A JSON result pasted into a console log or a Markdown report (a
// --save-result object, SGLang JSON lines): a line starting with `{"`, or a
// line of only "{", opens a capture that ends when its braces balance; the
// captured text is read by the JSON reader and its result objects become
// blocks at their own lines. Other JSON (a config dump) gives no block. A
// capture is dropped, and the line read as any other, at a line that cannot
// continue JSON (a log line), an over-long line, or past maxCaptureBytes.

const maxCaptureBytes = 16 << 20

type jsonCapture struct {
	buf   []byte
	start int // line of the capture's first line
	depth int
	inStr bool
	esc   bool
}

// captureStart opens a capture at a line starting with `{"`.
func (s *Scanner) captureStart(text []byte) bool {
	if !bytes.HasPrefix(text, []byte(`{"`)) && string(bytes.TrimRight(text, " \t\r")) != "{" {
		return false
	}
	s.jc = &jsonCapture{start: s.line}
	return s.captureLine(text, false)
}

// captureLine adds one line to the capture; false if the line ended it
// without being part of it (the line is then read as any other).
func (s *Scanner) captureLine(line []byte, long bool) bool {
	c := s.jc
	if long || len(c.buf)+len(line) > maxCaptureBytes || !jsonContinues(line) {
		s.jc = nil
		return false
	}
	c.buf = append(append(c.buf, line...), '\n')
	for _, b := range line {
		switch {
		case c.inStr:
			switch {
			case c.esc:
				c.esc = false
			case b == '\\':
				c.esc = true
			case b == '"':
				c.inStr = false
			}
		case b == '"':
			c.inStr = true
		case b == '{' || b == '[':
			c.depth++
		case b == '}' || b == ']':
			c.depth--
		}
	}
	switch {
	case c.depth < 0:
		s.jc = nil
	case c.depth == 0:
		s.captureEnd()
	}
	return true
}

// captureEnd reads the captured JSON and queues its result blocks.
func (s *Scanner) captureEnd() {
	c := s.jc
	s.jc = nil
	sub := NewScanner(s.name, bytes.NewReader(c.buf))
	sub.started, sub.input = true, inputJSON
	for sub.Scan() {
		b := sub.Block()
		shiftLines(b, c.start-1)
		s.emit(b)
	}
}

// shiftLines moves a block read from a part of the input to its lines.
func shiftLines(b *Block, d int) {
	b.Line += d
	b.EndLine += d
	for k, m := range b.Metrics {
		m.Line += d
		b.Metrics[k] = m
	}
	for i := range b.Labels {
		b.Labels[i].Line += d
	}
	for _, p := range b.Problems {
		p.Line += d
	}
}

// jsonContinues reports whether a line may be part of a JSON value: blank,
// or starting with a string, a bracket, a comma, a number or a literal.
func jsonContinues(line []byte) bool {
	t := bytes.TrimLeft(line, " \t")
	return len(t) == 0 || bytes.IndexByte([]byte(`"{}[],-0123456789tfnIN`+"\r"), t[0]) >= 0
}
