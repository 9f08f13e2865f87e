package importer

import (
	"regexp"
	"strings"
)

// line is one line of the report outside code fences, or a whole fence.
type line struct {
	n     int    // 1-based line number
	text  string // the line as printed (for a fence: its opening line)
	fence *fence // set when the item is a code fence
}

// fence is a fenced code block, its content with the fence's indentation
// removed.
type fence struct {
	open    int // 1-based line of the opening ```
	lang    string
	content []string
	first   int // 1-based line of the first content line
}

// Text returns the fence's content as one string without a final newline.
func (f *fence) Text() string { return strings.Join(f.content, "\n") }

var fenceOpen = regexp.MustCompile("^(\\s*)(```+|~~~+)\\s*([A-Za-z0-9_+-]*)\\s*$")

// scan splits a report into lines and fences. A fence whose closing line is
// missing runs to the end of the file; unclosed reports nothing else.
func scan(src string) (items []line, unclosed int) {
	src = strings.ReplaceAll(src, "\r\n", "\n")
	lines := strings.Split(src, "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	for i := 0; i < len(lines); i++ {
		m := fenceOpen.FindStringSubmatch(lines[i])
		if m == nil {
			items = append(items, line{n: i + 1, text: lines[i]})
			continue
		}
		indent, marker := len(m[1]), m[2]
		f := &fence{open: i + 1, lang: m[3], first: i + 2}
		j := i + 1
		closed := false
		for ; j < len(lines); j++ {
			t := strings.TrimSpace(lines[j])
			if strings.HasPrefix(t, marker) && strings.Trim(t, marker[:1]) == "" {
				closed = true
				break
			}
			f.content = append(f.content, dedent(lines[j], indent))
		}
		if !closed {
			unclosed = i + 1
		}
		items = append(items, line{n: i + 1, text: lines[i], fence: f})
		i = j
	}
	return items, unclosed
}

// dedent removes up to n leading spaces (the fence's own indentation, that
// of an admonition or a list item).
func dedent(s string, n int) string {
	i := 0
	for i < n && i < len(s) && s[i] == ' ' {
		i++
	}
	if i < n && i < len(s) && s[i] == '\t' {
		i++
	}
	return s[i:]
}

// heading returns a Markdown heading's level and text.
func heading(s string) (int, string) {
	t := strings.TrimRight(s, " ")
	lvl := 0
	for lvl < len(t) && t[lvl] == '#' {
		lvl++
	}
	if lvl == 0 || lvl > 6 || (lvl < len(t) && t[lvl] != ' ') {
		return 0, ""
	}
	return lvl, strings.TrimSpace(t[lvl:])
}

// section is a heading and the items under it, up to the next heading of
// the same or a higher level.
type section struct {
	level int
	title string
	line  int
	items []line // including sub-headings
}

// sections returns the sections of a given level, each with its items.
func sections(items []line, level int) []section {
	var out []section
	cur := -1
	for _, it := range items {
		if it.fence == nil {
			if lvl, title := heading(it.text); lvl > 0 && lvl <= level {
				if lvl == level {
					out = append(out, section{level: lvl, title: title, line: it.n})
					cur = len(out) - 1
				} else {
					cur = -1
				}
				continue
			}
		}
		if cur >= 0 {
			out[cur].items = append(out[cur].items, it)
		}
	}
	return out
}

// find returns the first section whose normalised title contains one of
// the words given.
func find(secs []section, words ...string) *section {
	for i := range secs {
		t := norm(secs[i].title)
		for _, w := range words {
			if strings.Contains(t, w) {
				return &secs[i]
			}
		}
	}
	return nil
}

var tags = regexp.MustCompile(`<[^>]*>`)

// stripTags removes HTML tags, keeping their text; <br> becomes a newline.
func stripTags(s string) string {
	s = lineBreakTag.ReplaceAllString(s, "\n")
	return tags.ReplaceAllString(s, "")
}

// tableRow splits a Markdown table row into its cells, or returns nil.
func tableRow(s string) []string {
	t := strings.TrimSpace(s)
	if !strings.HasPrefix(t, "|") {
		return nil
	}
	t = strings.TrimPrefix(t, "|")
	t = strings.TrimSuffix(t, "|")
	cells := strings.Split(t, "|")
	for i := range cells {
		cells[i] = strings.TrimSpace(cells[i])
	}
	return cells
}

var ruleRow = regexp.MustCompile(`^[\s|:-]+$`)

// table is a Markdown table: its header and rows with their lines.
type table struct {
	header []string
	rows   [][]string
	lines  []int
	line   int
}

// tables returns the tables among items.
func tables(items []line) []table {
	var out []table
	var cur *table
	for _, it := range items {
		var cells []string
		if it.fence == nil {
			cells = tableRow(it.text)
		}
		if cells == nil {
			cur = nil
			continue
		}
		if cur == nil {
			out = append(out, table{header: cells, line: it.n})
			cur = &out[len(out)-1]
			continue
		}
		if ruleRow.MatchString(it.text) {
			continue
		}
		cur.rows = append(cur.rows, cells)
		cur.lines = append(cur.lines, it.n)
	}
	return out
}

var nonWord = regexp.MustCompile(`[^a-z0-9.]+`)

// norm lower-cases a title and keeps only words.
func norm(s string) string {
	s = strings.ToLower(stripTags(s))
	s = strings.ReplaceAll(s, "*", "")
	s = nonWord.ReplaceAllString(s, " ")
	return strings.Join(strings.Fields(strings.ReplaceAll(s, ".", " ")), " ")
}

var slugDrop = regexp.MustCompile(`[^a-z0-9]+`)

// slug makes an id out of a name: lower-case words joined by hyphens.
func slug(s string) string {
	s = strings.ToLower(stripTags(s))
	s = strings.ReplaceAll(s, "&&", " and ")
	s = strings.ReplaceAll(s, "+", " ")
	s = slugDrop.ReplaceAllString(s, "-")
	return strings.Trim(s, "-")
}
