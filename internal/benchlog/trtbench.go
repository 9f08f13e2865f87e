package benchlog

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// The trtllm-bench report (docs/metrics.md, "trtllm-bench report"): sections of
// "Label:<tabs>value" lines, each under a "= TITLE" line between rules of
// '='; breakdowns "[Latency] P50    : 54486.1063". A block starts at the
// first "= TITLE" line and ends at a rule not followed by another title. It
// is a result only if it has a PERFORMANCE OVERVIEW section.

type benchState struct {
	blk       *Block
	section   string // upper-case title of the current section
	afterRule bool   // the last non-blank line was a rule that closes a section
	titled    bool   // the last non-blank line was a "= TITLE" line
	perf      bool   // PERFORMANCE OVERVIEW (or the 2024 latency report's OVERVIEW sections) seen
	latency   bool   // the 2024 latency report (GENERAL / THROUGHPUT / LATENCY OVERVIEW)
	pytorch   bool
	total     bool // Total Token Throughput printed (PR #3212, Apr 2025)
}

var benchLabels = map[string]keySpec{
	"number of requests":                             {key: "completed"},
	"number of concurrent requests":                  {key: "avg_concurrency"},
	"average input length (tokens)":                  {key: "mean_input_len"},
	"average output length (tokens)":                 {key: "mean_output_len"},
	"request throughput (req/sec)":                   {key: "request_throughput"},
	"total output throughput (tokens/sec)":           {key: "output_throughput"},
	"token throughput (tokens/sec)":                  {key: "output_throughput"}, // older releases
	"total token throughput (tokens/sec)":            {key: "total_token_throughput"},
	"total latency (ms)":                             {key: "duration", unit: "s", from: "ms"},
	"average request latency (ms)":                   {key: "mean_e2el_ms", unit: "ms", from: "ms"},
	"per user output throughput [w/ ctx] (tps/user)": {key: "user_throughput"},
	"per gpu output throughput (tps/gpu)":            {key: "output_throughput_per_gpu"},
	"average time-to-first-token [ttft] (ms)":        {key: "mean_ttft_ms", unit: "ms", from: "ms"},
	"average time-per-output-token [tpot] (ms)":      {key: "mean_tpot_ms", unit: "ms", from: "ms"},
	"per user output speed (tps/user)":               {key: "output_throughput_per_user"},
	// 2025 spellings of the same lines.
	"per user output throughput (tokens/sec/user)":          {key: "user_throughput"},
	"per user output throughput [w/ ctx] (tokens/sec/user)": {key: "user_throughput"},
	"per gpu output throughput (tokens/sec/gpu)":            {key: "output_throughput_per_gpu"},
	"per user output speed (tokens/sec/user)":               {key: "output_throughput_per_user"},
	// "Issue Rate (req/sec)" is not a rate: see benchIssueRate.
	"average number of concurrent requests":           {key: "avg_concurrency"},
	"avg decoded tokens per iter":                     {key: "spec_decode_acceptance_length"},
	"per user output throughput (tps/user)":           {key: "user_throughput"},
	"per user output throughput [w/o ctx] (tps/user)": {key: "output_throughput_per_user"},
	// 2024 reports: STREAMING STATISTICS and trtllm-bench latency's LATENCY
	// OVERVIEW (intertoken_latency = (end - first token) / (output - 1), a
	// TPOT), THROUGHPUT OVERVIEW (see throughputOverview).
	"average time-to-first-token (ms)":         {key: "mean_ttft_ms", unit: "ms", from: "ms"},
	"average inter-token latency (ms)":         {key: "mean_tpot_ms", unit: "ms", from: "ms"},
	"generation token throughput (tokens/sec)": {key: "output_throughput_per_user"},
}

// throughputOverview are the labels of the 2024 trtllm-bench latency
// report's THROUGHPUT OVERVIEW that mean something else there: its "Total
// Token Throughput" is token_throughput_ns, output tokens / total latency.
var throughputOverview = map[string]keySpec{
	"total token throughput (tokens/sec)": {key: "output_throughput"},
}

// benchTags maps the tag of a breakdown line to a key base and its kind.
var benchTags = map[string]nvRow{
	"latency": {"e2el", nvLatency, ""},
	"ttft":    {"ttft", nvLatency, ""},
	"tpot":    {"tpot", nvLatency, ""},
	"gtps":    {"output_throughput_per_user", nvPerUser, ""},
	"al":      {"spec_decode_acceptance_length", nvSingle, ""},
	// [DAR]: per request accepted / drafted tokens, a fraction (0.73), not
	// vLLM's global percentage: its own key.
	"dar": {"draft_acceptance_rate", nvSingle, ""},
}

// benchTitle returns the title of a "= TITLE" line.
func benchTitle(text []byte) (string, bool) {
	if len(text) < 3 || text[0] != '=' || text[1] != ' ' {
		return "", false
	}
	title := bytes.TrimSpace(text[2:])
	if len(title) < 3 || !isLetter(title[0]) {
		return "", false
	}
	if string(title) == "PyTorch backend" { // early 2025
		return "PYTORCH BACKEND", true
	}
	for _, c := range title {
		if c >= 'a' && c <= 'z' && !bytes.Contains(title, []byte("(")) {
			return "", false // titles are upper case, "(mode)" aside
		}
	}
	return string(title), true
}

// benchStart opens a trtllm-bench block at a "= TITLE" line.
func (s *Scanner) benchStart(text []byte) bool {
	title, ok := benchTitle(text)
	if !ok {
		return false
	}
	s.rd = &benchState{blk: &Block{File: s.name, Line: s.line, EndLine: s.line, Metrics: map[string]Metric{}}}
	s.benchSection(title)
	return true
}

func (s *Scanner) benchSection(title string) {
	t := open[*benchState](s)
	t.section = title
	t.afterRule = false
	t.titled = true
	t.blk.EndLine = s.line
	switch {
	case strings.HasPrefix(title, "PERFORMANCE OVERVIEW"):
		t.perf = true
	case strings.HasPrefix(title, "PYTORCH"):
		t.pytorch = true
	case title == "GENERAL OVERVIEW", title == "THROUGHPUT OVERVIEW", title == "LATENCY OVERVIEW":
		t.perf, t.latency = true, true
	}
}

// benchLine reads one line of the current report; false when the line is not
// part of it (the block has been ended; read the line as any other).
func (s *Scanner) benchLine(line []byte) bool {
	t := open[*benchState](s)
	text := s.clean(line)
	if len(text) == 0 {
		return true
	}
	if isRule(text) && text[0] == '=' {
		t.afterRule = !t.titled // the rule under a title opens its section
		t.titled = false
		t.blk.EndLine = s.line
		return true
	}
	t.titled = false
	if title, ok := benchTitle(text); ok {
		s.benchSection(title)
		return true
	}
	if t.afterRule {
		s.benchEnd(false)
		return false
	}
	t.blk.EndLine = s.line
	switch {
	case bytes.HasPrefix(text, []byte("--")), bytes.HasPrefix(text, []byte("---")):
		return true
	case text[0] == '[':
		if s.benchTag(text) {
			return true
		}
	default:
		label, value, ok := splitLabel(text)
		switch {
		case !ok:
		case strings.HasPrefix(t.section, "DATASET") && s.benchDataset(label, value):
			return true
		case normLabel(label) == "issue rate (req/sec)":
			s.benchIssueRate(label, value)
			return true
		case isTableLabel(bytes.ReplaceAll(bytes.ReplaceAll(label, []byte("["), nil), []byte("]"), nil)):
			s.benchAdd(label, value)
			return true
		default:
			if _, known := benchLabels[normLabel(label)]; known {
				s.benchAdd(label, value)
				return true
			}
		}
	}
	if strings.HasPrefix(t.section, "MACHINE") || strings.HasPrefix(t.section, "DATASET") {
		return true // free text and the length table
	}
	t.blk.EndLine--
	s.benchEnd(true)
	return false
}

// benchTag reads "[Latency] P50    : 54486.1063".
func (s *Scanner) benchTag(text []byte) bool {
	end := bytes.IndexByte(text, ']')
	if end < 2 {
		return false
	}
	tag := strings.ToLower(string(text[1:end]))
	for _, c := range []byte(tag) {
		if !isLetter(c) {
			return false
		}
	}
	stat, value, ok := bytes.Cut(text[end+1:], []byte(":"))
	if !ok {
		return false
	}
	label := string(text[:end+1]) + " " + string(bytes.TrimSpace(stat))
	val := string(bytes.TrimSpace(value))
	b := open[*benchState](s).blk
	b.Labels = append(b.Labels, Label{Label: label, Value: val, Line: s.line})
	row, ok := benchTags[tag]
	if !ok {
		return true
	}
	st := nvStat(string(stat))
	if st == "" {
		return true
	}
	keys, spec := nvRowKeys(row, "", st)
	for _, k := range keys {
		spec.key = k
		s.benchMetric(spec, val)
	}
	return true
}

func (s *Scanner) benchAdd(label, value []byte) {
	t := open[*benchState](s)
	b := t.blk
	lab, val := string(label), string(value)
	b.Labels = append(b.Labels, Label{Label: lab, Value: val, Line: s.line})
	norm := normLabel(label)
	spec, ok := benchLabels[norm]
	if o, over := throughputOverview[norm]; over && t.section == "THROUGHPUT OVERVIEW" {
		spec, ok = o, true
	}
	if !ok {
		return
	}
	if spec.key == "total_token_throughput" {
		t.total = true
	}
	s.benchMetric(spec, val)
	if spec.key == "completed" {
		spec.key = "num_prompts"
		s.benchMetric(spec, val)
	}
}

func (s *Scanner) benchMetric(spec keySpec, val string) {
	b := open[*benchState](s).blk
	if nullValues[strings.ToLower(val)] {
		return
	}
	m, ok := makeMetric(spec, strings.TrimSuffix(val, "%"), s.line)
	if !ok {
		b.Problems = append(b.Problems, notNumber(s.name, s.line, "", val, spec.key))
		return
	}
	m.Raw = val
	if _, dup := b.Metrics[spec.key]; !dup {
		b.Metrics[spec.key] = m
	}
}

// benchIssueRate reads "Issue Rate (req/sec):   1.2345E+15". Every release
// prints issue_rate_ns * 1e9, where issue_rate_ns = (last request start -
// first request start) / requests (reporting.py, statistics.py): the mean
// interval between request starts, in ns, scaled by 1e9 as if it were a
// rate per ns. Read as what it is, the printed value / 10^15 in ms.
func (s *Scanner) benchIssueRate(label, value []byte) {
	b := open[*benchState](s).blk
	val := string(value)
	b.Labels = append(b.Labels, Label{Label: string(label), Value: val, Line: s.line})
	num, dec, unit, _, ok := parseValueBytes(value)
	if !ok || len(unit) > 0 {
		b.Problems = append(b.Problems, notNumber(s.name, s.line, string(label), val, "mean_issue_interval_ms"))
		return
	}
	f, err := strconv.ParseFloat(string(num), 64)
	if err != nil || f < 0 || math.IsInf(f, 0) {
		b.Problems = append(b.Problems, notNumber(s.name, s.line, string(label), val, "mean_issue_interval_ms"))
		return
	}
	b.Metrics["mean_issue_interval_ms"] = Metric{Value: f / 1e15, Decimals: dec + 15, Line: s.line, Raw: val}
}

// benchDataset reads a line of the DATASET DETAILS percentile table,
// "P50:   128.0000          128.0000          256.0000": the input, output
// and sequence lengths of the dataset's requests, as the dataset file
// gives them (dataset_ keys: the run may generate other output lengths).
func (s *Scanner) benchDataset(label, value []byte) bool {
	stat := map[string]string{"MIN": "min", "MAX": "max", "AVG": "mean", "P50": "p50", "P90": "p90", "P95": "p95", "P99": "p99"}[string(label)]
	f := strings.Fields(string(value))
	if stat == "" || len(f) != 3 {
		return false
	}
	b := open[*benchState](s).blk
	b.Labels = append(b.Labels, Label{Label: string(label), Value: string(value), Line: s.line})
	for i, base := range []string{"input_len", "output_len", "seq_len"} {
		addKeys(b, []string{"dataset_" + stat + "_" + base}, keySpec{}, string(label), f[i], s.line)
	}
	return true
}

// benchEnd classifies the report and queues it; a report without
// PERFORMANCE OVERVIEW (engine details only) is not a result and is dropped.
func (s *Scanner) benchEnd(truncated bool) {
	t := open[*benchState](s)
	s.rd = nil
	b := t.blk
	_, rate := b.Metrics["request_throughput"]
	_, dur := b.Metrics["duration"]
	if !t.perf || !(rate || dur) {
		return
	}
	b.Format, b.Tool, b.Definition = FormatTRTLLMBench, ToolTRTLLM, CountOverDuration
	b.Version = "before Apr 2025"
	switch {
	case t.latency:
		b.Version = "2024 latency report (GENERAL / THROUGHPUT / LATENCY OVERVIEW)"
	case t.total:
		b.Version = "Apr 2025+ (Total Token Throughput)"
	}
	if t.pytorch {
		b.Version += ", PyTorch backend"
	}
	b.Definitions = map[string]Definition{"avg_concurrency": PerRequestMean}
	for k := range b.Metrics {
		if strings.Contains(k, "user") || k == "spec_decode_acceptance_length" || k == "draft_acceptance_rate" {
			b.Definitions[k] = PerRequestMean
		}
	}
	deriveTotals(b)
	b.Truncated = truncated
	if truncated {
		b.Problems = append(b.Problems, &SyntaxError{File: s.name, Line: b.EndLine,
			Msg: fmt.Sprintf("trtllm-bench report of line %d ends without its closing ===== rule; read up to here", b.Line)})
	}
	s.emit(b)
}

// deriveTotals fills total input and output tokens from the average lengths
// and the number of requests, so that the count / duration identities can
// be checked; Decimals is widened to cover the rounding of the average
// times the count.
func deriveTotals(b *Block) {
	n, ok := b.Metrics["completed"]
	if !ok || n.Value <= 0 || n.Value > 1e12 {
		return
	}
	for _, p := range [...][2]string{{"mean_input_len", "total_input_tokens"}, {"mean_output_len", "total_output_tokens"}} {
		avg, ok := b.Metrics[p[0]]
		if _, have := b.Metrics[p[1]]; !ok || have {
			continue
		}
		dec := avg.Decimals - int(math.Ceil(math.Log10(n.Value)))
		b.Metrics[p[1]] = Metric{Value: avg.Value * n.Value, Decimals: dec, Line: avg.Line,
			Raw: avg.Raw + " × " + n.Raw}
		if b.Definitions == nil {
			b.Definitions = map[string]Definition{}
		}
		b.Definitions[p[1]] = Derived
	}
}
