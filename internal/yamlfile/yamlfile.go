// Package yamlfile is the one place perflab decodes the YAML files a pull
// request can change: study.yaml, run.yaml, history.yaml, prices.yaml, the
// front matter of content files, locales/*.yaml and the glossary.
//
// A YAML file must mean what a reviewer reads in it, whichever YAML reader
// reads it, so on top of yaml.v3's syntax it refuses, each with its line:
// a file that is not UTF-8 (a byte-order mark, UTF-16 or UTF-32, which git
// shows as "binary files differ"); a second document after ---, which
// every loader would silently drop; and plain scalars that YAML readers
// disagree on or that do not read as written: leading-zero integers (042
// is 34 to yaml.v3), 0x, 0o and 0b numbers, 1_000, sexagesimal 1:30,
// .inf and .nan, and the YAML 1.1 booleans yes/no/on/off/y/n. Quoting a
// value keeps it as text. HiddenEscapes finds the escapes of
// double-quoted values that write a bidirectional control or an
// invisible character ("\u202E"), for check to refuse: a build shows
// such characters (package plain) and does not fail on them.
//
// It does not know any file's fields; its callers check those.
package yamlfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/perflab/perflab/internal/plain"
)

// Error is a problem of a YAML file at a 1-based line.
type Error struct {
	Line int
	Msg  string
}

func (e *Error) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

// Parse decodes data, the whole of one YAML file, and returns its top
// node, or every problem found: nil and none when the file holds no
// document. A file with problems gives no node.
func Parse(data []byte) (*yaml.Node, []*Error) {
	if err := encoding(data); err != nil {
		return nil, []*Error{err}
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, nil
		}
		line, msg := yamlError(data, err)
		return nil, []*Error{{line, "invalid YAML: " + msg}}
	}
	var second yaml.Node
	switch err := dec.Decode(&second); {
	case errors.Is(err, io.EOF):
	case err != nil:
		line, msg := yamlError(data, err)
		return nil, []*Error{{line, "invalid YAML: " + msg}}
	default:
		return nil, []*Error{{secondDocumentLine(data, &second), "a second YAML document starts here (after ---): perflab reads the first document of a file only and would ignore this one; remove the --- line, or move what follows into a file of its own"}}
	}
	if len(doc.Content) == 0 {
		return nil, nil
	}
	var errs []*Error
	asWritten(doc.Content[0], false, &errs)
	if errs != nil {
		return nil, errs
	}
	return doc.Content[0], nil
}

// Unmarshal is Parse, then decodes the top node into v; an empty file
// leaves v as it is.
func Unmarshal(data []byte, v any) error {
	n, errs := Parse(data)
	if errs != nil {
		return errs[0]
	}
	if n == nil {
		return nil
	}
	if err := n.Decode(v); err != nil {
		return &Error{n.Line, yamlMessage(err)}
	}
	return nil
}

// encoding refuses a file that is not UTF-8 without a byte-order mark.
func encoding(data []byte) *Error {
	const fix = ": save it as UTF-8 without a byte-order mark (in most editors: Save with encoding, UTF-8)"
	switch {
	case bytes.HasPrefix(data, []byte{0xef, 0xbb, 0xbf}):
		return &Error{1, "the file starts with a UTF-8 byte-order mark (U+FEFF), which diffs do not show" + fix}
	case bytes.HasPrefix(data, []byte{0, 0, 0xfe, 0xff}), bytes.HasPrefix(data, []byte{0xff, 0xfe, 0, 0}):
		return &Error{1, "the file is UTF-32, which git shows as a binary file, so a reviewer sees none of it" + fix}
	case bytes.HasPrefix(data, []byte{0xfe, 0xff}), bytes.HasPrefix(data, []byte{0xff, 0xfe}):
		return &Error{1, "the file is UTF-16, which git shows as a binary file, so a reviewer sees none of it" + fix}
	case len(data) >= 2 && (data[0] == 0 || data[1] == 0):
		return &Error{1, "the file starts with a NUL byte: it is UTF-16 or UTF-32 without a byte-order mark, or not text" + fix}
	}
	if utf8.Valid(data) {
		return nil
	}
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size <= 1 {
			line := 1 + bytes.Count(data[:i], []byte{'\n'})
			col := i - bytes.LastIndexByte(data[:i], '\n')
			return &Error{line, fmt.Sprintf("byte 0x%02x at column %d is not UTF-8"+fix, data[i], col)}
		}
		i += size
	}
	return nil
}

// secondDocumentLine is the line of the --- that starts the second
// document: the first line from the top that is a document marker and
// does not open the first document. yaml.v3 gives only the line of the
// second document's first node, the fallback.
func secondDocumentLine(data []byte, second *yaml.Node) int {
	seenContent := false
	for i, line := range bytes.Split(data, []byte{'\n'}) {
		line = bytes.TrimRight(line, "\r")
		marker := bytes.Equal(line, []byte("---")) || bytes.HasPrefix(line, []byte("--- ")) || bytes.HasPrefix(line, []byte("---\t"))
		if marker && seenContent {
			return i + 1
		}
		if t := bytes.TrimSpace(line); len(t) > 0 && t[0] != '#' && !marker && !bytes.HasPrefix(t, []byte("%")) {
			seenContent = true
		} else if marker && !seenContent {
			seenContent = true // the first document's own opening marker
		}
	}
	if second.Line > 0 {
		return second.Line
	}
	return 1
}

// surprises are plain scalars whose meaning depends on the YAML reader, or
// that yaml.v3 does not read as written, each with what to do instead.
var surprises = []struct {
	re  *regexp.Regexp
	msg string
}{
	{regexp.MustCompile(`^[-+]?0[0-9_]+$`), "%q starts with 0, which YAML reads as an octal number (042 is 34): write it without the leading zeros, or quote it if it is text"},
	{regexp.MustCompile(`^[-+]?0[xX][0-9a-fA-F_]+$`), "%q is a hexadecimal number to YAML: write it in decimal, or quote it if it is text"},
	{regexp.MustCompile(`^[-+]?0[oO][0-7_]+$`), "%q is an octal number to YAML: write it in decimal, or quote it if it is text"},
	{regexp.MustCompile(`^[-+]?0[bB][01_]+$`), "%q is a binary number to YAML: write it in decimal, or quote it if it is text"},
	{regexp.MustCompile(`^[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+(\.[0-9_]*)?$`), "%q is a number in base 60 to YAML 1.1 readers (1:30 is 90) and text to others: write the number itself, or quote it if it is text"},
	{regexp.MustCompile(`^[-+]?[0-9.][0-9.]*_[0-9_.]*([eE][-+]?[0-9]+)?$`), "%q is a number to some YAML readers and text to others: write it without _ (1000, not 1_000), or quote it if it is text"},
	{regexp.MustCompile(`^[-+]?\.(inf|Inf|INF)$`), "%q is infinity to YAML: write a finite number, or quote it if it is text"},
	{regexp.MustCompile(`^\.(nan|NaN|NAN)$`), "%q is not-a-number to YAML: write a number, or quote it if it is text"},
	{regexp.MustCompile(`^(y|Y|yes|Yes|YES|n|N|no|No|NO|on|On|ON|off|Off|OFF)$`), "%q is a boolean to YAML 1.1 readers and text to YAML 1.2 ones: write true or false, or quote it if it is text"},
}

// maySurprise holds the bytes a surprise can start with.
var maySurprise = func() (b [256]bool) {
	for _, c := range []byte("+-.0123456789yYnNoO") {
		b[c] = true
	}
	return b
}()

// asWritten adds a problem for each plain scalar value under n that is
// one of the surprises. A mapping's keys are names, matched as text: only
// values are looked at. A quoted or block scalar, or one tagged !!str, is
// text.
func asWritten(n *yaml.Node, key bool, errs *[]*Error) {
	switch n.Kind {
	case yaml.ScalarNode:
		if key || n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0 ||
			n.Style&yaml.TaggedStyle != 0 && n.ShortTag() == "!!str" {
			return
		}
		if n.Value == "" || !maySurprise[n.Value[0]] {
			return // most values: nine regular expressions are not run
		}
		for _, s := range surprises {
			if s.re.MatchString(n.Value) {
				*errs = append(*errs, &Error{n.Line, fmt.Sprintf(s.msg, n.Value)})
				return
			}
		}
	case yaml.MappingNode:
		for i, c := range n.Content {
			asWritten(c, i%2 == 0, errs)
		}
	default:
		for _, c := range n.Content {
			asWritten(c, false, errs)
		}
	}
}

// HiddenEscapes finds each double-quoted value of data whose escapes
// ("\u202E", "\u200B") write a bidirectional control or an invisible
// character (plain.Hidden): the file shows the escape, a page its effect.
// Each is given at the value's line and column with the rune it writes;
// a file that does not parse gives none (Parse reports it). A character
// written as itself is not an escape, and is not listed.
func HiddenEscapes(data []byte) []Escape {
	if !bytes.Contains(data, []byte(`\`)) {
		return nil // no escape at all: most files
	}
	var doc yaml.Node
	if yaml.Unmarshal(data, &doc) != nil {
		return nil
	}
	var out []Escape
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		if n.Kind == yaml.ScalarNode && n.Style&yaml.DoubleQuotedStyle != 0 {
			for _, r := range n.Value {
				if plain.Hidden(r) && !bytes.ContainsRune(data, r) {
					out = append(out, Escape{n.Line, n.Column, r})
					return
				}
			}
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(&doc)
	return out
}

// Escape is a value whose escapes write Rune, at the value's line and
// column (1-based).
type Escape struct {
	Line, Column int
	Rune         rune
}
