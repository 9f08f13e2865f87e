package benchlog

import (
	"bytes"
	"errors"
	"io"
)

// crOnlyMessage is what parse and check both say of a log whose lines end
// in a carriage return alone (classic Mac OS), which would otherwise be
// read as one line.
const crOnlyMessage = `the lines of this log end in a carriage return alone (\r, no \n), so it reads as one line: save it with \n or \r\n line ends (e.g. tr '\r' '\n'), as the benchmark printed it`

// errCROnly is lineEnds' read error; Each makes it a SyntaxError.
var errCROnly = errors.New(crOnlyMessage)

// lineEnds watches the line ends of what it reads: at the end of an input
// with carriage returns and no line feed at all, it fails with errCROnly
// instead of io.EOF, before the scanner ends its one line.
type lineEnds struct {
	r      io.Reader
	cr, lf bool
}

func (l *lineEnds) Len() int {
	if n, ok := l.r.(interface{ Len() int }); ok {
		return n.Len()
	}
	return readBufSize
}

func (l *lineEnds) Read(p []byte) (int, error) {
	n, err := l.r.Read(p)
	if !l.lf {
		l.lf = bytes.IndexByte(p[:n], '\n') >= 0
		l.cr = l.cr || bytes.IndexByte(p[:n], '\r') >= 0
	}
	if err == io.EOF && l.cr && !l.lf {
		return n, errCROnly
	}
	return n, err
}
