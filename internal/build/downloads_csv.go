package build

import (
	"strconv"

	"github.com/perflab/perflab/internal/benchlog"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The CSV downloads are written without reflection, from the same table of
// columns as the JSON downloads (recordFields): gocsv.Marshal reads every
// value through reflection, boxing it in an interface, formats integers with
// fmt and copies everything through a bufio.Writer per file.
// appendRecordsCSV writes the bytes gocsv.Marshal writes through
// encoding/csv's Writer with its defaults (comma ',', LF line ends), once
// every text cell went through benchlog.SpreadsheetText; the
// tests compare the two on the repository's results, on tricky strings and
// by fuzzing.

// csvHeader is the header line of every CSV download, newline included.
var csvHeader = func() string {
	var b []byte
	for j := range recordFields {
		if j > 0 {
			b = append(b, ',')
		}
		b = appendCSVField(b, recordFields[j].name)
	}
	return string(append(b, '\n'))
}()

// appendRecordsCSV appends the header line and one line per row. Strings and
// Numbers are written as they are, quoted as encoding/csv quotes them; ints
// in decimal, bools as true or false, as gocsv formats them.
func appendRecordsCSV(dst []byte, rows []Record) []byte {
	dst = growCSV(dst, rows)
	dst = append(dst, csvHeader...)
	for i := range rows {
		r := &rows[i]
		for j := range recordFields {
			f := &recordFields[j]
			if j > 0 {
				dst = append(dst, ',')
			}
			switch {
			case f.str != nil:
				dst = appendCSVField(dst, benchlog.SpreadsheetText(f.str(r)))
			case f.num != nil:
				dst = appendCSVField(dst, string(f.num(r)))
			case f.integer != nil:
				dst = strconv.AppendInt(dst, int64(f.integer(r)), 10)
			default:
				dst = strconv.AppendBool(dst, f.flag(r))
			}
		}
		dst = append(dst, '\n')
	}
	return dst
}

// growCSV makes room for the header and for rows whose quoted fields hold no
// quote, so that the output is usually built in one allocation.
func growCSV(dst []byte, rows []Record) []byte {
	fixed := len(recordFields) // the commas and the newline
	for j := range recordFields {
		if f := &recordFields[j]; f.str == nil && f.num == nil {
			fixed += 20 // the widest int64, "false" fits
		} else {
			fixed += 2 // quotes
		}
	}
	n := len(csvHeader) + len(rows)*fixed + textLen(rows)
	if cap(dst)-len(dst) < n {
		dst = append(make([]byte, 0, len(dst)+n), dst...)
	}
	return dst
}

// appendCSVField appends s as encoding/csv's Writer writes a field with
// Comma ',' and UseCRLF false: quoted when csvNeedsQuotes says so, with each
// quote doubled and CR and LF kept as they are.
func appendCSVField(dst []byte, s string) []byte {
	if !csvNeedsQuotes(s) {
		return append(dst, s...)
	}
	dst = append(dst, '"')
	for {
		i := strings.IndexByte(s, '"')
		if i < 0 {
			break
		}
		dst = append(dst, s[:i+1]...)
		dst = append(dst, '"')
		s = s[i+1:]
	}
	dst = append(dst, s...)
	return append(dst, '"')
}

// csvNeedsQuotes is encoding/csv's fieldNeedsQuotes for Comma ',' (Go's
// src/encoding/csv/writer.go): never the empty field; the field `\.`
// (Postgres' end of data); a field with a comma, quote, CR or LF; a field
// whose first rune is a Unicode space.
func csvNeedsQuotes(s string) bool {
	if s == "" {
		return false
	}
	if s == `\.` {
		return true
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == ',' || c == '"' || c == '\r' || c == '\n' {
			return true
		}
	}
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsSpace(r)
}
