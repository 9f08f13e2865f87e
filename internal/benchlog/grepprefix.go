package benchlog

import "bytes"

// grep over several files (grep -A 30 "Result" slurm-*.out) puts the file's
// name before each line: "slurm-824.out:" on a matching line,
// "slurm-824.out-" on a line of context, with -n the line number after it
// ("slurm-824.out:12:", "slurm-824.out-13-"). A name is learnt from a
// matching line (a word with a '.' or a '/', no blank, then ':'), since a
// '-' may be part of a name as well as its separator; a context line then
// loses it too. Each file's lines are a stream of their own: a block open
// when the name changes ends there, cut, rather than take the next file's
// lines.

// maxGrepNames bounds the file names learnt from one input.
const maxGrepNames = 16

// grepPrefix returns the length of the grep file-name prefix line starts
// with, or 0, and notes a change of file.
func (s *Scanner) grepPrefix(line []byte) int {
	name, n := s.knownGrepName(line)
	if n == 0 {
		name, n = s.learnGrepName(line)
	}
	if n == 0 {
		return 0
	}
	if s.grepFile != nil && !bytes.Equal(s.grepFile, name) {
		s.grepSwitch = true
	}
	s.grepFile = name
	return n
}

// knownGrepName matches a learnt name followed by its separator.
func (s *Scanner) knownGrepName(line []byte) ([]byte, int) {
	for _, name := range s.grepNames {
		if len(line) > len(name) && bytes.HasPrefix(line, name) {
			if n := grepSep(line, len(name)); n > 0 {
				return name, n
			}
		}
	}
	return nil, 0
}

// learnGrepName reads a name from a matching line ("name:" or "name:12:").
func (s *Scanner) learnGrepName(line []byte) ([]byte, int) {
	if len(line) < 3 || len(s.grepNames) >= maxGrepNames || !(isLetter(line[0]) || isDigit(line[0]) || line[0] == '.' || line[0] == '/') {
		return nil, 0
	}
	dotted := false
	i := 0
	for ; i < len(line) && i < 200; i++ {
		c := line[i]
		if c == '.' || c == '/' {
			dotted = true
		} else if !(isLetter(c) || isDigit(c) || c == '_' || c == '-' || c == '+') {
			break
		}
	}
	if !dotted || i >= len(line) || line[i] != ':' || i+1 >= len(line) || line[i-1] == '.' {
		return nil, 0
	}
	if line[i+1] == '/' {
		return nil, 0 // a URL ("http://")
	}
	name := bytes.Clone(line[:i])
	s.grepNames = append(s.grepNames, name)
	return name, grepSep(line, i)
}

// grepSep is the length of name and separator when line[at] is ':' or '-'
// (with grep -n, digits and the same separator follow), else 0.
func grepSep(line []byte, at int) int {
	sep := line[at]
	if sep != ':' && sep != '-' {
		return 0
	}
	if j := digits(line, at+1); j > at+1 && j < len(line) && line[j] == sep {
		return j + 1
	}
	return at + 1
}

// mpiPrefix: Open MPI's --tag-output, "[1,0]<stdout>:" (job, rank, stream).
func mpiPrefix(line []byte) int {
	i := digits(line, 1)
	if i == 1 || i >= len(line) || line[i] != ',' {
		return 0
	}
	j := digits(line, i+1)
	if j == i+1 || j >= len(line) || line[j] != ']' {
		return 0
	}
	rest := line[j+1:]
	for _, tag := range []string{"<stdout>:", "<stderr>:"} {
		if bytes.HasPrefix(rest, []byte(tag)) {
			n := j + 1 + len(tag)
			return n + blank(line[n:])
		}
	}
	return 0
}

// endStream ends, cut, whatever block the previous file's lines left open.
func (s *Scanner) endStream() {
	s.endOther()
	if s.cur != nil {
		s.end(true)
	}
}
