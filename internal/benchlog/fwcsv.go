package benchlog

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"strings"
)

// llm_bench's --summary-file (fw-ai/benchmark llm_bench/load_test.py,
// 2023-11 on) appends the exit Summary's entries as one CSV row per run,
// under a header written when the file is new: "Provider,Model,Prompt
// Tokens,...,Qps,P50 Time To First Token,...". Each row is a block, read
// as the printed Summary (fireworks.go).

// isFWSummaryCSV reports whether a first line is that header.
func isFWSummaryCSV(line []byte) bool {
	return hasPrefixFold(line, "provider,model,") && bytes.Contains(line, []byte("Total Latency"))
}

// scanFWCSV reads the whole file.
func (s *Scanner) scanFWCSV() { s.scanCSVRows(isFWSummaryCSV, s.fwRow) }

// scanCSVRows reads a results file of one header and a run a row: a
// header met again starts over (another run, or another release, wrote
// to the same file), and a row csv cannot read is left, not guessed.
func (s *Scanner) scanCSVRows(isHeader func([]byte) bool, row func(header, rec []string)) {
	var header []string
	for {
		line, long, _, err := s.readLine()
		if err != nil {
			if err != io.EOF {
				s.err = fmt.Errorf("%s:%d: %w", s.name, s.line+1, err)
			}
			break
		}
		text := bytes.TrimSpace(bytes.TrimPrefix(line, bom))
		if long || len(text) == 0 {
			continue
		}
		rec, err := csv.NewReader(bytes.NewReader(text)).Read()
		if err != nil {
			continue
		}
		if header == nil || isHeader(text) {
			header = rec
			continue
		}
		row(header, rec)
	}
	s.eof = true
}

// rowWidthWrong emits b with a problem when a row's fields do not match
// its header's: such a row is not read, never matched column by guess.
func (s *Scanner) rowWidthWrong(b *Block, what string, header, rec []string) bool {
	if len(rec) == len(header) {
		return false
	}
	b.Problems = append(b.Problems, &SyntaxError{File: s.name, Line: s.line,
		Msg: fmt.Sprintf("%s row has %d fields, its header %d; not read", what, len(rec), len(header))})
	s.emit(b)
	return true
}

// fwRow reads one run.
func (s *Scanner) fwRow(header, rec []string) {
	b := &Block{File: s.name, Line: s.line, EndLine: s.line, Format: FormatFireworksCSV, Tool: ToolFireworksBench,
		Version: "llm_bench load_test.py --summary-file", Definition: CountOverDuration, Metrics: map[string]Metric{}}
	if s.rowWidthWrong(b, "llm_bench summary", header, rec) {
		return
	}
	for i, label := range header {
		val := strings.TrimSpace(rec[i])
		b.Labels = append(b.Labels, Label{Label: label, Value: val, Line: s.line})
		if val != "" {
			fwValue(b, normLabel([]byte(label)), label, val, s.line)
		}
	}
	if _, ok := b.Metrics["mean_e2el_ms"]; !ok {
		return
	}
	unitIdentities(b, "llm_bench")
	s.emit(b)
}
