package benchlog

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
)

// bannerText is searched for anywhere in a line: the banner may be glued to
// the end of a progress bar that was not newline-terminated.
const bannerText = "Serving Benchmark Result"

var banner = []byte(bannerText)

const (
	// readBufSize bounds the memory a line may take. Longer lines (a
	// Namespace(...) dump, a progress bar redrawn with \r) are still searched
	// for the banner, chunk by chunk, but are otherwise skipped.
	readBufSize = 64 << 10
	// maxBlockLines ends a block that never closes (read as truncated).
	maxBlockLines = 2000
	// maxStartLabel is the longest label that can start a block without banner.
	maxStartLabel = 32
	// maxFailures bounds the failed-run records Parse keeps.
	maxFailures = 100
)

// Scanner reads result blocks from a log one at a time, like bufio.Scanner:
//
//	sc := benchlog.NewScanner(name, r)
//	for sc.Scan() {
//		b := sc.Block()
//		...
//	}
//	if err := sc.Err(); err != nil { ... }
//
// It reads line by line with a fixed-size buffer, so memory does not grow
// with the input: only the block being read is kept.
//
// The input's first bytes choose its reader (see the package documentation):
// JSON objects, a CSV export, or a console log. In a console log, tables of
// GenAI-Perf/AIPerf, trtllm-bench reports, the lines of the offline
// benchmarks (offline.go) and failed runs are read besides the serving-table
// family (serving.go).
type Scanner struct {
	name string
	r    *bufio.Reader
	line int // lines read so far
	eof  bool
	err  error

	blk  *Block   // returned by Block
	outq []*Block // finished, not yet returned

	started bool
	input   inputKind
	js      *jsonScan      // input JSON: the decoder
	rd      reader         // the console format whose block is open (reader.go)
	starts  *[256][]*start // startIndex
	jc      *jsonCapture   // a JSON object pasted into a log being read
	lb      *llamaState    // a llama-bench markdown table or CSV being read
	off     *offScan       // offline and latency benchmarks (offline.go)
	pend    *Block         // a closed serving block held for a correct_rate line (structured.go)
	// titleLine is the line of the last possible table title, title its text.
	titleLine int
	title     string

	pre preLines // load lines printed before a serving table (prelines.go)

	serving  // the serving table being read (serving.go)
	prefixes // the prefixes of the current line (prefix.go)

	prev []byte // the previous line, for a prefix shared with it (logprefix.go)
	cand []byte // the prefix a line is read under (logprefix.go)
	// idle: the current line was read as noise and opened nothing;
	// prevIdle: so was the previous one, kept whole in prev.
	idle, prevIdle bool
	saved          []byte // linePrefix while another is tried

	scratch []byte // ANSI-stripped line
	tail    []byte // end of the previous chunk of an over-long line
	join    []byte
}

// NewScanner returns a Scanner reading r; name is the file name used in
// blocks and errors.
func NewScanner(name string, r io.Reader) *Scanner {
	size := readBufSize
	// A small in-memory log needs no 64 KiB buffer: loading thousands of
	// them would spend more time clearing buffers than parsing.
	if l, ok := r.(interface{ Len() int }); ok && l.Len() < size {
		size = max(l.Len()+1, 16)
	}
	return &Scanner{name: name, r: bufio.NewReaderSize(r, size), starts: startIndex(), prefixes: prefixes{nextNum: 1}}
}

// Scan reads up to the next block and reports whether there is one.
func (s *Scanner) Scan() bool {
	if !s.started {
		s.started = true
		s.input = sniff(s.r)
	}
	for len(s.outq) == 0 {
		if s.eof {
			return false
		}
		switch s.input {
		case inputJSON:
			s.scanJSON()
			continue
		case inputCSV:
			s.scanCSV()
			continue
		case inputFWCSV:
			s.scanFWCSV()
			continue
		case inputLMCSV:
			s.scanLMCSV()
			continue
		case inputBenchReportYAML:
			s.scanBenchReportYAML()
			continue
		}
		line, long, hasBanner, err := s.readLine()
		if err != nil {
			if err != io.EOF {
				s.err = fmt.Errorf("%s:%d: %w", s.name, s.line+1, err)
			}
			s.eof = true
			s.endOther()
			if s.cur != nil {
				s.end(true)
			}
			s.release()
			continue
		}
		if !long {
			// A CRLF file reads as the same file with LF ends.
			if n := len(line); n > 0 && line[n-1] == '\r' {
				line = line[:n-1]
			}
			line = s.stripPrefixes(line)
			if s.grepSwitch {
				s.grepSwitch = false
				s.endStream()
			}
			if parts := splitRunTogether(line); parts != nil {
				for _, p := range parts {
					s.process(p, false, false)
				}
				continue
			}
			if s.service != nil {
				if s.otherService() {
					continue
				}
				wasReading := s.reading()
				s.process(line, long, hasBanner)
				s.noteService(wasReading)
				continue
			}
		}
		s.process(line, long, hasBanner)
	}
	s.blk = s.outq[0]
	s.outq[0] = nil
	s.outq = s.outq[1:]
	return true
}

// emit queues a finished block for Scan.
// A block held for a correct_rate line (structured.go) goes first.
func (s *Scanner) emit(b *Block) {
	s.release()
	s.outq = append(s.outq, b)
}

// endOther ends a table, trtllm-bench report or offline block at the end of
// the input or at a line that cannot be part of it.
func (s *Scanner) endOther() {
	s.llamaEnd()
	s.offEnd()
	if s.rd != nil {
		s.rd.end(s)
	}
}

// Block returns the block read by the last call to Scan. Each call to Scan
// makes a new Block, which the caller may keep.
func (s *Scanner) Block() *Block { return s.blk }

// Err returns the first read error; nil at the end of the input.
func (s *Scanner) Err() error { return s.err }

// Parse reads every block of r, whatever its format (see the package
// documentation): the result blocks in order; if there is none, the failed
// runs (blocks of Format FormatError). It fails only on a read error or when
// r has neither a result block nor a failed run.
func Parse(name string, r io.Reader) ([]Block, error) {
	var blocks []Block
	err := Each(name, r, func(b *Block) error {
		blocks = append(blocks, *b)
		return nil
	})
	return blocks, err
}

// Each is Parse handing each block to fn as soon as it is read, so that
// memory does not grow with the input: the result blocks in order, or, if
// there is none, the failed runs. An error from fn stops the reading.
func Each(name string, r io.Reader, fn func(*Block) error) error {
	head := &headKeeper{r: &lineEnds{r: r}}
	sc := NewScanner(name, head)
	var failures []*Block
	results := 0
	for sc.Scan() {
		b := sc.Block()
		if b.Format != FormatError {
			results++
			if err := fn(b); err != nil {
				return err
			}
			continue
		}
		if results > 0 {
			continue
		}
		// A server log may hold thousands of exceptions: keep the first
		// ones and the last, the one that usually ended the run.
		if len(failures) < maxFailures {
			failures = append(failures, b)
		} else {
			failures[maxFailures-1] = b
		}
	}
	if results == 0 {
		for _, b := range failures {
			if err := fn(b); err != nil {
				return err
			}
		}
	}
	if err := sc.Err(); errors.Is(err, errCROnly) {
		return &SyntaxError{File: name, Line: 1, Msg: crOnlyMessage}
	} else if err != nil {
		return err
	}
	if results == 0 && len(failures) == 0 {
		msg, line := noResultMessage(name, head.head)
		switch sc.input {
		case inputJSON:
			msg = "no benchmark result found: no JSON object with the keys of a vLLM --save-result, SGLang --output-file or trtllm-bench --report_json result (duration, completed, request_throughput ...)"
		case inputCSV:
			msg = "no benchmark result found: no Metric row of a GenAI-Perf or AIPerf CSV export"
		case inputFWCSV:
			msg = "no benchmark result found: no row with a Total Latency under the header of an llm_bench --summary-file"
		case inputLMCSV:
			msg = "no benchmark result found: no row with a value under the header of an LMDeploy result CSV"
		}
		return &SyntaxError{File: name, Line: line, Msg: msg}
	}
	return nil
}

// readLine returns the next line without its end. A line longer than the
// read buffer is returned as long, with no text, and whether it holds the
// banner. The returned line is valid until the next call.
func (s *Scanner) readLine() (line []byte, long, hasBanner bool, err error) {
	line, err = s.r.ReadSlice('\n')
	if err == nil || (err == io.EOF && len(line) > 0) {
		s.line++
		if n := len(line); n > 0 && line[n-1] == '\n' {
			line = line[:n-1]
		}
		return line, false, false, nil
	}
	if err != bufio.ErrBufferFull {
		return nil, false, false, err
	}
	s.line++
	k := len(banner) - 1
	hasBanner = bytes.Contains(line, banner)
	s.tail = append(s.tail[:0], line[len(line)-k:]...)
	for err == bufio.ErrBufferFull {
		line, err = s.r.ReadSlice('\n')
		if !hasBanner {
			// The banner may straddle two chunks.
			s.join = append(append(s.join[:0], s.tail...), line[:min(len(line), k)]...)
			hasBanner = bytes.Contains(s.join, banner) || bytes.Contains(line, banner)
		}
		if len(line) >= k {
			s.tail = append(s.tail[:0], line[len(line)-k:]...)
		} else {
			s.tail = append(s.tail, line...)
			s.tail = s.tail[len(s.tail)-min(len(s.tail), k):]
		}
	}
	if err == io.EOF {
		err = nil // the next read reports it
	}
	return nil, true, hasBanner, err
}

// process handles one line, and keeps it as the previous line.
func (s *Scanner) process(line []byte, long, hasBanner bool) {
	s.idle = false
	s.processLine(line, long, hasBanner)
	if long {
		s.prev, s.prevIdle = s.prev[:0], false
	} else {
		s.notePrev(line, s.idle)
	}
}

func (s *Scanner) processLine(line []byte, long, hasBanner bool) {
	if !long && !hasBanner {
		hasBanner = bytes.Contains(line, banner)
	}
	if s.pend != nil && s.pendLine(line, long) {
		return
	}
	if s.jc != nil && s.captureLine(line, long) {
		return
	}
	if s.lb != nil && s.llamaLine(line, long) {
		return
	}
	if s.off != nil && s.off.blk != nil && s.offLine(line, long) {
		return
	}
	if s.rd != nil {
		switch {
		case long && open[*guideYAML](s) != nil:
			return // a long value (a prompt) of a YAML report
		case long || hasBanner:
			s.endOther()
		case s.rd.line(s, line):
			return
		}
	}
	s.serve(line, long, hasBanner)
}

// clean normalises a line: CR and what a carriage return overwrote, ANSI
// colour codes, indentation, trailing blanks and "# " prefixes go. The result
// is valid until the next call.
func (s *Scanner) clean(line []byte) []byte {
	n := len(line)
	for n > 0 && (line[n-1] == ' ' || line[n-1] == '\t' || line[n-1] == '\r') {
		n--
	}
	line = line[:n]
	if bytes.IndexByte(line, '\r') >= 0 {
		line = line[bytes.LastIndexByte(line, '\r')+1:]
	}
	if bytes.IndexByte(line, 0x1b) >= 0 {
		s.scratch = stripANSI(s.scratch[:0], line)
		line = bytes.TrimRight(s.scratch, " \t")
	}
	if len(s.bannerHead) > 0 && len(line) > 0 {
		s.linePrefix = append(s.linePrefix[:0], s.bannerHead[:sharedPrefix(line, s.bannerHead)]...)
		s.bannerHead = s.bannerHead[:0]
	}
	if len(s.linePrefix) > 0 {
		line = stripLike(line, s.linePrefix)
	}
	line = trimBlanksLeft(line)
	for len(line) > 0 && line[0] == '#' {
		line = trimBlanksLeft(line[1:])
	}
	return line
}

// stripLike removes from line a prefix of the same shape as prefix: the same
// bytes, except that a run of digits matches any run of digits, so that the
// timestamps and line numbers of one log match each other. A line that does
// not start so is returned whole.
func stripLike(line, prefix []byte) []byte {
	i, j := matchShape(line, prefix)
	if j < len(prefix) {
		// A blank line of the log keeps its prefix without the blank
		// after it (trailing blanks were trimmed).
		if i == len(line) && i > 0 && len(bytes.TrimRight(prefix[j:], " \t")) == 0 {
			return line[i:]
		}
		return line
	}
	return line[i:]
}

// sharedPrefix is the length of the longest start of head that line starts
// with (in shape, see stripLike) and that ends after a separator (a blank,
// ':', '|', ']' or '-'), so that a prefix never cuts a word: the banner of
// "[rank0]: 100%|██| ...====" and the line "[rank0]: Successful requests:"
// share "[rank0]: ".
func sharedPrefix(line, head []byte) int {
	_, j := matchShape(line, head)
	for j > 0 && strings.IndexByte(" \t:|]-", head[j-1]) < 0 {
		j--
	}
	return j
}

// matchShape walks line and prefix while they have the same shape and
// returns how far it got in each.
func matchShape(line, prefix []byte) (i, j int) {
	for j < len(prefix) {
		if isDigit(prefix[j]) {
			k, l := i, j
			for l < len(prefix) && isDigit(prefix[l]) {
				l++
			}
			for k < len(line) && isDigit(line[k]) {
				k++
			}
			if k == i {
				return i, j
			}
			i, j = k, l
			continue
		}
		if i >= len(line) || line[i] != prefix[j] {
			return i, j
		}
		i++
		j++
	}
	return i, j
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// trimBlanksLeft is bytes.TrimLeft(b, " \t").
func trimBlanksLeft(b []byte) []byte {
	i := 0
	for i < len(b) && (b[i] == ' ' || b[i] == '\t') {
		i++
	}
	return b[i:]
}

// stripANSI appends line to dst without its escape sequences.
func stripANSI(dst, line []byte) []byte {
	for i := 0; i < len(line); i++ {
		c := line[i]
		if c != 0x1b {
			dst = append(dst, c)
			continue
		}
		if i+1 < len(line) && line[i+1] == '[' {
			// CSI: parameters and intermediates, then one final byte.
			j := i + 2
			for j < len(line) && (line[j] < 0x40 || line[j] > 0x7e) {
				j++
			}
			i = j
			continue
		}
		i++ // two-byte escape
	}
	return dst
}

// splitLabel splits "Label:   value" at the first colon followed by a blank
// or the end of the line.
func splitLabel(text []byte) (label, value []byte, ok bool) {
	for i := 0; i < len(text); {
		j := bytes.IndexByte(text[i:], ':')
		if j < 0 {
			return nil, nil, false
		}
		i += j
		if i+1 == len(text) || text[i+1] == ' ' || text[i+1] == '\t' {
			n := i
			for n > 0 && (text[n-1] == ' ' || text[n-1] == '\t') {
				n--
			}
			label = text[:n]
			if len(label) == 0 {
				return nil, nil, false
			}
			return label, bytes.TrimSpace(text[i+1:]), true
		}
		i++
	}
	return nil, nil, false
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// notNumber is the problem of a metric whose printed value does not read as
// a finite number; label names it as printed, when it has one.
func notNumber(file string, line int, label, value, key string) *SyntaxError {
	msg := fmt.Sprintf("value %q is not a number; no %s read: keep the line as the benchmark printed it, or drop the block if the run failed", value, key)
	if label != "" {
		msg = label + ": " + msg
	}
	return &SyntaxError{File: file, Line: line, Msg: msg}
}
