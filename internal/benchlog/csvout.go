package benchlog

import (
	"encoding/csv"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/gocarina/gocsv"
)

// csvColumns are the fixed first columns written by WriteCSV.
var csvColumns = []string{"file", "line", "end_line", "format", "tool", "version", "definition", "truncated", "failure"}

// scalarOrder is the order of FORMATS.md section 6 for keys that are not
// latency statistics.
var scalarOrder = []string{
	"num_prompts", "completed", "failed", "duration", "total_input_tokens", "total_output_tokens",
	"total_output_tokens_retokenized", "request_throughput", "request_goodput", "output_throughput",
	"input_throughput", "total_token_throughput", "max_output_tokens_per_s", "max_concurrent_requests",
	"avg_concurrency", "request_rate", "max_concurrency", "burstiness",
}

// statOrder orders the metrics and statistics of *_ms keys.
var (
	statMetrics = []string{"ttft", "ttst", "ttfot", "tpot", "itl", "e2el"}
	statNamesOr = []string{"mean", "median", "std", "min", "max"}
)

// keyRank sorts canonical keys: section 6 scalars, then the statistics of
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
// FORMATS.md section 6 (counts, duration, tokens, throughputs, then the
// statistics of TTFT, TTST, TPOT, ITL, E2EL), other keys alphabetically.
// A block without a key has an empty cell; values are plain decimals.
func WriteCSV(w io.Writer, blocks []Block) error {
	keySet := map[string]bool{}
	for _, b := range blocks {
		for k := range b.Metrics {
			keySet[k] = true
		}
	}
	keys := make([]string, 0, len(keySet))
	for k := range keySet {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, keyRank)
	cw := gocsv.NewSafeCSVWriter(csv.NewWriter(w))
	header := slices.Clone(csvColumns)
	for _, k := range keys {
		header = append(header, SpreadsheetText(k))
	}
	if err := cw.Write(header); err != nil {
		return err
	}
	for _, b := range blocks {
		row := []string{SpreadsheetText(b.File), strconv.Itoa(b.Line), strconv.Itoa(b.EndLine), SpreadsheetText(string(b.Format)),
			SpreadsheetText(b.Tool), SpreadsheetText(b.Version), SpreadsheetText(string(b.Definition)), strconv.FormatBool(b.Truncated), ""}
		if b.Failure != nil {
			row[8] = SpreadsheetText(b.Failure.Kind + ": " + b.Failure.Message)
		}
		for _, k := range keys {
			cell := ""
			if m, ok := b.Metrics[k]; ok {
				cell = strconv.FormatFloat(m.Value, 'f', -1, 64)
			}
			row = append(row, cell)
		}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// SpreadsheetText returns a CSV text cell that a spreadsheet will not run
// as a formula: a cell starting with = + - @, a tab or a carriage return
// gets a leading apostrophe (OWASP's advice against CSV injection). Only
// text goes through it; numbers, negative ones included, stay numbers.
func SpreadsheetText(s string) string {
	if s != "" && strings.IndexByte("=+-@\t\r", s[0]) >= 0 {
		return "'" + s
	}
	return s
}
