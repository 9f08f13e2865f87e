package study

import (
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// fastYAML parses the simple YAML that study.yaml and run.yaml files are
// written in and returns the top-level mapping node, the same tree (Kind,
// Tag, Value, Style, Line, Column, Content) that yaml.v3 builds. It returns
// nil for anything outside that subset, valid or not: the caller then parses
// with yaml.v3, whose problems and lines are what perflab reports.
//
// The subset: block mappings with plain keys, block sequences ("- " items)
// of mappings or scalars, flow sequences of plain scalars ("[a, b]"), plain
// scalars on one line, single-quoted and double-quoted scalars without
// backslashes on one line, literal block scalars (|, |-, |+), full-line and
// trailing comments, blank lines, LF or CRLF line ends. Tabs, anchors,
// aliases, tags, folded scalars, flow mappings, multi-line plain or quoted
// scalars, indentless sequences, document markers and directives fall back.
func fastYAML(data []byte) *yaml.Node {
	n := parseFastYAML(data)
	if checkFastYAML != nil {
		checkFastYAML(data, n)
	}
	return n
}

// checkFastYAML, set by the tests, compares every tree of the fast path with
// yaml.v3's.
var checkFastYAML func(data []byte, fast *yaml.Node)

func parseFastYAML(data []byte) *yaml.Node {
	lines, ok := splitLines(data)
	if !ok {
		return nil
	}
	p := &fastParser{lines: lines}
	// About two nodes a line: a key and its value.
	content := 0
	for i := range lines {
		if !lines[i].blank {
			content++
		}
	}
	p.slab = make([]yaml.Node, 2*content+1)
	k := p.nextContent(0)
	if k >= len(lines) {
		return nil // empty: yaml.v3 says so
	}
	c := lines[k].indent
	if c != 0 || !p.isKey(k, c) {
		return nil
	}
	n, end := p.mapping(k, c)
	if n == nil || p.nextContent(end) < len(lines) {
		return nil
	}
	return n
}

// fline is one line of the input, without its line break.
type fline struct {
	s      string
	indent int  // leading spaces
	blank  bool // only spaces, or a comment
	brk    bool // followed by a line break (false for the last line)
}

type fastParser struct {
	lines []fline
	slab  []yaml.Node // nodes are allocated from here, a few at a time
}

// node returns a new node, allocated in bulk.
func (p *fastParser) node(n yaml.Node) *yaml.Node {
	if len(p.slab) == 0 {
		p.slab = make([]yaml.Node, 16)
	}
	x := &p.slab[0]
	p.slab = p.slab[1:]
	*x = n
	return x
}

// splitLines splits data into lines, refusing input with characters the
// fast path does not handle: tabs, control characters, a CR not followed by
// LF, a byte order mark, invalid UTF-8 and the Unicode line breaks.
func splitLines(data []byte) ([]fline, bool) {
	n := 1
	for i := 0; i < len(data); i++ {
		b := data[i]
		switch {
		case b == '\n':
			n++
		case b == '\r':
			if i+1 >= len(data) || data[i+1] != '\n' {
				return nil, false
			}
		case b < 0x20 || b == 0x7f:
			return nil, false
		case b >= 0x80:
			r, size := utf8.DecodeRune(data[i:])
			if r == utf8.RuneError || !printableRune(r) {
				return nil, false
			}
			i += size - 1
		}
	}
	lines := make([]fline, 0, n)
	s := string(data)
	for {
		i := strings.IndexByte(s, '\n')
		var ln string
		brk := i >= 0
		if brk {
			ln, s = s[:i], s[i+1:]
		} else {
			ln = s
		}
		ln = strings.TrimSuffix(ln, "\r")
		ind := 0
		for ind < len(ln) && ln[ind] == ' ' {
			ind++
		}
		lines = append(lines, fline{s: ln, indent: ind, blank: ind == len(ln) || ln[ind] == '#', brk: brk})
		if !brk {
			break
		}
	}
	return lines, true
}

// printableRune reports whether yaml.v3 accepts r and does not take it for a
// line break.
func printableRune(r rune) bool {
	switch {
	case r >= 0xA0 && r <= 0xD7FF:
		return r != 0x2028 && r != 0x2029
	case r >= 0xE000 && r <= 0xFFFD:
		return r != 0xFEFF
	case r >= 0x10000 && r <= 0x10FFFF:
		return true
	}
	return false
}

// nextContent returns the index of the first line at or after k that is
// neither blank nor a comment, or len(lines).
func (p *fastParser) nextContent(k int) int {
	for k < len(p.lines) && p.lines[k].blank {
		k++
	}
	return k
}

// keyEnd returns the index of the colon ending a plain key that starts at
// column c of s, or -1. Keys are restricted to letters, digits and _ . - /
// and must be followed by ": " or ":" at the end of the line.
func keyEnd(s string, c int) int {
	if c >= len(s) {
		return -1
	}
	if b := s[c]; !(b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '_') {
		return -1
	}
	for i := c + 1; i < len(s) && i-c <= 128; i++ {
		b := s[i]
		switch {
		case b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '_' || b == '.' || b == '-' || b == '/':
		case b == ':':
			if i+1 == len(s) || s[i+1] == ' ' {
				return i
			}
			return -1
		default:
			return -1
		}
	}
	return -1
}

func (p *fastParser) isKey(k, c int) bool { return keyEnd(p.lines[k].s, c) >= 0 }

// mapping parses a block mapping whose first key starts at column c of line
// k and whose other keys are at column c of later lines. It returns the node
// and the index of the line after it, or nil.
func (p *fastParser) mapping(k, c int) (*yaml.Node, int) {
	m := p.node(yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: k + 1, Column: c + 1})
	for {
		s := p.lines[k].s
		colon := keyEnd(s, c)
		if colon < 0 {
			return nil, 0
		}
		key := s[c:colon]
		tag, ok := plainTag(key)
		if !ok {
			return nil, 0
		}
		m.Content = append(m.Content, p.node(yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: key, Line: k + 1, Column: c + 1}))
		v, next := p.value(k, colon+1, c, true)
		if v == nil {
			return nil, 0
		}
		m.Content = append(m.Content, v)
		k = p.nextContent(next)
		if k >= len(p.lines) || p.lines[k].indent < c {
			return m, k
		}
		if p.lines[k].indent > c {
			return nil, 0
		}
	}
}

// sequence parses a block sequence whose items' dashes are at column c,
// starting on line k.
func (p *fastParser) sequence(k, c int) (*yaml.Node, int) {
	q := p.node(yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Line: k + 1, Column: c + 1})
	for {
		s := p.lines[k].s
		if !isDashItem(s, c) {
			return nil, 0
		}
		i := c + 1
		for i < len(s) && s[i] == ' ' {
			i++
		}
		if i == len(s) || s[i] == '#' {
			return nil, 0 // the item on the next lines, or empty
		}
		var item *yaml.Node
		var next int
		if keyEnd(s, i) >= 0 {
			item, next = p.mapping(k, i)
		} else {
			item, next = p.value(k, i, c, false)
		}
		if item == nil {
			return nil, 0
		}
		q.Content = append(q.Content, item)
		k = p.nextContent(next)
		if k >= len(p.lines) || p.lines[k].indent < c {
			return q, k
		}
		if p.lines[k].indent > c {
			return nil, 0
		}
	}
}

// isDashItem reports whether s holds a sequence entry indicator at column c.
func isDashItem(s string, c int) bool {
	return c < len(s) && s[c] == '-' && (c+1 == len(s) || s[c+1] == ' ')
}

// value parses the node that starts at column i of line k (after a key's
// colon when inMap, else after a sequence dash); parent is the column of the
// collection holding it. It returns the node and the line after it.
func (p *fastParser) value(k, i, parent int, inMap bool) (*yaml.Node, int) {
	s := p.lines[k].s
	start := i
	for i < len(s) && s[i] == ' ' {
		i++
	}
	if i == len(s) || s[i] == '#' {
		if !inMap {
			return nil, 0
		}
		// A nested block on the next lines, or an empty value.
		j := p.nextContent(k + 1)
		if j < len(p.lines) && p.lines[j].indent > parent {
			c := p.lines[j].indent
			if isDashItem(p.lines[j].s, c) {
				return p.sequence(j, c)
			}
			if p.isKey(j, c) {
				return p.mapping(j, c)
			}
			return nil, 0
		}
		if j < len(p.lines) && p.lines[j].indent == parent && isDashItem(p.lines[j].s, parent) {
			return nil, 0 // indentless sequence
		}
		// yaml.v3 places an empty value just after the colon.
		return p.node(yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Line: k + 1, Column: start + 1}), k + 1
	}
	var n *yaml.Node
	var rest int // where the text after the scalar starts
	switch s[i] {
	case '|':
		return p.literal(k, i, parent)
	case '[':
		n, rest = p.flowSequence(s, i)
	case '\'':
		n, rest = p.singleQuoted(s, i)
	case '"':
		n, rest = p.doubleQuoted(s, i)
	case '-', '?', ':':
		if s[i] != '-' || i+1 == len(s) || s[i+1] == ' ' {
			return nil, 0
		}
		n, rest = p.plain(s, i)
	case ',', ']', '{', '}', '#', '&', '*', '!', '>', '%', '@', '`':
		return nil, 0
	default:
		n, rest = p.plain(s, i)
	}
	if n == nil || !trailer(s, rest) {
		return nil, 0
	}
	n.Line = k + 1
	n.Column = column(s, i)
	for _, item := range n.Content {
		item.Line = k + 1
	}
	// A more indented line after a one-line scalar would continue it, or be
	// an error: leave both to yaml.v3.
	j := p.nextContent(k + 1)
	if j < len(p.lines) && p.lines[j].indent > parent {
		return nil, 0
	}
	return n, k + 1
}

// column is yaml.v3's 1-based column of byte i of s: it counts characters.
func column(s string, i int) int {
	for j := 0; j < i; j++ {
		if s[j] >= 0x80 {
			return utf8.RuneCountInString(s[:i]) + 1
		}
	}
	return i + 1
}

// trailer reports whether s from i holds only spaces and an optional
// comment preceded by a space.
func trailer(s string, i int) bool {
	sp := false
	for ; i < len(s); i++ {
		switch s[i] {
		case ' ':
			sp = true
		case '#':
			return sp
		default:
			return false
		}
	}
	return true
}

// plain scans a one-line plain scalar starting at i, ending before a
// comment or at the end of the line.
func (p *fastParser) plain(s string, i int) (*yaml.Node, int) {
	end := len(s)
	if h := strings.Index(s[i:], " #"); h >= 0 {
		end = i + h
	}
	v := strings.TrimRight(s[i:end], " ")
	if strings.Contains(v, ": ") || strings.HasSuffix(v, ":") {
		return nil, 0
	}
	tag, ok := plainTag(v)
	if !ok {
		return nil, 0
	}
	return p.node(yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: v}), end
}

// singleQuoted scans a single-quoted scalar that closes on its line.
func (p *fastParser) singleQuoted(s string, i int) (*yaml.Node, int) {
	var b strings.Builder
	j := i + 1
	for {
		q := strings.IndexByte(s[j:], '\'')
		if q < 0 {
			return nil, 0
		}
		b.WriteString(s[j : j+q])
		j += q + 1
		if j < len(s) && s[j] == '\'' {
			b.WriteByte('\'')
			j++
			continue
		}
		return p.node(yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: b.String(), Style: yaml.SingleQuotedStyle}), j
	}
}

// doubleQuoted scans a double-quoted scalar without escapes that closes on
// its line.
func (p *fastParser) doubleQuoted(s string, i int) (*yaml.Node, int) {
	q := strings.IndexByte(s[i+1:], '"')
	if q < 0 || strings.IndexByte(s[i+1:i+1+q], '\\') >= 0 {
		return nil, 0
	}
	return p.node(yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s[i+1 : i+1+q], Style: yaml.DoubleQuotedStyle}), i + 2 + q
}

// flowSequence scans a one-line flow sequence of plain scalars.
func (p *fastParser) flowSequence(s string, i int) (*yaml.Node, int) {
	n := p.node(yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Style: yaml.FlowStyle})
	j := i + 1
	for {
		for j < len(s) && s[j] == ' ' {
			j++
		}
		if j == len(s) {
			return nil, 0
		}
		if s[j] == ']' && len(n.Content) == 0 {
			return n, j + 1
		}
		start := j
		for j < len(s) && s[j] != ',' && s[j] != ']' {
			switch s[j] {
			case '[', '{', '}', '#', '\'', '"', '?', ':', '&', '*', '!', '|', '>', '%', '@', '`':
				return nil, 0
			}
			j++
		}
		if j == len(s) {
			return nil, 0
		}
		v := strings.TrimRight(s[start:j], " ")
		if v == "" || v[0] == '-' {
			return nil, 0
		}
		tag, ok := plainTag(v)
		if !ok {
			return nil, 0
		}
		n.Content = append(n.Content, p.node(yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: v, Column: column(s, start)}))
		if s[j] == ']' {
			return n, j + 1
		}
		j++ // the comma
		for j < len(s) && s[j] == ' ' {
			j++
		}
		if j < len(s) && s[j] == ']' {
			return nil, 0 // trailing comma
		}
	}
}

// literal parses a literal block scalar whose indicator | is at column i of
// line k, following libyaml's yaml_parser_scan_block_scalar.
func (p *fastParser) literal(k, i, parent int) (*yaml.Node, int) {
	s := p.lines[k].s
	n := p.node(yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Style: yaml.LiteralStyle, Line: k + 1, Column: i + 1})
	chomp := 0
	j := i + 1
	if j < len(s) && (s[j] == '-' || s[j] == '+') {
		if s[j] == '-' {
			chomp = -1
		} else {
			chomp = 1
		}
		j++
	}
	if !trailer(s, j) {
		return nil, 0 // indentation indicator, or text after the header
	}
	if !p.lines[k].brk {
		return nil, 0
	}
	k++
	indent := 0
	var b strings.Builder
	trailing := 0 // line breaks of blank lines seen since the last content line
	leading := 0  // the line break after the last content line
	// breaks skips blank lines from line k, counting their breaks, and
	// returns the line and column reached.
	breaks := func(k int) (int, int) {
		maxIndent := 0
		col := 0
		for k < len(p.lines) {
			ln := &p.lines[k]
			col = ln.indent
			if indent > 0 && col > indent {
				col = indent
			}
			if col > maxIndent {
				maxIndent = col
			}
			if col < len(ln.s) || !ln.brk {
				break
			}
			trailing++
			k++
		}
		if indent == 0 {
			indent = maxIndent
			if indent < parent+1 {
				indent = parent + 1
			}
		}
		return k, col
	}
	k, col := breaks(k)
	for k < len(p.lines) && col == indent {
		ln := &p.lines[k]
		if col == len(ln.s) && !ln.brk {
			break // end of input
		}
		b.WriteString(strings.Repeat("\n", leading+trailing))
		leading, trailing = 0, 0
		b.WriteString(ln.s[col:])
		if ln.brk {
			leading = 1
		}
		k, col = breaks(k + 1)
	}
	if chomp != -1 {
		b.WriteString(strings.Repeat("\n", leading))
	}
	if chomp == 1 {
		b.WriteString(strings.Repeat("\n", trailing))
	}
	n.Value = b.String()
	// The scalar ends at a less indented line; a line between its parent's
	// column and its own is left to yaml.v3.
	if j := p.nextContent(k); j < len(p.lines) && p.lines[j].indent > parent {
		return nil, 0
	}
	return n, k
}

// plainTag resolves the tag of a plain scalar as yaml.v3 does, or reports
// false when unsure (timestamps).
func plainTag(v string) (string, bool) {
	if v == "" {
		return "!!null", true
	}
	switch v[0] {
	case 'y', 'Y', 'n', 'N', 't', 'T', 'f', 'F', 'o', 'O', '~':
		switch v {
		case "true", "True", "TRUE", "false", "False", "FALSE":
			return "!!bool", true
		case "~", "null", "Null", "NULL":
			return "!!null", true
		}
		return "!!str", true
	case '.':
		switch v {
		case ".nan", ".NaN", ".NAN", ".inf", ".Inf", ".INF":
			return "!!float", true
		}
		if _, err := strconv.ParseFloat(v, 64); err == nil {
			return "!!float", true
		}
		return "!!str", true
	case '<':
		if v == "<<" {
			return "", false // a merge key
		}
	case '+', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return numberTag(v)
	}
	return "!!str", true
}

var yamlStyleFloat = regexp.MustCompile(`^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`)

// numberTag follows yaml.v3's resolve for a plain scalar starting with a
// sign or a digit.
func numberTag(v string) (string, bool) {
	switch v {
	case "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF":
		return "!!float", true
	}
	// Small decimal integers, the common case.
	d := v
	if d[0] == '-' || d[0] == '+' {
		d = d[1:]
	}
	if len(d) > 0 && len(d) <= 18 && (d[0] != '0' || len(d) == 1) { // 08 is a float, 010 octal
		digits := true
		for i := 0; i < len(d); i++ {
			if d[i] < '0' || d[i] > '9' {
				digits = false
				break
			}
		}
		if digits {
			return "!!int", true
		}
	}
	// A timestamp starts with four digits and a '-'.
	i := 0
	for i < len(v) && v[i] >= '0' && v[i] <= '9' {
		i++
	}
	if i == 4 && i < len(v) && v[i] == '-' {
		return "", false
	}
	plain := strings.ReplaceAll(v, "_", "")
	if _, err := strconv.ParseInt(plain, 0, 64); err == nil {
		return "!!int", true
	}
	if _, err := strconv.ParseUint(plain, 0, 64); err == nil {
		return "!!int", true
	}
	if yamlStyleFloat.MatchString(plain) {
		if _, err := strconv.ParseFloat(plain, 64); err == nil {
			return "!!float", true
		}
	}
	switch {
	case strings.HasPrefix(plain, "0b"):
		if _, err := strconv.ParseInt(plain[2:], 2, 64); err == nil {
			return "!!int", true
		}
		if _, err := strconv.ParseUint(plain[2:], 2, 64); err == nil {
			return "!!int", true
		}
	case strings.HasPrefix(plain, "-0b"):
		if _, err := strconv.ParseInt("-"+plain[3:], 2, 64); err == nil {
			return "!!int", true
		}
	}
	switch {
	case strings.HasPrefix(plain, "0o"):
		if _, err := strconv.ParseInt(plain[2:], 8, 64); err == nil {
			return "!!int", true
		}
		if _, err := strconv.ParseUint(plain[2:], 8, 64); err == nil {
			return "!!int", true
		}
	case strings.HasPrefix(plain, "-0o"):
		if _, err := strconv.ParseInt("-"+plain[3:], 8, 64); err == nil {
			return "!!int", true
		}
	}
	return "!!str", true
}
