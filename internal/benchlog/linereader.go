package benchlog

import "bytes"

// A lineReader reads a block made of "label: value" lines that a tool
// prints one after another (openvino.go, fireworks.go): one file and one
// golden per layout, behind these three calls.
type lineReader interface {
	// line reads one line of the block (text is cleaned); false if the
	// line is not part of it, after the block was ended.
	line(s *Scanner, text []byte) bool
	// end queues the block if it holds a result.
	end(s *Scanner)
}

// lineReaderStarts open a block at its first line, or return nil.
var lineReaderStarts = []func(s *Scanner, text []byte) lineReader{
	ovStart,
	fwStart,
	paStart,
	olStart,
	lgStart,
	tgiStart,
}

// lrStart opens a block of a lineReader at a line outside any block.
func (s *Scanner) lrStart(text []byte) bool {
	text = bytes.TrimSpace(text)
	if len(text) == 0 {
		return false
	}
	for _, start := range lineReaderStarts {
		if r := start(s, text); r != nil {
			s.rd = &lineBlock{r}
			return r.line(s, text)
		}
	}
	return false
}

// lrEnd ends the open block.
func (s *Scanner) lrEnd() {
	r := open[*lineBlock](s).r
	s.rd = nil
	r.end(s)
}
