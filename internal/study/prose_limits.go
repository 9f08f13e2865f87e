package study

import (
	"fmt"
	"strings"
)

// Bounds on the shape of prose. goldmark's work grows faster than the
// text past them: 200,000 nested "> " took 57 s, and a table's cells are
// its columns times its rows (a 44 KiB table of 10,000 columns made ten
// million cells and ran out of memory). Real prose stays far below.
const (
	MaxProseNesting = 32   // block quotes and list items, one inside another
	MaxTableColumns = 64   // columns of a table
	MaxTableCells   = 4096 // columns times body rows of a table
)

// proseLimits follows a content file's Markdown line by line and keeps
// its nesting and tables within the bounds: a line past one is reported
// and changed so that goldmark reads it as plain text.
type proseLimits struct {
	columns int             // of the table the lines are in; 0: not in a table
	cells   int             // of that table so far
	told    map[string]bool // each kind of problem is told once a file
}

// line checks one line; it returns the line to give goldmark and what is
// wrong with the original, or "" when nothing is, or when that was already
// said of an earlier line.
func (p *proseLimits) line(text string) (string, string) {
	out, kind, msg := p.check(text)
	if msg == "" || p.told[kind] {
		return out, ""
	}
	if p.told == nil {
		p.told = map[string]bool{}
	}
	p.told[kind] = true
	return out, msg
}

func (p *proseLimits) check(text string) (out, kind, msg string) {
	if strings.TrimSpace(text) == "" {
		p.columns, p.cells = 0, 0
		return text, "", ""
	}
	depth, rest := containerDepth(text)
	if depth > MaxProseNesting {
		p.columns = 0
		return `\` + strings.TrimLeft(text, " \t"), "nesting", fmt.Sprintf("block quotes and lists are nested %d deep here; the limit is %d: flatten them (the line is shown as text)", depth, MaxProseNesting)
	}
	if p.columns > 0 {
		if p.cells += p.columns; p.cells > MaxTableCells {
			p.columns = 0
			return "", "cells", fmt.Sprintf("this table has more than %d cells (columns times rows): split it (the rows from here on are left out)", MaxTableCells)
		}
		return text, "", ""
	}
	if n := delimiterCells(rest); n > 0 {
		if n > MaxTableColumns {
			return `\` + strings.TrimLeft(text, " \t"), "columns", fmt.Sprintf("this table has %d columns; the limit is %d: split it (it is shown as text)", n, MaxTableColumns)
		}
		p.columns, p.cells = n, 0
	}
	return text, "", ""
}

// containerDepth counts the block quote and list markers a line opens, and
// two columns of indentation as one level (how lists nest across lines),
// and returns the text after them. The spaces after a list marker are the
// item's own; after a quote marker, one space is.
func containerDepth(line string) (int, string) {
	depth, indent := 0, 0
	counted := true // whether the spaces ahead are indentation
	for {
		spaces := 0
		for spaces < len(line) && (line[spaces] == ' ' || line[spaces] == '\t') {
			spaces++
		}
		if counted {
			indent += spaces
		}
		line = line[spaces:]
		n := markerLength(line)
		if n == 0 {
			return depth + indent/2, line
		}
		depth++
		counted = line[0] == '>'
		line = line[n:]
		if counted && strings.HasPrefix(line, " ") {
			line = line[1:]
		}
	}
}

// markerLength is the length of a block quote marker (">") or a list
// marker ("-", "*", "+", "1.", "1)") followed by a space, at the start of
// line, or 0.
func markerLength(line string) int {
	if strings.HasPrefix(line, ">") {
		return 1
	}
	n := 0
	for n < len(line) && n < 9 && line[n] >= '0' && line[n] <= '9' {
		n++
	}
	switch {
	case n > 0 && n < len(line) && (line[n] == '.' || line[n] == ')'):
		n++
	case n == 0 && len(line) > 0 && strings.IndexByte("-*+", line[0]) >= 0:
		n = 1
	default:
		return 0
	}
	if n < len(line) && line[n] != ' ' && line[n] != '\t' {
		return 0
	}
	return n
}

// delimiterCells is the number of cells of a table's delimiter row
// ("| --- | :-: |"), or 0 when line is not one.
func delimiterCells(line string) int {
	line = strings.TrimSpace(line)
	if !strings.Contains(line, "-") || strings.Trim(line, "|-: \t") != "" {
		return 0
	}
	if !strings.Contains(line, "|") {
		return 0 // a thematic break or a setext underline
	}
	line = strings.TrimSuffix(strings.TrimPrefix(line, "|"), "|")
	return strings.Count(line, "|") + 1
}
