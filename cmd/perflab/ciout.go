package main

import (
	"bytes"
	"fmt"
	"io"
	"unicode"
	"unicode/utf8"
)

// A CI runner reads every line a step prints: on GitHub Actions a line
// that starts with "::" (after blanks) is a workflow command, and "##["
// anywhere in a line an older form of one; a carriage return starts a
// line as a newline does. A file name or a value of a pull request that
// holds "\n::error file=README.md,line=1::x" must not become an
// annotation, so everything perflab prints passes through one guard
// (commandGuard) whose one helper, neutralise, breaks each such line.
// Only check --format github writes workflow commands on purpose, through
// commandOutput, with every value escaped (ghEscape, ghEscapeProp).

// commandGuard passes what is written to w on, neutralising each line.
type commandGuard struct {
	w       io.Writer
	partial []byte // the start of a line not yet ended
	err     error
}

func newGuard(w io.Writer) *commandGuard { return &commandGuard{w: w} }

func (g *commandGuard) Write(p []byte) (int, error) {
	if g.err != nil {
		return 0, g.err
	}
	g.partial = append(g.partial, p...)
	end := bytes.LastIndexAny(g.partial, "\r\n") // a progress line ends in CR
	if end < 0 {
		return len(p), nil
	}
	if _, err := g.w.Write(neutralise(g.partial[:end+1])); err != nil {
		g.err = err
		return 0, err
	}
	g.partial = append(g.partial[:0], g.partial[end+1:]...)
	return len(p), nil
}

// Flush writes the end of an unfinished last line.
func (g *commandGuard) Flush() error {
	if g.err == nil && len(g.partial) > 0 {
		_, g.err = g.w.Write(neutralise(g.partial))
		g.partial = g.partial[:0]
	}
	return g.err
}

// commandOutput is where workflow commands are written on purpose: past
// the guard, when w is one.
func commandOutput(w io.Writer) io.Writer {
	if g, ok := w.(*commandGuard); ok {
		g.Flush()
		return g.w
	}
	return w
}

// neutralise returns text with every line (ended by LF, CR or CRLF) that a
// runner would read as a workflow command made plain text: "> " before a
// line whose first non-blank characters are "::", and a backslash in each
// "##[" and "##vso[". Other lines are left byte for byte.
func neutralise(text []byte) []byte {
	if !bytes.Contains(text, []byte("::")) && !bytes.Contains(text, []byte("##")) {
		return text
	}
	var out []byte
	for len(text) > 0 {
		end := bytes.IndexAny(text, "\r\n")
		if end < 0 {
			end = len(text)
		} else {
			end++
		}
		line := text[:end]
		text = text[end:]
		if bytes.HasPrefix(bytes.TrimLeftFunc(line, unicode.IsSpace), []byte("::")) {
			out = append(out, "> "...)
		}
		line = bytes.ReplaceAll(line, []byte("##["), []byte(`##\[`))
		line = bytes.ReplaceAll(line, []byte("##vso["), []byte(`##vso\[`))
		out = append(out, line...)
	}
	return out
}

// ciText is neutralise for one message printed outside a guard.
func ciText(s string) string {
	if !utf8.ValidString(s) {
		s = string(bytes.ToValidUTF8([]byte(s), []byte("\ufffd")))
	}
	return string(neutralise([]byte(s)))
}

// printError prints the error that ends perflab.
func printError(w io.Writer, err error) {
	fmt.Fprintln(w, ciText("perflab: "+err.Error()))
}
