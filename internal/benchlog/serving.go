package benchlog

import (
	"bytes"
	"fmt"
	"strings"
)

// serving is the serving table being read: the output of vLLM's
// benchmark_serving and of the tools that copy it. A block starts at a
// "Serving Benchmark Result" banner (anywhere in a line) and ends at a line
// of only '=' (10 or more). A block that meets the next banner, the end of
// the input, or a line that is not part of a table first is returned with
// Truncated set. Without a banner, a block starts at a
// "Successful requests:" (or 2023 "Total time:", TensorRT-LLM "Total
// requests:") line and is kept only if the lines that follow are those of a
// result (at least the request count and the duration).
type serving struct {
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

// serve reads a line outside the block of a console format: a banner
// opens a serving table, a rule closes it, a "label: value" line adds to
// it; any other line is noise.
func (s *Scanner) serve(line []byte, long, hasBanner bool) {
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
	case FormatVLLM, FormatVLLMHeaderless, FormatTRTLLMServe, FormatSGLang, FormatVLLMPlain:
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
