package benchlog

import (
	"encoding/csv"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/gocarina/gocsv"

	"github.com/perflab/perflab/internal/plain"
)

// csvColumns are the fixed first columns written by WriteCSV.
var csvColumns = []string{"file", "line", "end_line", "format", "tool", "version", "definition", "truncated", "failure"}

// scalarOrder orders the keys that are not latency statistics: counts,
// duration, tokens, throughputs, then the load a run was given.
var scalarOrder = []string{
	"num_prompts", "completed", "failed", "duration", "total_input_tokens", "total_output_tokens",
	"total_output_tokens_retokenized", "request_throughput", "request_goodput", "output_throughput",
	"input_throughput", "total_token_throughput", "max_output_tokens_per_s", "max_concurrent_requests",
	"avg_concurrency", "request_rate", "max_concurrency", "burstiness",
	// llama-bench (docs/llama-bench.md)
	"pp_tokens_per_s", "std_pp_tokens_per_s", "tg_tokens_per_s", "std_tg_tokens_per_s", "pg_tokens_per_s", "std_pg_tokens_per_s",
}

// statOrder orders the metrics and statistics of *_ms keys.
var (
	statMetrics = []string{"ttft", "ttst", "ttfot", "tpot", "itl", "e2el"}
	statNamesOr = []string{"mean", "median", "std", "min", "max"}
)

// keyRank sorts canonical keys: the scalars of scalarOrder, then the statistics of
// TTFT, TTST, TPOT, ITL, E2EL (mean, median, std, min, max, then
// percentiles in numeric order), then every other key alphabetically.
func keyRank(a, b string) int {
	ra, rb := rankOf(a), rankOf(b)
	if c := slices.Compare(ra, rb); c != 0 {
		return c
	}
	return strings.Compare(a, b)
}

func rankOf(k string) []float64 {
	if i := slices.Index(scalarOrder, k); i >= 0 {
		return []float64{0, float64(i)}
	}
	if st, rest, ok := strings.Cut(k, "_"); ok && strings.HasSuffix(rest, "_ms") {
		m := slices.Index(statMetrics, strings.TrimSuffix(rest, "_ms"))
		if m >= 0 {
			if i := slices.Index(statNamesOr, st); i >= 0 {
				return []float64{1, float64(m), float64(i)}
			}
			if isPercentile(st) {
				p, _ := strconv.ParseFloat(st[1:], 64)
				return []float64{1, float64(m), 10 + p}
			}
		}
	}
	return []float64{2}
}

// WriteCSV writes blocks as CSV (perflab parse --format csv): a header row,
// then one row per block. The columns are file, line, end_line, format,
// tool, version, definition, truncated, failure ("Kind: message"), then one
// column per canonical key that any of the blocks has, in the order of
// keyRank (counts, duration, tokens, throughputs, then the statistics of
// TTFT, TTST, TPOT, ITL, E2EL), other keys alphabetically.
// A block without a key has an empty cell; values are plain decimals.
func WriteCSV(w io.Writer, blocks []Block) error {
	keys := map[string]bool{}
	for _, b := range blocks {
		for k := range b.Metrics {
			keys[k] = true
		}
	}
	cw, err := NewCSVWriter(w, keys)
	if err != nil {
		return err
	}
	for i := range blocks {
		if err := cw.Write(&blocks[i]); err != nil {
			return err
		}
	}
	return cw.Flush()
}

// CSVWriter writes blocks as WriteCSV does, one at a time, once the metric
// keys of every block are known: a caller can read its input twice (keys,
// then rows) instead of holding every block.
type CSVWriter struct {
	cw   *gocsv.SafeCSVWriter
	keys []string
	row  []string
}

// NewCSVWriter writes the header row for the given metric keys.
func NewCSVWriter(w io.Writer, keySet map[string]bool) (*CSVWriter, error) {
	keys := make([]string, 0, len(keySet))
	for k := range keySet {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, keyRank)
	c := &CSVWriter{cw: gocsv.NewSafeCSVWriter(csv.NewWriter(w)), keys: keys}
	header := slices.Clone(csvColumns)
	for _, k := range keys {
		header = append(header, SpreadsheetText(k))
	}
	return c, c.cw.Write(header)
}

// Write writes one block's row.
func (c *CSVWriter) Write(b *Block) error {
	row := append(c.row[:0], SpreadsheetText(b.File), strconv.Itoa(b.Line), strconv.Itoa(b.EndLine), SpreadsheetText(string(b.Format)),
		SpreadsheetText(b.Tool), SpreadsheetText(b.Version), SpreadsheetText(string(b.Definition)), strconv.FormatBool(b.Truncated), "")
	if b.Failure != nil {
		row[8] = SpreadsheetText(b.Failure.Kind + ": " + b.Failure.Message)
	}
	for _, k := range c.keys {
		cell := ""
		if m, ok := b.Metrics[k]; ok {
			cell = strconv.FormatFloat(m.Value, 'f', -1, 64)
		}
		row = append(row, cell)
	}
	c.row = row
	return c.cw.Write(row)
}

// Flush writes what is buffered and returns the first error.
func (c *CSVWriter) Flush() error {
	c.cw.Flush()
	return c.cw.Error()
}

// SpreadsheetText returns a CSV text cell that a spreadsheet will not run
// as a formula: a cell starting with = + - @, a tab or a line break
// gets a leading apostrophe (OWASP's advice against CSV injection). Only
// text goes through it; numbers, negative ones included, stay numbers.
// Control and bidirectional characters are made visible first, and a
// carriage return becomes a line feed (plain.Block), so a cell cannot hide
// or reorder what it shows.
func SpreadsheetText(s string) string {
	s = plain.Block(s)
	if s != "" && strings.IndexByte("=+-@\t\r\n", s[0]) >= 0 {
		return "'" + s
	}
	return s
}
