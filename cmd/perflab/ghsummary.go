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

// writeBoundedTable writes a Markdown table, header and rows, within
// summaryLimit bytes; rows that do not fit are counted in a last line that
// points to the job log, where the caller prints them all. It returns the
// number of rows left out.
func writeBoundedTable(w io.Writer, header string, rows []string, noun string) int {
	budget := summaryLimit - len(header) - 200 // the last line
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
	if rest := len(rows) - shown; rest > 0 {
		fmt.Fprintf(&b, "\n%d more %s: see the full list in the job log.\n", rest, noun)
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
