package render

import (
	"github.com/yuin/goldmark"
	gast "github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// fastHeadings reads a heading as a report writes it, "## Text {#id}" at
// the top of the page, into the node goldmark's ATX heading parser makes
// of it, without that parser's byte-by-byte reader over the line for its
// attributes. Any other heading goes to goldmark; FuzzFastHeadings holds
// the two to the same tree and HTML.
type fastHeadings struct{}

func (fastHeadings) Extend(m goldmark.Markdown) {
	// Before goldmark's ATX heading parser (600).
	m.Parser().AddOptions(parser.WithBlockParsers(util.Prioritized(fastHeadingParser{}, 550)))
}

type fastHeadingParser struct{}

func (fastHeadingParser) Trigger() []byte { return []byte{'#'} }

// Open takes one to six "#", spaces, a text without "{", "}", "\", a
// trailing "#", control bytes or 0xFF (which ends goldmark's scan for the
// attributes), one space and {#id} with an id of
// lower-case letters, digits and "-", and nothing after it.
func (fastHeadingParser) Open(parent gast.Node, reader text.Reader, pc parser.Context) (gast.Node, parser.State) {
	line, seg := reader.PeekLine()
	if parent.Kind() != gast.KindDocument || reader.LineOffset() != 0 || seg.Padding != 0 || pc.BlockOffset() != 0 {
		return nil, parser.NoChildren
	}
	end := len(line)
	if end > 0 && line[end-1] == '\n' {
		end--
	}
	level := 0
	for level < end && line[level] == '#' {
		level++
	}
	i := level
	for i < end && line[i] == ' ' {
		i++
	}
	if level == 0 || level > 6 || i == level || end < 2 || line[end-1] != '}' {
		return nil, parser.NoChildren
	}
	id := end - 1 // the id is line[id:end-1]
	for id > i && ('a' <= line[id-1] && line[id-1] <= 'z' || '0' <= line[id-1] && line[id-1] <= '9' || line[id-1] == '-') {
		id--
	}
	if id == end-1 || id-3 <= i || line[id-1] != '#' || line[id-2] != '{' || line[id-3] != ' ' {
		return nil, parser.NoChildren
	}
	stop := id - 3 // the text is line[i:stop], less its trailing spaces
	for stop > i && line[stop-1] == ' ' {
		stop--
	}
	if stop == i || line[stop-1] == '#' {
		return nil, parser.NoChildren
	}
	for _, c := range line[i:stop] {
		if c < 0x20 || c == 0x7f || c == text.EOF || c == '{' || c == '}' || c == '\\' {
			return nil, parser.NoChildren
		}
	}
	node := gast.NewHeading(level)
	node.Lines().Append(text.NewSegment(seg.Start+i, seg.Start+stop))
	node.SetAttribute([]byte("id"), line[id:end-1])
	reader.AdvanceToEOL()
	return node, parser.NoChildren
}

func (fastHeadingParser) Continue(gast.Node, text.Reader, parser.Context) parser.State {
	return parser.Close
}

func (fastHeadingParser) Close(gast.Node, text.Reader, parser.Context) {}

func (fastHeadingParser) CanInterruptParagraph() bool { return true }

func (fastHeadingParser) CanAcceptIndentedLine() bool { return false }
