package benchlog

// A log prefix perflab does not know by name (a logger's "[2025-06-01
// 10:00:00 TP0] ", pytest's "INFO     root:test_bench.py:41 ", a job
// runner's tag) stands before every line of a result without banner, as it
// does before a bannered one. A bannered table learns it from what stood
// before its banner (serving.go); a table without banner learns it here,
// from the line before: a line that opens nothing is tried again without
// the start it shares in shape with the previous line (digits match any
// digits, the shared part ends at a separator: see sharedPrefix). When that
// opens a block, the shared part becomes the block's linePrefix, which
// every later line of the block loses in clean.

const (
	// maxPrefixTries bounds the shorter prefixes tried when the longest
	// shared one cut into the text (two lines that also share their first
	// words).
	maxPrefixTries = 3
	// maxLogPrefix is the longest log prefix looked for: lines that share
	// more than that share their text (a logger repeating one message),
	// and are not tried again.
	maxLogPrefix = 96
)

// maxPrevLine is the longest previous line kept whole, to be read again
// (a start line and its log prefix, or a table's first row: a GenAI-Perf
// row of box drawing is 150 bytes before its prefix; longer lines cost a
// copy each).
const maxPrevLine = 320

// notePrev keeps line as the previous line, for noisePrefixed; idle says
// that it was read as noise and opened nothing.
func (s *Scanner) notePrev(line []byte, idle bool) {
	s.prev = append(s.prev[:0], line[:min(len(line), maxPrevLine)]...)
	s.prevIdle = idle && len(line) <= maxPrevLine
}

// noisePrefixed retries a line that opened nothing without the prefix it
// shares with the line before; it reports whether a block opened.
func (s *Scanner) noisePrefixed(line []byte) bool {
	if _, j := matchShape(line, s.prev); j > maxLogPrefix {
		return false // the same message again
	}
	j := sharedPrefix(line, s.prev)
	if j < 2 {
		return false
	}
	for range maxPrefixTries {
		cand := s.prev[:j]
		i, _ := matchShape(line, cand)
		rest := line[i:]
		if len(rest) == 0 || !mayStart(trimBlanksLeft(rest)) {
			goto shorter
		}
		// The line before, which carries the prefix too, may open the
		// block (SGLang's "Warmup ...", a table's first row): it is read
		// again first, at its own line.
		if s.prevIdle && len(s.prev) > j {
			s.line--
			opened := s.noiseUnder(s.prev[j:], cand)
			s.line++
			if opened {
				s.prevIdle = false // read: not to be read again under a shorter prefix
			}
			if opened && s.opened() {
				s.processLine(line, false, false)
				return true
			}
		}
		if s.noiseUnder(rest, cand) {
			return true
		}
	shorter:
		// The next shorter prefix: back to the separator before whose
		// rest starts with a non-blank, so that a table's padding, or the
		// " | " before a row, is not tried blank by blank.
		j--
		for j > 0 && (!isSeparator(s.prev[j-1]) || s.prev[j] == ' ' || s.prev[j] == '\t') {
			j--
		}
		if j < 2 {
			break
		}
	}
	return false
}

// noiseUnder reads rest, a line without its log prefix, as noise under
// that prefix; it reports whether a block opened.
// prefix must not share memory with s.linePrefix.
func (s *Scanner) noiseUnder(rest, prefix []byte) bool {
	s.saved = append(s.saved[:0], s.linePrefix...)
	s.linePrefix = append(s.linePrefix[:0], prefix...)
	if !s.noiseAt(rest) {
		s.linePrefix = append(s.linePrefix[:0], s.saved...)
		return false
	}
	if s.opened() {
		// begin (serving.go) clears it: set it again.
		s.linePrefix = append(s.linePrefix[:0], prefix...)
	}
	return true
}

// mayStart says whether a line's text can open a block at all: its first
// byte is one a start of reader.go or a table label begins with.
func mayStart(text []byte) bool {
	if len(text) == 0 {
		return false
	}
	c := text[0]
	return isLetter(c) || c >= 0x80 || c == '|' || c == '=' || c == '*' || c == '-' || c == '[' || c == '\\' || c == '#' || c == 0x1b
}

func isSeparator(c byte) bool {
	return c == ' ' || c == '\t' || c == ':' || c == '|' || c == ']' || c == '-'
}

// opened reports whether a block of any reader is open.
func (s *Scanner) opened() bool {
	return s.cur != nil || s.rd != nil || s.off != nil && s.off.blk != nil || s.lb != nil || s.jc != nil
}
