package render

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"

	"github.com/perflab/perflab/internal/study"
)

// logLinks says where a figure's log line is in the Markdown file: on the
// repository's web page of the log (--repo-url), or, without one, at an
// anchor put before the log's block in the file itself.
type logLinks struct {
	repoURL string
	paths   map[string]string // lineIDPrefix -> the log's path in the repository
}

func (r *Renderer) logLinks(logOf map[string]*study.Log, repoPath func(string) string) logLinks {
	l := logLinks{repoURL: r.RepoURL}
	if l.repoURL == "" {
		return l
	}
	l.paths = make(map[string]string, len(logOf))
	for file := range logOf {
		p := repoPath(file)
		l.paths[lineIDPrefix(p)] = p
	}
	return l
}

// forGitHub turns the page's Markdown into what GitHub shows well, so that
// every link of the file lands:
//   - a heading's {#id}, which GitHub prints as text, becomes an anchor
//     before it;
//   - a link to a log line (#Lxxxxxxxx-N: in the HTML page an anchor of the
//     numbered log) goes to the line on the repository's web page, or, without
//     --repo-url, to an anchor before the log's block, which GitHub shows
//     without line anchors;
//   - a link's title keeps only where the figure comes from (file:line).
//
// Lines inside a fenced block are copied as they are: they are log text.
// A hand-written scan: regular expressions took a third of the build.
func forGitHub(md []byte, links logLinks) []byte {
	out := make([]byte, 0, len(md)+len(md)/32)
	linked := linkedLogLines(md)
	var fence []byte // the open fence's marker, nil outside a fenced block
	for len(md) > 0 {
		line := md
		if i := bytes.IndexByte(md, '\n'); i >= 0 {
			line = md[:i+1]
		}
		md = md[len(line):]
		body := bytes.TrimRight(line, "\n")
		if fence != nil {
			if closesFence(body, fence) {
				fence = nil
			}
			out = append(out, line...)
			continue
		}
		if marker := fenceMarker(body); marker != nil {
			fence = marker
			out = appendLogAnchors(out, body[len(marker):], linked, links)
			out = append(out, line...)
			continue
		}
		if len(body) > 0 && body[0] == '#' && body[len(body)-1] == '}' {
			if i := bytes.LastIndex(body, []byte(" {#")); i > 0 && isSafeID(body[i+3:len(body)-1]) {
				out = append(out, `<a id="`...)
				out = append(out, body[i+3:len(body)-1]...)
				out = append(out, "\"></a>\n\n"...)
				out = append(out, body[:i]...)
				out = append(out, line[len(body):]...)
				continue
			}
		}
		if links.paths != nil {
			out = append(out, links.rewrite(appendShortTitles(nil, line))...)
		} else {
			out = appendShortTitles(out, line)
		}
	}
	return out
}

// fenceMarker is the backticks or tildes that open a fenced code block on
// line, or nil.
func fenceMarker(line []byte) []byte {
	if len(line) < 3 || (line[0] != '`' && line[0] != '~') {
		return nil
	}
	n := 0
	for n < len(line) && line[n] == line[0] {
		n++
	}
	if n < 3 || (line[0] == '`' && bytes.IndexByte(line[n:], '`') >= 0) {
		return nil
	}
	return line[:n]
}

func closesFence(line, marker []byte) bool {
	if len(line) == 0 || line[0] != marker[0] {
		return false // most lines of a log block
	}
	t := bytes.TrimRight(line, " \t")
	return len(t) >= len(marker) && len(bytes.Trim(t, string(marker[:1]))) == 0
}

// linkedLogLines collects the log lines the file's links (outside its
// fenced blocks) point to, by the prefix of their anchors:
// "Lf430bec9" -> {10, 16}.
func linkedLogLines(md []byte) map[string][]int {
	linked := map[string][]int{}
	var fence []byte
	for len(md) > 0 {
		line := md
		if i := bytes.IndexByte(md, '\n'); i >= 0 {
			line = md[:i+1]
		}
		md = md[len(line):]
		body := bytes.TrimRight(line, "\n")
		switch {
		case fence != nil:
			if closesFence(body, fence) {
				fence = nil
			}
			continue
		case fenceMarker(body) != nil:
			fence = fenceMarker(body)
			continue
		}
		for {
			i := bytes.Index(body, []byte("](#L"))
			if i < 0 {
				break
			}
			body = body[i+3:]
			if prefix, n, ok := logFragment(body); ok {
				linked[string(prefix)] = append(linked[string(prefix)], n)
			}
		}
	}
	return linked
}

// logFragment reads a log line's anchor "Lxxxxxxxx-N" at the start of s,
// as LineID writes it.
func logFragment(s []byte) (prefix []byte, line int, ok bool) {
	if len(s) < 11 || s[0] != 'L' || s[9] != '-' {
		return nil, 0, false
	}
	for _, c := range s[1:9] {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return nil, 0, false
		}
	}
	end := 10
	for end < len(s) && '0' <= s[end] && s[end] <= '9' {
		end++
	}
	line, err := strconv.Atoi(string(s[10:end]))
	if err != nil || end == len(s) || (s[end] != ' ' && s[end] != ')') {
		return nil, 0, false
	}
	return s[:9], line, true
}

// appendLogAnchors puts, before a numbered log's block (info "log
// @Lxxxxxxxx:first:count ..."), an anchor for each of its lines a link of
// the file points to and that stays in the file.
func appendLogAnchors(out, info []byte, linked map[string][]int, links logLinks) []byte {
	rest, ok := bytes.CutPrefix(info, []byte("log @"))
	if !ok || len(rest) < 9 {
		return out
	}
	prefix := string(rest[:9])
	if _, away := links.paths[prefix]; away {
		return out
	}
	var first, count int
	if _, err := fmt.Sscanf(string(rest[9:]), ":%d:%d", &first, &count); err != nil {
		return out
	}
	n := 0
	seen := map[int]bool{}
	lines := slices.Clone(linked[prefix])
	slices.Sort(lines)
	for _, l := range lines {
		if l < first || l >= first+count || seen[l] {
			continue
		}
		seen[l] = true
		out = append(out, `<a id="`...)
		out = append(out, prefix...)
		out = append(out, '-')
		out = strconv.AppendInt(out, int64(l), 10)
		out = append(out, `"></a>`...)
		n++
	}
	if n > 0 {
		out = append(out, "\n\n"...)
	}
	return out
}

// rewrite points the links of line to log lines at the repository's web
// page of each log, when there is one.
func (l logLinks) rewrite(line []byte) []byte {
	if l.paths == nil || !bytes.Contains(line, []byte("](#L")) {
		return line
	}
	var out []byte
	for {
		i := bytes.Index(line, []byte("](#L"))
		if i < 0 {
			return append(out, line...)
		}
		prefix, n, ok := logFragment(line[i+3:])
		path, known := l.paths[string(prefix)]
		if !ok || !known {
			out = append(out, line[:i+3]...)
			line = line[i+3:]
			continue
		}
		out = append(out, line[:i+2]...)
		out = append(out, l.repoURL...)
		out = append(out, "/blob/HEAD/"...)
		out = append(out, linkPath(path)...)
		out = append(out, "#L"...)
		out = strconv.AppendInt(out, int64(n), 10)
		line = line[i+3+len(prefix)+1+len(strconv.Itoa(n)):]
	}
}

// appendShortTitles appends a line with each link title `](#x "a · b")`
// cut to its first part `](#x "a")`.
func appendShortTitles(out, line []byte) []byte {
	for {
		i := bytes.Index(line, []byte("](#"))
		if i < 0 {
			return append(out, line...)
		}
		j := bytes.IndexByte(line[i:], ')')
		k := bytes.Index(line[i:], []byte(` "`))
		if j < 0 || k < 0 || k > j {
			out = append(out, line[:i+3]...)
			line = line[i+3:]
			continue
		}
		end := bytes.Index(line[i+k+2:], []byte(`")`))
		if end < 0 {
			return append(out, line...)
		}
		title := line[i+k+2 : i+k+2+end]
		if c := bytes.Index(title, []byte(" · ")); c >= 0 {
			title = title[:c]
		}
		out = append(out, line[:i+k+2]...)
		out = append(out, title...)
		out = append(out, `")`...)
		line = line[i+k+2+end+2:]
	}
}
