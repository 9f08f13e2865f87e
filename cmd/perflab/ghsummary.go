package main

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// summaryLimit bounds what perflab adds to a GitHub job summary: GitHub
// drops a step's summary over 1 MiB whole, so the table stops well before.
const summaryLimit = 256 << 10

// cellLimit bounds one cell of such a table: a 300 KiB command must not
// fill the summary alone.
const cellLimit = 1000

// logLimit bounds the list of every row that perflab prints to the job
// log when a job summary is cut: summary and log together stay under
// 1 MiB, however a workflow captures them.
const logLimit = 512 << 10

// writeBoundedTable writes a Markdown table, header and rows, within
// summaryLimit bytes; rows that do not fit are counted in a last line that
// points to the job log, where the caller prints them (writeLogTable). It
// returns the number of rows left out.
func writeBoundedTable(w io.Writer, header string, rows []string, noun string) int {
	return writeTableWithin(w, header, rows, summaryLimit, func(n int) string {
		return fmt.Sprintf("%d more %s: see the full list in the job log.", n, noun)
	})
}

// writeLogTable writes the rows a job summary left out to the job log,
// within logLimit bytes.
func writeLogTable(w io.Writer, header string, rows []string, noun string) {
	writeTableWithin(w, header, rows, logLimit, func(n int) string {
		return fmt.Sprintf("%d more %s not shown.", n, noun)
	})
}

// writeTableWithin writes a Markdown table within limit bytes, its last
// line, rest, saying how many rows did not fit; it returns that number.
func writeTableWithin(w io.Writer, header string, rows []string, limit int, rest func(int) string) int {
	budget := limit - len(header) - 200 // the last line
	var b strings.Builder
	b.WriteString(header)
	shown := 0
	for _, row := range rows {
		if len(row)+1 > budget {
			break
		}
		budget -= len(row) + 1
		b.WriteString(row)
		b.WriteByte('\n')
		shown++
	}
	if n := len(rows) - shown; n > 0 {
		fmt.Fprintf(&b, "\n%s\n", rest(n))
	}
	io.WriteString(w, b.String())
	return len(rows) - shown
}

// cutCell cuts a cell's text at cellLimit bytes, on a character boundary,
// and marks the cut.
func cutCell(s string) string {
	if len(s) <= cellLimit {
		return s
	}
	cut := cellLimit
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + " …"
}
