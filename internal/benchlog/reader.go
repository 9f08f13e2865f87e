package benchlog

import (
	"bytes"
	"strings"
	"sync"
)

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

// A start opens a block at a line outside any block, or returns false;
// line is the raw line, text the line from its first non-blank byte
// (cleaned if it starts with '#', ESC or CR).
type start struct {
	// first are the bytes text may start with; with letters, any ASCII
	// letter, with high, any byte from 0x80; none of them: any byte.
	first         string
	letters, high bool
	open          func(s *Scanner, line, text []byte) bool
}

// consoleStarts are the console formats, tried in this order at a line
// outside any block (those whose first bytes match the line's); a line that
// none opens may still open a serving table without banner (noise).
func consoleStarts() []start {
	return []start{
		{first: "{[N", open: func(s *Scanner, _, text []byte) bool {
			return s.off != nil && len(s.off.sgl) > 0 && s.sglResult(text)
		}},
		{first: "|", high: true, open: func(s *Scanner, _, text []byte) bool { return s.aisStart(text) }},
		{first: "|", high: true, open: func(s *Scanner, _, text []byte) bool { return s.tableStart(text) }},
		{first: "|", open: func(s *Scanner, _, text []byte) bool { return s.guideRuleStart(text) }},
		{first: "|", high: true, open: func(s *Scanner, _, text []byte) bool { return s.evalHeaderStart(text) }},
		{first: "|bI", high: true, open: func(s *Scanner, _, text []byte) bool { return s.llamaStart(text) }},
		{first: "=", open: func(s *Scanner, _, text []byte) bool { return s.lmBanner(text) }},
		{first: "=", open: func(s *Scanner, _, text []byte) bool { return s.offlineBanner(text) }},
		{first: "=", open: func(s *Scanner, _, text []byte) bool { return s.benchStart(text) }},
		{first: "{", open: func(s *Scanner, _, text []byte) bool { return s.captureStart(text) }},
		{first: "[", open: func(s *Scanner, _, text []byte) bool { return s.legacyStart(text) }},
		{first: "b", open: func(s *Scanner, line, _ []byte) bool { return line[0] == 'b' && s.yamlStart(line) }},
		{first: `\Ri`, open: func(s *Scanner, _, text []byte) bool { return s.llmperfStart(text) }},
		{first: "BPOL=", open: func(s *Scanner, _, text []byte) bool { return s.evalStart(text) }},
		{first: "ct", open: func(s *Scanner, _, text []byte) bool { return s.lmStart(text) }},
		{first: "S", open: func(s *Scanner, _, text []byte) bool { return s.mtStart(text) }},
		{first: "POL=RtlpeM|", open: func(s *Scanner, _, text []byte) bool { return s.lrStart(text) }},
		{letters: true, high: true, open: func(s *Scanner, _, text []byte) bool { return s.guideStart(text) }},
		{first: "TBM", open: func(s *Scanner, _, text []byte) bool { return s.preLine(text) }},
		{open: func(s *Scanner, line, text []byte) bool {
			line = trimBlanksLeft(line)
			if !isLetter(text[0]) && line[0] != '#' {
				return false
			}
			kind, msg, ok := failureAt(line)
			if ok {
				s.emit(s.failureBlock(kind, msg))
			}
			return ok
		}},
		{letters: true, open: func(s *Scanner, line, text []byte) bool { return s.offStart(line, text) }},
		{open: func(s *Scanner, line, text []byte) bool {
			if (isLetter(text[0]) || trimBlanksLeft(line)[0] == 0x1b) && isTitle(line) {
				s.titleLine, s.title = s.line, string(bytes.TrimSpace(s.clean(line)))
			}
			return false // a title only
		}},
		{first: "-R", open: func(s *Scanner, _, text []byte) bool { return s.cutTopStart(text) }},
	}
}

// startIndex returns, for each first byte of a line's text, the starts to
// try. It is built on first use: its starts lead back to Scanner.Scan, so
// that a package variable could not be initialised with it.
func startIndex() *[256][]*start {
	startsOnce.Do(func() {
		starts := consoleStarts()
		for c := range 256 {
			for i := range starts {
				st := &starts[i]
				all := st.first == "" && !st.letters && !st.high
				if all || strings.IndexByte(st.first, byte(c)) >= 0 || st.letters && isLetter(byte(c)) || st.high && c >= 0x80 {
					startsAt[c] = append(startsAt[c], st)
				}
			}
		}
	})
	return &startsAt
}

var (
	startsOnce sync.Once
	startsAt   [256][]*start
)

// noise reads a line outside any block: it may open the block of a
// console format (starts), or a serving table without banner. The common
// case, a log line, costs a few looks at its first bytes and a search for
// ':'.
func (s *Scanner) noise(line []byte) {
	if len(s.linePrefix) > 0 {
		// The log's prefix, learnt from the last block: the line is read
		// without it, as it would be without the log.
		if rest := stripLike(line, s.linePrefix); len(rest) < len(line) {
			s.cand = append(s.cand[:0], s.linePrefix...)
			s.noiseUnder(rest, s.cand)
			return
		}
	}
	if s.noiseAt(line) {
		return
	}
	if len(s.prev) == 0 || !s.noisePrefixed(line) {
		s.idle = true
	}
}

// noiseAt is noise without the retry: it reports whether the line opened
// a block (or was a failure, or a held line).
func (s *Scanner) noiseAt(line []byte) bool {
	i := 0
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	if i == len(line) {
		return false
	}
	text := line[i:]
	c := text[0]
	if c == '#' || c == 0x1b || c == '\r' {
		text = s.clean(line)
		if len(text) == 0 {
			return false
		}
		c = text[0]
	}
	for _, st := range s.starts[c] {
		if st.open(s, line, text) {
			return true
		}
	}
	// Only a line with a colon can start a block.
	if bytes.IndexByte(line, ':') < 0 {
		return false
	}
	label, value, ok := splitLabel(s.clean(line))
	if ok && (isStartLabel(label) || isCutStartLabel(label)) {
		cut := !isStartLabel(label)
		s.begin(false)
		s.marks.cutTop = cut
		s.add(label, value)
		return true
	}
	return false
}
