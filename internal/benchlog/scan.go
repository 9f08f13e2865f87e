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
// family described here.
//
// A block starts at a "Serving Benchmark Result" banner (anywhere in a line)
// and ends at a line of only '=' (10 or more). A block that meets the next
// banner, the end of the input, or a line that is not part of a table first
// is returned with Truncated set. Without a banner, a block starts at a
// "Successful requests:" (or 2023 "Total time:", TensorRT-LLM "Total
// requests:") line and is kept only if the lines that follow are those of a
// result (at least the request count and the duration).
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
	js      *jsonScan // input JSON: the decoder
	rd      reader    // the console format whose block is open (reader.go)
	starts  *[256][]*start
	jc      *jsonCapture // a JSON object pasted into a log being read
	lb      *llamaState  // a llama-bench markdown table or CSV being read
	off     *offScan     // offline and latency benchmarks (offline.go)
	lg      *Block       // a gptManagerBenchmark report being read
	pend    *Block       // a closed serving block held for a correct_rate line (structured.go)
	// titleLine is the line of the last possible table title, title its text.
	titleLine int
	title     string

	cur *Block // being read
	// bannerHead is what stood before the banner's rule, until the block's
	// first line; linePrefix is the part of it that this line starts with
	// too (a timestamp, "[rank0]: ", a grep -n number, a container name),
	// which lines of the block lose when they start with its shape.
	bannerHead, linePrefix []byte
	bannerd                bool // cur started at a banner
	marks                  marks
	// decodeSec: the current "----title----" line is TensorRT-LLM's
	// "Avg Decoded Tokens per Iter".
	decodeSec bool
	// omniStage: after vllm-omni's "Stage Benchmark Result" sub-banner,
	// whose per-stage lines are kept as labels only.
	omniStage bool
	known     int // labels of cur with a canonical key
	unknown   int // labels of cur without one

	// The lines of cur, made into Block.Labels and Block.Metrics by finish:
	// label and value bytes go to arena, made one string per block.
	arena   []byte
	spans   []span
	keys    []string            // metric keys of spans not in labelTab
	seen    keySet              // keys of table labels with a metric in spans
	other   map[string]struct{} // other keys with a metric in spans
	eras    eraSeen
	norm    []byte // a normalised label
	normBuf [64]byte
	miss    labelEntry // the entry of a label not in labelTab

	nextNum int      // the line number (grep -n, cat -n) the next line would have (1 at the start, -1 if none): prefix.go
	pre     preLines // load lines printed before a serving table (prelines.go)
	// service is the docker compose service of the current line (nil if
	// none), blockService that of the line that opened the open block.
	service, blockService []byte

	// grep's file-name prefixes (grepprefix.go): the names learnt, the
	// current line's, and whether it changed since the previous line.
	grepNames  [][]byte
	grepFile   []byte
	grepSwitch bool

	scratch []byte // ANSI-stripped line
	tail    []byte // end of the previous chunk of an over-long line
	join    []byte
}

// marks are the labels that tell related layouts apart.
type marks struct {
	sglang   bool // Backend, Traffic request rate, Concurrency, retokenized, Max request concurrency
	trt      bool // Total requests, Std Dev, User throughput
	seconds  bool // "Mean Latency(s)": GPUStack guidellm
	plain    bool // "Benchmark duration:" / "Total time:" without "(s)": values carry units
	y2023    bool // "Total time:" layout
	count    bool // a request count label was seen (Successful requests)
	duration bool // a duration label was seen
	rate     bool // a request throughput label was seen
	headered bool // a "----title----" line was seen
	cutTop   bool // opened at a section line: a table cut at the top (cuttop.go)
	offline  bool // opened by sglang.bench_offline_throughput's banner
	omni     bool // a "==== Text Result ====" sub-banner: vllm-omni (omni.go)
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
	return &Scanner{name: name, r: bufio.NewReaderSize(r, size), nextNum: 1, starts: startIndex()}
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
	switch {
	case s.rd != nil:
		s.rd.end(s)
	case s.lg != nil:
		s.legacyEnd()
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

// process handles one line.
func (s *Scanner) process(line []byte, long, hasBanner bool) {
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
	if s.lg != nil {
		if long {
			s.legacyEnd()
		} else if s.legacyLine(line) {
			return
		}
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
	if hasBanner {
		if s.cur != nil {
			s.end(true)
		}
		s.begin(true)
		s.bannerHead = bannerPrefix(s.bannerHead[:0], line)
		return
	}
	if long {
		if s.cur != nil {
			s.end(true)
		}
		return
	}
	if s.cur == nil {
		s.noise(line)
		return
	}
	text := s.clean(line)
	if len(text) == 0 {
		return
	}
	if isRule(text) {
		s.cur.EndLine = s.line
		s.end(false)
		return
	}
	if s.bannerd && s.subBanner(text) {
		return
	}
	if len(text) >= 3 && text[0] == '-' && text[1] == '-' && text[2] == '-' {
		s.cur.EndLine = s.line
		s.marks.headered = true
		s.norm = appendNorm(s.norm[:0], bytes.Trim(text, "- \t"))
		s.decodeSec = string(s.norm) == "avg decoded tokens per iter"
		return
	}
	label, value, ok := splitLabel(text)
	switch {
	case !ok:
	case !s.bannerd:
		ok = s.isCandidateLabel(label)
	case s.known > 0 && s.unknown == 0:
		// A block of ours so far: a log line means it was cut off. (Another
		// tool's labels, timestamps and all, are kept as they come.)
		ok = isTableLabel(label)
	}
	if !ok {
		s.end(true)
		s.noise(line) // a failed run, a table ...
		return
	}
	if !s.bannerd && isStartLabel(label) && len(s.spans) > 0 {
		// A second table without banner right after the first.
		s.end(true)
		s.begin(false)
	}
	s.add(label, value)
	if len(s.spans) >= maxBlockLines {
		s.end(true)
	}
}

// begin opens a block at the current line.
func (s *Scanner) begin(atBanner bool) {
	s.cur = &Block{File: s.name, Line: s.line, EndLine: s.line}
	s.bannerd = atBanner
	s.bannerHead, s.linePrefix = s.bannerHead[:0], s.linePrefix[:0]
	s.marks = marks{}
	s.decodeSec, s.omniStage = false, false
	s.known, s.unknown = 0, 0
	if s.spans == nil {
		s.spans = make([]span, 0, 32) // a vLLM block has about twenty lines; more grow the slice
		s.arena = make([]byte, 0, 512)
		s.norm = s.normBuf[:0]
	}
	s.arena, s.spans, s.keys = s.arena[:0], s.spans[:0], s.keys[:0]
	s.seen = keySet{}
	clear(s.other)
	s.eras = eraSeen{}
}

// span is one "label: value" line of the current block (no pointers: the
// strings are made by finish).
type span struct {
	l0, l1, v0, v1 int32 // the label (unless interned) and value in arena
	label          int32 // index of the label in labelTab.printed, or -1
	key            int32 // the metric's key: labelTab.keys[key], or s.keys[-1-key]
	line           int
	value          float64
	decimals       int32
	metric         bool
}

// keyOf returns the key of a span's metric.
func (s *Scanner) keyOf(sp *span) string {
	if sp.key >= 0 {
		return labelTab.keys[sp.key]
	}
	return s.keys[-1-sp.key]
}

// eraSeen are the eras (bits of vllmEras and sglangEras) a block's labels
// show, and whether it prints "Input token throughput (tok/s)".
type eraSeen struct {
	vllm, sglang uint32
	inputTok     bool
}

// add records one "label: value" line of the current block.
func (s *Scanner) add(label, value []byte) {
	b := s.cur
	b.EndLine = s.line
	sp := span{line: s.line, label: -1}
	e, exact := s.lookup(label)
	if exact {
		sp.label = e.pidx
	} else {
		sp.l0 = int32(len(s.arena))
		s.arena = append(s.arena, label...)
		sp.l1 = int32(len(s.arena))
	}
	sp.v0 = int32(len(s.arena))
	s.arena = append(s.arena, value...)
	sp.v1 = int32(len(s.arena))
	if s.omniStage {
		s.spans = append(s.spans, sp) // a label only
		return
	}
	s.addEras(e, label)
	s.marks.or(e.marks)
	if !e.info.known && s.decodeSec && e.norm == "mean" {
		// TensorRT-LLM: mean decoded tokens per iteration = acceptance length.
		e = &labelTab.meanDecoded
	}
	s.spans = append(s.spans, sp)
	info := &e.info
	if !info.known {
		s.unknown++
		return
	}
	s.known++
	if info.spec.text {
		return
	}
	if isNullValue(value) {
		if notFinite(info.spec.key, string(value)) {
			b.Problems = append(b.Problems, notFiniteProblem(s.name, s.line, string(label), string(value), info.spec.key))
		}
		return
	}
	m, ok := metricBytes(info.spec, value, s.line)
	if !ok {
		b.Problems = append(b.Problems, notNumber(s.name, s.line, string(label), string(value), info.spec.key))
		return
	}
	key := info.spec.key
	if s.hasKey(key, int(e.id)) {
		prev := 0
		for i := range s.spans {
			if p := &s.spans[i]; p.metric && s.keyOf(p) == key {
				prev = p.line
				if s.marks.omni && string(s.arena[p.v0:p.v1]) == string(value) {
					return // vllm-omni prints Peak concurrent requests twice
				}
				break
			}
		}
		b.Problems = append(b.Problems, &SyntaxError{File: s.name, Line: s.line,
			Msg: fmt.Sprintf("%s: %s repeats line %d; the first value is kept", string(label), key, prev)})
		return
	}
	p := &s.spans[len(s.spans)-1]
	p.metric, p.key, p.value, p.decimals = true, e.id, m.Value, int32(m.Decimals)
	if e.id < 0 {
		s.keys = append(s.keys, key)
		p.key = int32(-len(s.keys))
	}
}

// hasKey reports whether the block has a metric of key (id its index in
// labelTab, or -1) and records it if not.
func (s *Scanner) hasKey(key string, id int) bool {
	if id >= 0 && id < maxKeyIDs {
		w, bit := id/64, uint64(1)<<(id%64)
		if s.seen[w]&bit != 0 {
			return true
		}
		s.seen[w] |= bit
		return false
	}
	if _, ok := s.other[key]; ok {
		return true
	}
	if s.other == nil {
		s.other = map[string]struct{}{}
	}
	s.other[key] = struct{}{}
	return false
}

// addEras records the eras a label shows.
func (s *Scanner) addEras(e *labelEntry, label []byte) {
	s.eras.vllm |= e.vllmEras
	s.eras.sglang |= e.sglangEras
	s.eras.inputTok = s.eras.inputTok || e.inputTok
	for bits, i := e.vllmExact, 0; bits != 0; bits, i = bits>>1, i+1 {
		if bits&1 != 0 && string(label) == vllmEras[i].label {
			s.eras.vllm |= 1 << i
		}
	}
	for bits, i := e.sglangExact, 0; bits != 0; bits, i = bits>>1, i+1 {
		if bits&1 != 0 && string(label) == sglangEras[i].label {
			s.eras.sglang |= 1 << i
		}
	}
}

// finish makes the lines of the current block into b.Labels and, if
// metrics, b.Metrics; their strings are cut from one string.
func (s *Scanner) finish(b *Block, metrics bool) {
	text := string(s.arena)
	n := 0
	if len(s.spans) > 0 {
		b.Labels = make([]Label, len(s.spans))
		for i := range s.spans {
			sp := &s.spans[i]
			var l string
			if sp.label >= 0 {
				l = labelTab.printed[sp.label]
			} else {
				l = text[sp.l0:sp.l1]
			}
			b.Labels[i] = Label{Label: l, Value: text[sp.v0:sp.v1], Line: sp.line}
			if sp.metric {
				n++
			}
		}
	}
	if !metrics {
		n = 0
	}
	b.Metrics = make(map[string]Metric, n)
	if n == 0 {
		return
	}
	for i := range s.spans {
		if sp := &s.spans[i]; sp.metric {
			b.Metrics[s.keyOf(sp)] = Metric{Value: sp.value, Decimals: int(sp.decimals), Line: sp.line, Raw: b.Labels[i].Value}
		}
	}
}

// end closes the current block, classifies it and queues it for Scan.
func (s *Scanner) end(truncated bool) {
	b := s.cur
	s.cur = nil
	m := s.marks
	core := m.duration && (m.count || (m.y2023 && m.rate))

	if !s.bannerd {
		// No banner: keep only what is clearly a result table.
		if !core && !s.cutTopKept(b, truncated) || s.known < 3 || s.unknown > s.known {
			return
		}
		s.finish(b, true)
		switch {
		case m.plain && !m.headered:
			b.Format = FormatVLLMPlain
			truncated = false // this layout has no closing rule
		default:
			b.Format = FormatVLLMHeaderless
		}
	} else {
		b.Format = FormatVLLM
		// A cut-off block keeps the family if what was read of it is ours.
		ours := core || (truncated && s.known > 0 && s.unknown == 0)
		s.finish(b, ours && (s.unknown <= s.known || m.omni))
		if !ours || (s.unknown > s.known && !m.omni) {
			b.Format = FormatUnknown
			b.Problems = append(b.Problems[:0], &SyntaxError{File: s.name, Line: b.Line,
				Msg: `banner of another tool: no "Successful requests:" and "Benchmark duration (s):" lines; labels kept, no metric read`})
		}
	}
	if b.Format != FormatUnknown {
		switch {
		case m.offline:
			b.Format = FormatSGLangOffline
		case m.omni:
			b.Format = FormatVLLMOmni
		case m.seconds:
			b.Format = FormatGuideLLM
		case m.sglang:
			b.Format = FormatSGLang
		case m.trt:
			b.Format = FormatTRTLLMServe
		}
		b.Definition = CountOverDuration
		if b.Format == FormatGuideLLM {
			b.Definition = TimeSeriesMean
		}
	}
	switch b.Format {
	case FormatVLLM, FormatVLLMHeaderless, FormatTRTLLMServe, FormatSGLang:
		s.addPreLines(b)
	}
	b.Truncated = truncated
	if truncated {
		b.Problems = append(b.Problems, &SyntaxError{File: s.name, Line: b.EndLine,
			Msg: fmt.Sprintf("result block of line %d has no closing ===== rule; read up to here", b.Line)})
	}
	textVersion(b, m, s.eras)
	if !truncated && holdable(b) {
		s.release()
		s.pend = b
		return
	}
	s.emit(b)
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

// bannerPrefix appends to dst what stands before the rule of a banner line
// ("[rank0]: ====== Serving Benchmark Result ======"), if it is more than
// blanks and '#'.
func bannerPrefix(dst, line []byte) []byte {
	i := bytes.IndexByte(line, '=')
	if i <= 0 || len(bytes.Trim(line[:i], " \t#")) == 0 || bytes.IndexByte(line[:i], 0x1b) >= 0 {
		return dst
	}
	return append(dst, line[:i]...)
}

// stripLike removes from line a prefix of the same shape as prefix: the same
// bytes, except that a run of digits matches any run of digits, so that the
// timestamps and line numbers of one log match each other. A line that does
// not start so is returned whole.
func stripLike(line, prefix []byte) []byte {
	i, j := matchShape(line, prefix)
	if j < len(prefix) {
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

// startLabels open a block without banner.
var startLabels = []string{"Successful requests", "Total time", "Total requests"}

func isStartLabel(label []byte) bool {
	if len(label) > maxStartLabel {
		return false
	}
	for _, l := range startLabels {
		if bytes.EqualFold(label, []byte(l)) {
			return true
		}
	}
	return false
}

// isCandidateLabel reports whether a label continues a block without banner:
// a label we know, or one shaped like a table row with a unit ("Accuracy Rate
// (%)"), not a log line ("INFO 05-12 10:00:00 [serve.py:42] ...", "INFO").
func (s *Scanner) isCandidateLabel(label []byte) bool {
	if !isTableLabel(label) {
		return false
	}
	if bytes.IndexByte(label, '(') >= 0 {
		return true
	}
	e, _ := s.lookup(label)
	return e.info.known
}

// isTableLabel reports whether a label looks like one of a result table, not
// like a log line ("INFO 05-12 10:00:00 [serve.py:42] ...").
func isTableLabel(label []byte) bool {
	if len(label) == 0 || len(label) > 64 || !isLetter(label[0]) {
		return false
	}
	switch string(label) {
	case "INFO", "WARNING", "ERROR", "DEBUG", "CRITICAL", "TRACE":
		return false
	}
	for _, c := range label {
		if !tableLabelBytes[c] {
			return false
		}
	}
	return true
}

// tableLabelBytes are the bytes of a table label: letters, digits and " \t()/%.-_',".
var tableLabelBytes = func() (t [256]bool) {
	for c := range 256 {
		t[c] = isLetter(byte(c)) || c >= '0' && c <= '9' || strings.IndexByte(" \t()/%.-_',", byte(c)) >= 0
	}
	return t
}()

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// isRule reports whether text is a closing rule: at least 10 '=', and
// nothing before them but a prefix without '=' (a timestamp of a tool that
// logs its table): "=====", "2025-06-01 10:05:00 - INFO - =====", but not
// "=====!FAILED REQUESTS!=====".
func isRule(text []byte) bool {
	n := len(text)
	i := n
	for i > 0 && text[i-1] == '=' {
		i--
	}
	if n-i < 10 {
		return false
	}
	return bytes.IndexByte(text[:i], '=') < 0
}

// notNumber is the problem of a metric whose printed value does not read as
// a finite number; label names it as printed, when it has one.
func notNumber(file string, line int, label, value, key string) *SyntaxError {
	msg := fmt.Sprintf("value %q is not a number; no %s read: keep the line as the benchmark printed it, or drop the block if the run failed", value, key)
	if label != "" {
		msg = label + ": " + msg
	}
	return &SyntaxError{File: file, Line: line, Msg: msg}
}
