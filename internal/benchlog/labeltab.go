package benchlog

import (
	"bytes"
	"math"
	"strconv"
	"strings"
)

// The label path of a console log (Scanner.add) resolves every line through
// labelTab, a read-only table built once from fixedLabels, the common
// statistic labels and the labels exactly as vLLM, SGLang and TensorRT-LLM
// print them. A label found by its printed bytes costs one map lookup and no
// allocation; one found after normalisation into a scanner buffer, one more
// lookup. Any other label goes through normLabel and lookupLabel as before,
// so the table only makes the common labels cheaper, never different.

// labelEntry is what one label says, resolved in advance.
type labelEntry struct {
	key   string // the table key: the printed label, or its normalised form
	norm  string
	info  labelInfo
	id    int32 // index of info.spec.key in labelTab.keys; -1 if none
	pidx  int32 // index of key in labelTab.printed
	marks marks // what the label says about the layout
	// vllmEras and sglangEras are the eras whose (case-insensitive) label
	// this one is; vllmExact and sglangExact those whose case-sensitive
	// label it may be (decided on the printed bytes).
	vllmEras, sglangEras   uint32
	vllmExact, sglangExact uint32
	inputTok               bool // "input token throughput (tok/s)"
}

// maxKeyIDs bounds the key ids tracked in Scanner.seen.
const maxKeyIDs = 64 * len(keySet{})

type keySet [16]uint64

// labelTable is built once by a plain initializer and only read after.
type labelTable struct {
	m           map[string]*labelEntry
	printed     []string   // the keys of m
	keys        []string   // the metric keys of the entries
	meanDecoded labelEntry // "Mean" in TensorRT-LLM's "avg decoded tokens per iter" section
}

var labelTab = buildLabelTable()

// printedLabels are the labels exactly as the serving tables print them.
var printedLabels = []string{
	"Successful requests", "Failed requests", "Maximum request concurrency",
	"Request rate configured (RPS)", "Benchmark duration (s)", "Total input tokens",
	"Total generated tokens", "Request throughput (req/s)", "Request goodput (req/s)",
	"Output token throughput (tok/s)", "Peak output token throughput (tok/s)",
	"Peak concurrent requests", "Total Token throughput (tok/s)", "Total token throughput (tok/s)",
	"Input token throughput (tok/s)", "Acceptance rate (%)", "Acceptance length", "Drafts",
	"Draft tokens", "Accepted tokens", "Per-position acceptance (%)",
	"Traffic request rate", "Burstiness factor", "Backend", "Max request concurrency",
	"Max reqeuest concurrency", "Total input text tokens", "Total input vision tokens",
	"Total generated tokens (retokenized)", "Concurrency", "Accept length", "Total requests",
	"User throughput (tok/s)", "Total throughput (tok/s)", "Probe requests completed",
	"Probe requests failed", "Benchmark duration", "Total time", "Throughput",
	"Average latency", "Average latency per token", "Average latency per output token",
	"Request throughput", "Input token throughput", "Output token throughput",
	"Total Token throughput", "Total token throughput",
	"Position 0", "Position 1", "Position 2", "Position 3", "Position 4", "Position 5",
	"Position 6", "Position 7",
	"Committed throughput (tok/s)", "Denoising steps per canvas", "Committed per denoising step",
	"Committed tokens", "Denoising steps", "Canvas positions evaluated",
}

// Statistic labels put in the table: every word with every name, in ms,
// and GPUStack's latencies in seconds.
var (
	tabStatWords = []string{"Mean", "Median", "Std", "Std Dev", "Max", "Min",
		"P50", "P90", "P95", "P99", "P99.9"}
	tabStatNames = []string{"TTFT", "TPOT", "ITL", "E2EL", "E2E Latency", "TTST"}
)

func buildLabelTable() labelTable {
	t := labelTable{m: map[string]*labelEntry{}}
	ids := map[string]int32{}
	add := func(key string) {
		if _, ok := t.m[key]; ok {
			return
		}
		e := classify(normLabel([]byte(key)))
		e.key = key
		e.pidx = int32(len(t.printed))
		t.printed = append(t.printed, key)
		if e.info.known && !e.info.spec.text {
			id, ok := ids[e.info.spec.key]
			if !ok {
				id = int32(len(t.keys))
				ids[e.info.spec.key] = id
				t.keys = append(t.keys, e.info.spec.key)
			}
			e.id = id
		}
		t.m[key] = &e
	}
	for norm := range fixedLabels {
		add(norm)
	}
	for _, l := range printedLabels {
		add(l)
		add(normLabel([]byte(l)))
	}
	for _, w := range tabStatWords {
		for _, n := range tabStatNames {
			l := w + " " + n + " (ms)"
			add(l)
			add(normLabel([]byte(l)))
		}
		l := w + " Latency(s)"
		add(l)
		add(normLabel([]byte(l)))
	}
	e := classify("mean")
	e.info = labelInfo{spec: keySpec{key: "spec_decode_acceptance_length"}, known: true}
	e.id = ids[e.info.spec.key] // "accept length" has it
	t.meanDecoded = e
	return t
}

// classify resolves a normalised label: its key, the layout marks it sets
// and the eras it dates (everything Scanner.add needs besides the section).
func classify(norm string) labelEntry {
	info := lookupLabel(norm)
	e := labelEntry{norm: norm, info: info, id: -1}
	m := &e.marks
	switch norm {
	case "backend", "traffic request rate", "concurrency", "total generated tokens (retokenized)",
		"max request concurrency", "max reqeuest concurrency", "accept length",
		"total input text tokens", "total input vision tokens":
		m.sglang = true
	case "total requests", "user throughput (tok/s)":
		m.trt = true
	case "benchmark duration":
		m.plain = true
	case "total time":
		m.plain, m.y2023 = true, true
	}
	if strings.Contains(norm, "e2e latency") {
		m.sglang = true
	}
	switch info.spec.key {
	case "completed":
		m.count = true
	case "duration":
		m.duration = true
	case "request_throughput":
		m.rate = true
	}
	m.trt = m.trt || info.std
	m.seconds = info.seconds
	e.vllmEras, e.vllmExact = eraBits(vllmEraNorms, norm)
	e.sglangEras, e.sglangExact = eraBits(sglangEraNorms, norm)
	e.inputTok = norm == "input token throughput (tok/s)"
	return e
}

// eraNorm is an era's label as eraBits compares it.
type eraNorm struct {
	norm  string // the label, normalised; "" for a key
	exact bool   // the label is case-sensitive: norm only says it may be
}

var vllmEraNorms, sglangEraNorms = eraNormsOf(vllmEras), eraNormsOf(sglangEras)

func eraNormsOf(eras []era) []eraNorm {
	out := make([]eraNorm, len(eras))
	for i, e := range eras {
		if !strings.HasPrefix(e.label, "key:") {
			out[i] = eraNorm{norm: normLabel([]byte(e.label)), exact: e.label != strings.ToLower(e.label)}
		}
	}
	return out
}

// eraBits returns the eras whose case-insensitive label is norm, and those
// whose case-sensitive label a label of that norm may be.
func eraBits(eras []eraNorm, norm string) (match, maybe uint32) {
	for i, e := range eras {
		switch {
		case e.norm == "" || e.norm != norm:
		case e.exact:
			maybe |= 1 << i
		default:
			match |= 1 << i
		}
	}
	return match, maybe
}

// or adds the marks of o.
func (m *marks) or(o marks) {
	m.sglang = m.sglang || o.sglang
	m.trt = m.trt || o.trt
	m.seconds = m.seconds || o.seconds
	m.plain = m.plain || o.plain
	m.y2023 = m.y2023 || o.y2023
	m.count = m.count || o.count
	m.duration = m.duration || o.duration
	m.rate = m.rate || o.rate
	m.headered = m.headered || o.headered
	m.omni = m.omni || o.omni
}

// appendNorm appends normLabel(label) to dst.
func appendNorm(dst, label []byte) []byte {
	start := len(dst)
	space := false
	for _, c := range label {
		switch {
		case c == ' ' || c == '\t':
			space = len(dst) > start
			continue
		case 'A' <= c && c <= 'Z':
			c += 'a' - 'A'
		}
		if space {
			dst = append(dst, ' ')
			space = false
		}
		dst = append(dst, c)
	}
	return dst
}

// lookup resolves a printed label: through the table by its bytes, then by
// its normalised form, else as lookupLabel does. The entry is valid until
// the next call.
func (s *Scanner) lookup(label []byte) (e *labelEntry, exact bool) {
	if e, ok := labelTab.m[string(label)]; ok {
		return e, true
	}
	s.norm = appendNorm(s.norm[:0], label)
	if e, ok := labelTab.m[string(s.norm)]; ok {
		return e, false
	}
	s.miss = classify(string(s.norm))
	return &s.miss, false
}

// isNullValue reports whether nullValues[strings.ToLower(string(v))].
func isNullValue(v []byte) bool {
	var buf [16]byte
	if len(v) > len(buf) {
		for _, c := range v {
			if c >= 0x80 {
				return nullValues[strings.ToLower(string(v))]
			}
		}
		return false
	}
	if len(v) > 0 && '0' <= v[0] && v[0] <= '9' {
		return false // a number: no null value starts with a digit
	}
	for i, c := range v {
		switch {
		case c >= 0x80:
			return nullValues[strings.ToLower(string(v))]
		case 'A' <= c && c <= 'Z':
			c += 'a' - 'A'
		}
		buf[i] = c
	}
	return nullValues[string(buf[:len(v)])]
}

// parseValueBytes reads a printed value such as "1000", "-0.00",
// "294.101467 s", "6.05 requests/s" or "15.0 RPS." into a number, the digits
// printed after its decimal point (less its exponent), and the unit that
// follows it; exp10 reports an exponent in num.
func parseValueBytes(v []byte) (num []byte, decimals int, unit []byte, exp10, ok bool) {
	num = v
	if i := bytes.IndexByte(v, ' '); i >= 0 {
		num, unit = v[:i], v[i+1:]
	}
	unit = bytes.TrimSuffix(bytes.TrimSpace(unit), []byte("."))
	num = bytes.TrimSuffix(num, []byte("."))
	if len(num) == 0 {
		return nil, 0, nil, false, false
	}
	i := 0
	if num[0] == '-' || num[0] == '+' {
		i++
	}
	digits, frac, exp := 0, 0, 0
	for ; i < len(num) && num[i] >= '0' && num[i] <= '9'; i++ {
		digits++
	}
	if i < len(num) && num[i] == '.' {
		i++
		for ; i < len(num) && num[i] >= '0' && num[i] <= '9'; i++ {
			frac++
		}
	}
	if digits+frac == 0 {
		return nil, 0, nil, false, false
	}
	if i < len(num) && (num[i] == 'e' || num[i] == 'E') {
		i++
		neg := false
		if i < len(num) && (num[i] == '-' || num[i] == '+') {
			neg = num[i] == '-'
			i++
		}
		start := i
		for ; i < len(num) && num[i] >= '0' && num[i] <= '9'; i++ {
			if exp < 10000 {
				exp = exp*10 + int(num[i]-'0')
			}
		}
		if i == start {
			return nil, 0, nil, false, false
		}
		if neg {
			exp = -exp
		}
		exp10 = true
	}
	if i != len(num) {
		return nil, 0, nil, false, false
	}
	return num, frac - exp, unit, exp10, true
}

// metricBytes is makeMetric on bytes, without Raw (set by the caller).
func metricBytes(spec keySpec, raw []byte, line int) (Metric, bool) {
	num, dec, vunit, exp, ok := parseValueBytes(raw)
	if !ok {
		return Metric{}, false
	}
	from := spec.from
	if from == "" {
		switch string(vunit) {
		case "s", "sec", "secs", "seconds":
			from = "s"
		case "ms":
			from = "ms"
		}
	}
	shift := 0
	if spec.unit != "" && from != "" {
		shift = unitShift(from, spec.unit)
	}
	var f float64
	ok = false
	if !exp {
		// num is digits with at most one '.': the value is exact if the
		// digits and the power of ten are (what strconv.ParseFloat's fast
		// path does), shifted in decimal so that 24.11 s is exactly 24110 ms.
		f, ok = exactFloat(num, shift-dec)
	}
	if !ok {
		var buf [32]byte
		n := append(buf[:0], num...)
		if shift != 0 && !exp {
			n = strconv.AppendInt(append(n, 'e'), int64(shift), 10)
		}
		var err error
		f, err = strconv.ParseFloat(string(n), 64)
		if err != nil { // out of range
			return Metric{}, false
		}
	}
	if shift != 0 && exp {
		f *= math.Pow10(shift)
		if math.IsInf(f, 0) { // 1e308 s in ms: out of range, as ParseFloat would say
			return Metric{}, false
		}
	}
	dec -= shift
	if f == 0 {
		f = 0 // -0.00 reads as 0
	}
	return Metric{Value: f, Decimals: dec, Line: line}, true
}

// pow10s are the powers of ten a float64 holds exactly.
var pow10s = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// exactFloat returns the value of num (sign, digits, at most one '.')
// times 10^exp10, with its digits read as an integer, if that integer and
// the power of ten are exact in a float64: then one correctly rounded
// operation gives the correctly rounded value, as strconv.ParseFloat does.
func exactFloat(num []byte, exp10 int) (float64, bool) {
	i, neg := 0, false
	if num[0] == '-' || num[0] == '+' {
		neg = num[0] == '-'
		i++
	}
	var m uint64
	for ; i < len(num); i++ {
		c := num[i]
		if c == '.' {
			continue
		}
		m = m*10 + uint64(c-'0')
		if m >= 1<<53 {
			return 0, false
		}
	}
	f := float64(m)
	if neg {
		f = -f
	}
	switch {
	case exp10 == 0:
	case exp10 > 0 && exp10 < len(pow10s):
		f *= pow10s[exp10]
	case exp10 < 0 && -exp10 < len(pow10s):
		f /= pow10s[-exp10]
	default:
		return 0, false
	}
	return f, true
}
