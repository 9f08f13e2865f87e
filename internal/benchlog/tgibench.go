package benchlog

import (
	"fmt"
	"sort"
	"strings"
)

// TGI's text-generation-benchmark (huggingface/text-generation-inference
// benchmark/src/table.rs) prints, when it exits, Markdown tables:
//
//	| Parameter          | Value                    |
//	|--------------------|--------------------------|
//	| Model              | meta-llama/Llama-3.1-8B  |
//	| Sequence Length    | 512                      |
//	| Decode Length      | 128                      |
//	...
//
//	| Step           | Batch Size | Average   | Lowest    | Highest   | p50       | p90       | p99       |
//	|----------------|------------|-----------|-----------|-----------|-----------|-----------|-----------|
//	| Prefill        | 1          | 19.30 ms  | 19.24 ms  | 19.48 ms  | 19.29 ms  | 19.48 ms  | 19.48 ms  |
//	| Decode (token) | 1          | 16.42 ms  | ...
//	| Decode (total) | 1          | 114.92 ms | ...
//
//	| Step    | Batch Size | Average           | Lowest            | Highest           |
//	|---------|------------|-------------------|-------------------|-------------------|
//	| Prefill | 1          | 51.80 tokens/secs | 51.36 tokens/secs | 51.98 tokens/secs |
//	| Decode  | 1          | 60.91 tokens/secs | ...
//
// statistics over the runs of one static batch per batch size, each cell
// with its unit. One block per batch size (definition static-batch), at
// its row in the last table.

type tgiReader struct {
	params []Label           // the Parameter table
	blocks map[string]*Block // by batch size
	cols   []string          // the current table's header
	step   string            // the step of the row before, for a row that leaves it blank
}

// tgiSteps maps a latency step to its key base; tgiRates a throughput step.
var (
	tgiSteps = map[string]string{"prefill": "prefill_latency_ms", "decode (token)": "decode_latency_ms", "decode (total)": "decode_duration_ms"}
	// Prefill: batch size / prefill latency, the first token of each
	// sequence per second (not SGLang's prefill_throughput, input tokens per
	// second); decode: batch size / one step's latency.
	tgiRates = map[string]string{"prefill": "prefill_first_tokens_per_s", "decode": "decode_throughput"}
	tgiStats = map[string]string{"average": "mean", "lowest": "min", "highest": "max", "p50": "p50", "p90": "p90", "p99": "p99"}
)

// tgiStart opens the tables at a header row.
func tgiStart(s *Scanner, text []byte) lineReader {
	if text[0] != '|' {
		return nil
	}
	c := cells(text, "|")
	if len(c) < 2 || !(c[0] == "Parameter" && c[1] == "Value" || c[0] == "Step" && c[1] == "Batch Size") {
		return nil
	}
	return &tgiReader{blocks: map[string]*Block{}}
}

func (r *tgiReader) line(s *Scanner, text []byte) bool {
	if len(text) == 0 {
		return true
	}
	if text[0] != '|' {
		s.lrEnd()
		return false
	}
	c := cells(text, "|")
	switch {
	case len(c) == 0 || strings.Trim(strings.Join(c, ""), "-: ") == "":
		return true // the header's rule
	case c[0] == "Parameter" || c[0] == "Step":
		r.cols, r.step = c, ""
		return true
	case len(r.cols) == 2 && r.cols[0] == "Parameter" && len(c) == 2:
		r.params = append(r.params, Label{Label: c[0], Value: c[1], Line: s.line})
		return true
	case len(r.cols) > 2 && len(c) == len(r.cols):
		r.row(s, c)
		return true
	}
	s.lrEnd()
	return false
}

// row reads one step of one batch size.
func (r *tgiReader) row(s *Scanner, c []string) {
	if c[0] == "" {
		c[0] = r.step
	}
	r.step = c[0]
	step := strings.ToLower(c[0])
	base, latency := tgiSteps[step]
	rate := len(r.cols) == 5 // the throughput table has no percentiles
	if rate {
		base, latency = tgiRates[step], false
	}
	b := r.blocks[c[1]]
	if b == nil {
		b = &Block{File: s.name, Line: s.line, EndLine: s.line, Format: FormatTGIBenchmark, Tool: ToolTGI,
			Version: "text-generation-benchmark", Definition: StaticBatch, Metrics: map[string]Metric{}}
		addKeys(b, []string{"batch_size"}, keySpec{}, "Batch Size", c[1], s.line)
		r.blocks[c[1]] = b
	}
	// As guidellm's: the block is its row in the last table; the metrics
	// of its rows in the tables before keep their own lines.
	b.Line, b.EndLine = s.line, s.line
	for i := 2; i < len(c); i++ {
		label := c[0] + " " + r.cols[i]
		b.Labels = append(b.Labels, Label{Label: label, Value: c[i], Line: s.line})
		stat := tgiStats[strings.ToLower(r.cols[i])]
		if base == "" || stat == "" {
			continue
		}
		num, unit, _ := strings.Cut(c[i], " ")
		want := "tokens/secs"
		if latency {
			want = "ms"
		}
		if unit != want {
			b.Problems = append(b.Problems, &SyntaxError{File: s.name, Line: s.line,
				Msg: fmt.Sprintf("text-generation-benchmark %s: %q is not in %s as the benchmark prints it; not read, since its unit cannot be told", label, c[i], want)})
			continue
		}
		keys := []string{stat + "_" + base}
		if stat == "p50" {
			keys = append(keys, "median_"+base)
		}
		spec := keySpec{}
		if latency {
			spec = keySpec{unit: "ms", from: "ms"}
		}
		addKeys(b, keys, spec, label, num, s.line)
	}
}

// end queues one block per batch size, in the order of their last rows.
func (r *tgiReader) end(s *Scanner) {
	blocks := make([]*Block, 0, len(r.blocks))
	for _, b := range r.blocks {
		blocks = append(blocks, b)
	}
	sort.Slice(blocks, func(i, j int) bool { return blocks[i].Line < blocks[j].Line })
	for _, b := range blocks {
		b.Labels = append(append([]Label(nil), r.params...), b.Labels...)
		for _, p := range r.params {
			switch p.Label {
			case "Sequence Length":
				addKeys(b, []string{"mean_input_len"}, keySpec{}, p.Label, p.Value, p.Line)
			case "Decode Length":
				addKeys(b, []string{"mean_output_len"}, keySpec{}, p.Label, p.Value, p.Line)
			}
		}
		s.emit(b)
	}
}
