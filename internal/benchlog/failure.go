package benchlog

import "bytes"

// failureAt reads a failed-run line: a Python
// exception line "RuntimeError: CUDA out of memory" (also behind "# " or with
// a module, "torch.OutOfMemoryError: ..."), a repr ValueError("..."), or a
// comment "# Crash ...". line is the raw line; it is cheap on other lines
// (one identifier is read).
func failureAt(line []byte) (kind, msg string, ok bool) {
	i := 0
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	hash := false
	for i < len(line) && line[i] == '#' {
		hash = true
		i++
		for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
			i++
		}
	}
	start := i
	for i < len(line) && isIdent(line[i]) {
		i++
	}
	name := line[start:i]
	rest := bytes.TrimRight(line[i:], " \t\r")
	if hash && (string(name) == "Crash" || string(name) == "Crashed") {
		return "Crash", string(bytes.TrimLeft(bytes.TrimLeft(rest, ":"), " \t")), true
	}
	if !isExceptionName(name) {
		return "", "", false
	}
	switch {
	case len(rest) == 0:
		return string(name), "", true
	case rest[0] == ':' && (len(rest) == 1 || rest[1] == ' ' || rest[1] == '\t'):
		return string(name), string(bytes.TrimSpace(rest[1:])), true
	case rest[0] == '(' && rest[len(rest)-1] == ')':
		inner := bytes.TrimSpace(rest[1 : len(rest)-1])
		if n := len(inner); n >= 2 && (inner[0] == '"' || inner[0] == '\'') && inner[n-1] == inner[0] {
			inner = inner[1 : n-1]
		}
		return string(name), string(inner), true
	}
	return "", "", false
}

// isExceptionName reports whether name looks like a Python exception class,
// possibly with its module: ValueError, torch.OutOfMemoryError,
// asyncio.exceptions.CancelledError, KeyboardInterrupt. A bare "Error" or
// "Exception" (a log level, "Error type: ...") is not one.
func isExceptionName(name []byte) bool {
	if len(name) == 0 || !isLetter(name[0]) || name[len(name)-1] == '.' {
		return false
	}
	cls := name
	if j := bytes.LastIndexByte(name, '.'); j >= 0 {
		cls = name[j+1:]
	}
	if len(cls) == 0 || cls[0] < 'A' || cls[0] > 'Z' {
		return false
	}
	for _, suf := range [...]string{"Error", "Exception", "Interrupt", "Exit"} {
		if len(cls) > len(suf) && bytes.HasSuffix(cls, []byte(suf)) {
			return true
		}
	}
	return false
}

func isIdent(c byte) bool {
	return isLetter(c) || c >= '0' && c <= '9' || c == '_' || c == '.'
}

// failureBlock makes the block of a failed run read at the current line.
func (s *Scanner) failureBlock(kind, msg string) *Block {
	return &Block{File: s.name, Line: s.line, EndLine: s.line, Format: FormatError,
		Metrics: map[string]Metric{}, Labels: []Label{{Label: kind, Value: msg, Line: s.line}},
		Failure: &Failure{Kind: kind, Message: msg}}
}
