package check

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/unicode/runenames"

	"github.com/perflab/perflab/internal/plain"
	"github.com/perflab/perflab/internal/yamlfile"
)

// RuleInvisible: prose, locale text and the YAML files of a study
// (commands, names, reasons) hold no bidirectional control and no
// invisible character (plain.Hidden). U+202E around "2054.21" makes a
// page show "12.4502" while every check reads 2054.21; a zero-width space
// splits what looks like one word or figure. Error.
const RuleInvisible = "invisible-character"

// maxInvisible bounds the problems listed for one file: a file full of
// zero-width spaces is one fix, not thousands of lines of output.
const maxInvisible = 20

// Invisible reports each hidden character of text, the bytes of file,
// and each HTML character reference to one ("&#x202E;", "&lrm;"), which
// Markdown turns into the character, at its line and column (in
// characters, counted from 1).
func Invisible(file, text string) []Diagnostic {
	refs, refRunes := plain.HiddenRefs(text)
	if len(refs) == 0 && strings.IndexFunc(text, plain.Hidden) < 0 {
		return nil
	}
	var out []Diagnostic
	more := 0
	add := func(line, col int, msg string) {
		if len(out) == maxInvisible {
			more++
			return
		}
		out = append(out, Diagnostic{Rule: RuleInvisible, Severity: Error, File: file, Line: line, Column: col,
			Message: msg + ": delete it (an editor that shows invisible characters, or retyping the line, finds it)"})
	}
	line, col := 1, 0
	for i, r := range text {
		col++
		if r == '\n' {
			line, col = line+1, 0
			continue
		}
		if len(refs) > 0 && refs[0][0] == i {
			add(line, col, fmt.Sprintf("%s writes %s at column %d, which %s", text[i:refs[0][1]], RuneName(refRunes[0]), col, hiddenEffect(refRunes[0])))
			refs, refRunes = refs[1:], refRunes[1:]
		}
		if plain.Hidden(r) {
			add(line, col, fmt.Sprintf("%s at column %d %s", RuneName(r), col, hiddenEffect(r)))
		}
	}
	if more > 0 {
		out = append(out, Diagnostic{Rule: RuleInvisible, Severity: Error, File: file, Line: 1,
			Message: fmt.Sprintf("%d more bidirectional or invisible characters in this file: remove every one", more)})
	}
	return out
}

// InvisibleYAML is Invisible for a YAML file, where a double-quoted
// value can also write a hidden character with an escape ("\u202E"),
// reported at the value.
func InvisibleYAML(file string, data []byte) []Diagnostic {
	out := Invisible(file, string(data))
	for _, e := range yamlfile.HiddenEscapes(data) {
		out = append(out, Diagnostic{Rule: RuleInvisible, Severity: Error, File: file, Line: e.Line, Column: e.Column,
			Message: fmt.Sprintf("the value at column %d writes %s with an escape, which %s: delete it (the escape in the quoted value)", e.Column, RuneName(e.Rune), hiddenEffect(e.Rune))})
	}
	return out
}

// RuneName names a code point as "U+202E RIGHT-TO-LEFT OVERRIDE".
func RuneName(r rune) string {
	if name := runenames.Name(r); name != "" && utf8.ValidRune(r) {
		return fmt.Sprintf("U+%04X %s", r, name)
	}
	return fmt.Sprintf("U+%04X", r)
}

// hiddenEffect says what a hidden character does to the text around it.
func hiddenEffect(r rune) string {
	switch {
	case r == 0x061c, r == 0x200e, r == 0x200f, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return "reorders how the text around it is displayed, so a reader sees other text (a figure reversed) than every check reads"
	case r == 0xfeff:
		return "is an invisible byte-order mark inside the text"
	default:
		return "is invisible: it splits or joins what a reader sees as one word or figure"
	}
}
