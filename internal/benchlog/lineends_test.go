package benchlog

import (
	"errors"
	"strings"
	"testing"
)

// TestCROnlyLineEnds: a log with carriage returns and no line feed is a
// SyntaxError at line 1, however long; line feeds, CRLF and a progress
// bar redrawn with \r inside a line are read as before.
func TestCROnlyLineEnds(t *testing.T) {
	block := "============ Serving Benchmark Result ============\nSuccessful requests:                     10\n"
	for _, c := range []struct {
		name, log string
		refused   bool
	}{
		{"LF", block, false},
		{"CRLF", strings.ReplaceAll(block, "\n", "\r\n"), false},
		{"progress bar", "10%\r50%\r100%\n" + block, false},
		{"CR only", strings.ReplaceAll(block, "\n", "\r"), true},
		{"long CR only", strings.Repeat("INFO waiting\r", 100000) + strings.ReplaceAll(block, "\n", "\r"), true},
	} {
		var blocks int
		err := Each("x.log", strings.NewReader(c.log), func(*Block) error { blocks++; return nil })
		var se *SyntaxError
		refused := errors.As(err, &se) && se.Msg == crOnlyMessage && se.Line == 1 && se.File == "x.log"
		if refused != c.refused {
			t.Errorf("%s: error %v, refused %v, want %v", c.name, err, refused, c.refused)
		}
		if c.refused && blocks != 0 {
			t.Errorf("%s: %d blocks handed out before the refusal", c.name, blocks)
		}
	}
}
