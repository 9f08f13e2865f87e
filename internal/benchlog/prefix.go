package benchlog

import "bytes"

// A log collector or a paste can put the same kind of prefix before every
// line of a benchmark's output: a Markdown blockquote ("> ", a reply on
// GitHub, also indented in a list item), the line number of grep -n or cat -n
// (lineNumber), a docker compose service name ("bench-1  | "), the RFC 3339
// timestamp of kubectl logs --timestamps, docker logs -t or a CI runner, a
// torchrun rank ("[rank0]: ") or a Ray worker ("(pid=123) "). Every reader
// sees the lines without it, as the tool printed them.
//
// (The serving table also removes any prefix its banner line starts with,
// whatever its shape: see Scanner.clean.)

// prefixes are what stripPrefixes learns of the lines it reads.
type prefixes struct {
	nextNum int // the line number (grep -n, cat -n) the next line would have (1 at the start, -1 if none)
	// service is the docker compose service of the current line (nil if
	// none), blockService that of the line that opened the open block.
	service, blockService []byte

	// grep's file-name prefixes (grepprefix.go): the names learnt, the
	// current line's, and whether it changed since the previous line.
	grepNames  [][]byte
	grepFile   []byte
	grepSwitch bool
}

// maxPrefixes bounds the prefixes removed from one line: a line number,
// then compose, then a timestamp, then a quote ...
const maxPrefixes = 4

// stripPrefixes returns line without the prefixes described above, in any
// order. A line number is removed when it follows the previous line's.
func (s *Scanner) stripPrefixes(line []byte) []byte {
	next := -1
	s.service = nil
	grepped := false
	for range maxPrefixes {
		if next < 0 && len(line) > 0 && (isDigit(line[0]) || line[0] == ' ') && timePrefix(line) == 0 {
			if n, size, ok := lineNumber(line); ok {
				next = n + 1
				if n == s.nextNum {
					line = line[size:]
					continue
				}
			}
		}
		n := logPrefix(line)
		if n > 0 && isLetter(line[0]) {
			s.service = line[:bytes.IndexByte(line[:n], ' ')] // "bench-1"; the innermost counts
		} else if n > 0 && line[0] == '[' && line[n-1] != ']' && mpiPrefix(line) == n {
			s.service = line[:bytes.IndexByte(line, ']')+1] // "[1,0]": each rank is a stream
		}
		if n == 0 && !grepped {
			n = s.grepPrefix(line)
			grepped = n > 0
		}
		if n == 0 {
			break
		}
		line = line[n:]
	}
	s.nextNum = next
	if !grepped {
		s.grepFile = nil
	}
	return line
}

// otherService reports whether the line just stripped came from another
// docker compose service than the block being read: docker compose
// interleaves the lines of a server and of its benchmark, which must not
// end the benchmark's table. The service of a block is that of the line
// that opened it.
func (s *Scanner) otherService() bool {
	if s.service == nil || !s.reading() {
		s.blockService = s.blockService[:0]
		return false
	}
	return len(s.blockService) > 0 && !bytes.Equal(s.service, s.blockService)
}

// noteService records the service of the line that opened a block.
func (s *Scanner) noteService(wasReading bool) {
	if s.service != nil && !wasReading && s.reading() {
		s.blockService = append(s.blockService[:0], s.service...)
	}
}

// reading reports whether a block of any reader is open.
func (s *Scanner) reading() bool {
	return s.cur != nil || s.rd != nil || s.lb != nil || s.jc != nil ||
		(s.off != nil && s.off.blk != nil)
}

// logPrefix is the length of the prefix line starts with, or 0. It looks at
// a few bytes of other lines only.
func logPrefix(line []byte) int {
	if len(line) == 0 {
		return 0
	}
	switch c := line[0]; {
	case c == '>':
		return quotePrefix(line)
	case c == ' ' || c == '\t':
		// A quote indented inside a Markdown list item.
		i := 1
		for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
			i++
		}
		if i < len(line) && line[i] == '>' {
			return i + quotePrefix(line[i:])
		}
	case c == '[':
		if n := rankPrefix(line); n > 0 {
			return n
		}
		if n := mpiPrefix(line); n > 0 {
			return n
		}
		if n := timePrefix(line[1:]) + 1; n > 1 && n < len(line) && line[n] == ']' {
			return n + 1 + blank(line[n+1:])
		}
	case c == '(':
		return rayPrefix(line)
	case isDigit(c):
		if n := timePrefix(line); n > 0 && n < len(line) && (line[n] == ' ' || line[n] == '\t') {
			return n + 1
		}
	case isLetter(c):
		return composePrefix(line)
	}
	return 0
}

// quotePrefix: ">" then one blank ("> text", ">text" and ">" alone).
func quotePrefix(line []byte) int {
	return 1 + blank(line[1:])
}

// blank is 1 if b starts with a blank, else 0.
func blank(b []byte) int {
	if len(b) > 0 && (b[0] == ' ' || b[0] == '\t') {
		return 1
	}
	return 0
}

// rankPrefix: "[rank0]:" and one blank, as torchrun prints a worker's lines.
func rankPrefix(line []byte) int {
	const head = "[rank"
	if len(line) < len(head)+3 || string(line[:len(head)]) != head {
		return 0
	}
	i := digits(line, len(head))
	if i == len(head) || i+1 >= len(line) || line[i] != ']' || line[i+1] != ':' {
		return 0
	}
	return i + 2 + blank(line[i+2:])
}

// rayPrefix: "(pid=123) ", "(RayWorker pid=123) ", "(APIServer pid=7, ip=10.0.0.1) ".
func rayPrefix(line []byte) int {
	const pid = "pid="
	i := 1
	if !bytes.HasPrefix(line[i:], []byte(pid)) {
		// A process name first.
		for i < len(line) && (isLetter(line[i]) || isDigit(line[i]) || line[i] == '_') {
			i++
		}
		if i == 1 || i >= len(line) || line[i] != ' ' {
			return 0
		}
		i++
	}
	if len(line) < i+len(pid) || string(line[i:i+len(pid)]) != pid {
		return 0
	}
	j := digits(line, i+len(pid))
	if j == i+len(pid) {
		return 0
	}
	for j < len(line) && line[j] != ')' {
		if c := line[j]; !(c == ',' || c == ' ' || c == '=' || c == '.' || isLetter(c) || isDigit(c)) {
			return 0
		}
		j++
	}
	if j >= len(line) {
		return 0
	}
	return j + 1 + blank(line[j+1:])
}

// composePrefix: a docker compose service and its replica number, padded,
// then "| ": "bench-1  | " (Compose v2), "proj_bench_1  | " (v1).
func composePrefix(line []byte) int {
	i := 0
	for i < len(line) && (isLetter(line[i]) || isDigit(line[i]) || line[i] == '_' || line[i] == '-' || line[i] == '.') {
		i++
	}
	// The name ends with -N or _N.
	j := i
	for j > 0 && isDigit(line[j-1]) {
		j--
	}
	if j == i || j < 2 || (line[j-1] != '-' && line[j-1] != '_') {
		return 0
	}
	k := i
	for k < len(line) && line[k] == ' ' {
		k++
	}
	if k == i || k >= len(line) || line[k] != '|' {
		return 0
	}
	return k + 1 + blank(line[k+1:])
}

// timePrefix is the length of an RFC 3339 time at the start of b
// ("2025-06-01T10:11:01.123456789Z", "...+08:00"), or 0.
func timePrefix(b []byte) int {
	// 2006-01-02T15:04:05
	const shape = "dddd-dd-ddTdd:dd:dd"
	if len(b) < len(shape) {
		return 0
	}
	for i := 0; i < len(shape); i++ {
		if shape[i] == 'd' {
			if !isDigit(b[i]) {
				return 0
			}
		} else if b[i] != shape[i] {
			return 0
		}
	}
	i := len(shape)
	if i < len(b) && (b[i] == '.' || b[i] == ',') {
		i = digits(b, i+1)
	}
	switch {
	case i < len(b) && b[i] == 'Z':
		i++
	case i+5 < len(b) && (b[i] == '+' || b[i] == '-') && isDigit(b[i+1]) && isDigit(b[i+2]):
		i += 3
		if b[i] == ':' {
			i++
		}
		i = digits(b, i)
	}
	return i
}

// digits returns the index of the first non-digit of b at or after i.
func digits(b []byte, i int) int {
	for i < len(b) && isDigit(b[i]) {
		i++
	}
	return i
}

// lineNumber returns the number a line starts with as grep -n ("12:" and,
// for a context line, "12-") or cat -n ("    12\t") print it, and the length
// of that prefix. Scan removes it only from a line whose number follows
// the previous line's, or from a first line numbered 1: a paste of grep -n
// output that starts further down keeps the prefix of its first line.
func lineNumber(line []byte) (n, size int, ok bool) {
	i := 0
	for i < len(line) && line[i] == ' ' {
		i++
	}
	j := digits(line, i)
	if j == i || j-i > 9 || j >= len(line) {
		return 0, 0, false
	}
	switch line[j] {
	case '\t': // cat -n
	case ':', '-':
		if i > 0 {
			return 0, 0, false
		}
	default:
		return 0, 0, false
	}
	for _, c := range line[i:j] {
		n = n*10 + int(c-'0')
	}
	return n, j + 1, true
}
