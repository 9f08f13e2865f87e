package benchlog

import "bytes"

// A reader reads the block of one console format, from the line that
// opened it (see starts) to its end; the Scanner holds at most one open.
type reader interface {
	// line reads one line of the block; false if the line is not part of
	// it, after the reader ended the block: the line is then read as any
	// other.
	line(s *Scanner, line []byte) bool
	// end ends the block at the end of the input or at a line that cannot
	// be part of it (an over-long line, a banner).
	end(s *Scanner)
}

// open returns the open reader if it is a T, else nil.
func open[T reader](s *Scanner) T {
	r, _ := s.rd.(T)
	return r
}

func (t *tableState) line(s *Scanner, line []byte) bool { return s.tableLine(line) }
func (t *tableState) end(s *Scanner)                    { s.tableEnd(!t.closed) }

func (t *benchState) line(s *Scanner, line []byte) bool { return s.benchLine(line) }
func (t *benchState) end(s *Scanner)                    { s.benchEnd(!t.afterRule) }

func (g *guideState) line(s *Scanner, line []byte) bool { return s.guideLine(line) }
func (g *guideState) end(s *Scanner)                    { s.guideEnd() }

func (y *guideYAML) line(s *Scanner, line []byte) bool { return s.yamlLine(line) }
func (y *guideYAML) end(s *Scanner)                    { s.yamlEnd() }

func (p *llmperfSum) line(s *Scanner, line []byte) bool { return s.llmperfLine(line) }
func (p *llmperfSum) end(s *Scanner)                    { s.llmperfEnd() }

func (e *evalState) line(s *Scanner, line []byte) bool { return s.evalLine(line) }
func (e *evalState) end(s *Scanner)                    { s.evalEnd() }

func (l *lmState) line(s *Scanner, line []byte) bool { return s.lmLine(line) }
func (l *lmState) end(s *Scanner)                    { s.lmEnd() }

func (m *multiTurn) line(s *Scanner, line []byte) bool { return s.mtLine(line) }
func (m *multiTurn) end(s *Scanner)                    { s.mtEnd(true) }

// lineBlock is the reader of an open lineReader block, which reads its
// lines cleaned.
type lineBlock struct{ r lineReader }

func (b *lineBlock) line(s *Scanner, line []byte) bool {
	return b.r.line(s, bytes.TrimSpace(s.clean(line)))
}
func (b *lineBlock) end(s *Scanner) { s.lrEnd() }
