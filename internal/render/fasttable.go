package render

import (
	"bytes"
	"unicode/utf8"

	"github.com/yuin/goldmark"
	gast "github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// fastTables reads a table as a report writes it, a block of its own whose
// cells hold plain text and plain links to places on the page, and
// renders it as goldmark, its table extension and the page's transforms
// (stackTables, compareTable, spanStats) would, without building a node
// for each row, cell and word: tables took a third of goldmark's time on a
// report, most of it that tree. Any other table goes to goldmark;
// FuzzFastTables holds the two to the same HTML.
type fastTables struct{}

func (fastTables) Extend(m goldmark.Markdown) {
	// Before goldmark's paragraph parser (1000), from which its table
	// extension makes tables.
	m.Parser().AddOptions(parser.WithBlockParsers(util.Prioritized(fastTableParser{}, 950)))
	m.Renderer().AddOptions(renderer.WithNodeRenderers(util.Prioritized(fastTableRenderer{htmlText{html.DefaultWriter}}, 100)))
}

var kindFastTable = gast.NewNodeKind("PerflabTable")

// fastTable is a table read in one step; its source lines are consumed
// one by one (left are still to come).
type fastTable struct {
	gast.BaseBlock
	align   []east.Alignment
	parts   []cellPart // every cell's, in order
	header  []fastCell
	body    [][]fastCell
	compare *compareAttrs // when the table is the page's all-runs table
	left    int
}

func (t *fastTable) Kind() gast.NodeKind { return kindFastTable }

func (t *fastTable) Dump(source []byte, level int) { gast.DumpHelper(t, source, level, nil, nil) }

// fastCell is a cell's content: the parts[from:to] of its table.
type fastCell struct{ from, to int }

// cellPart is a run of text, a link whose label is text, or the "*" or
// "**" that opens or closes an emphasis.
type cellPart struct {
	text        text.Segment
	link, em    bool
	dest, title []byte // title nil when the link has none
}

// notCellText marks the bytes a fast table leaves to goldmark in a cell:
// those that start inline markup (code, links, images, emphasis, HTML,
// entities, escapes), a pipe, and control bytes.
var notCellText = controlsAnd("[]\\`*_<&!~|")

type fastTableParser struct{}

func (fastTableParser) Trigger() []byte { return []byte{'|'} }

// Open takes a table at the top of the page, after a blank line, whose
// rows each start and end with "|" and are followed by a blank line; the
// second row sets the alignments, and every row has as many cells.
func (fastTableParser) Open(parent gast.Node, reader text.Reader, pc parser.Context) (gast.Node, parser.State) {
	line, seg := reader.PeekLine()
	if parent.Kind() != gast.KindDocument || reader.LineOffset() != 0 || seg.Padding != 0 || len(line) == 0 || line[0] != '|' {
		return nil, parser.NoChildren
	}
	source := reader.Source()
	if !blankBefore(source, seg.Start) {
		return nil, parser.NoChildren
	}
	t := readTable(source, seg.Start)
	if t == nil {
		return nil, parser.NoChildren
	}
	if a, _ := pc.Get(compareKey).(*compareAttrs); a != nil && firstAllRunsTable(parent.FirstChild()) == nil && inAllRunsSection(parent) {
		rows := make([]int, len(t.body))
		for i, r := range t.body {
			rows[i] = len(r)
		}
		if a.fitsShape(len(t.header), rows) {
			t.compare = a
		}
	}
	reader.AdvanceToEOL()
	return t, parser.NoChildren
}

func (fastTableParser) Continue(node gast.Node, reader text.Reader, _ parser.Context) parser.State {
	t := node.(*fastTable)
	if t.left == 0 {
		return parser.Close
	}
	t.left--
	reader.AdvanceToEOL()
	return parser.Continue | parser.NoChildren
}

func (fastTableParser) Close(gast.Node, text.Reader, parser.Context) {}

func (fastTableParser) CanInterruptParagraph() bool { return false }

func (fastTableParser) CanAcceptIndentedLine() bool { return false }

// blankBefore reports whether the line at start is the first of source
// or follows a line of spaces and tabs only.
func blankBefore(source []byte, start int) bool {
	if start == 0 {
		return true
	}
	if source[start-1] != '\n' {
		return false
	}
	i := start - 1
	for i > 0 && (source[i-1] == ' ' || source[i-1] == '\t') {
		i--
	}
	return i == 0 || source[i-1] == '\n'
}

// readTable reads the table whose first row starts at start, or returns
// nil for one it leaves to goldmark.
func readTable(source []byte, start int) *fastTable {
	var rows [][2]int // each row's start and end, without its line break
	pos := start
	for pos < len(source) && source[pos] == '|' {
		end := pos + bytes.IndexByte(source[pos:], '\n')
		if end < pos {
			end = len(source)
		}
		rows = append(rows, [2]int{pos, end})
		pos = end + 1
	}
	if len(rows) < 2 || pos < len(source) && !blankLine(source[pos:]) {
		return nil
	}
	t := &fastTable{left: len(rows) - 1}
	var cells [][2]int
	for i, r := range rows {
		cells = rowCells(cells[:0], source, r[0], r[1])
		if cells == nil || i > 0 && len(cells) != len(t.align) {
			return nil
		}
		switch i {
		case 0:
			t.align = make([]east.Alignment, len(cells))
		case 1:
			for k, c := range cells {
				a, ok := delimiter(source[c[0]:c[1]])
				if !ok {
					return nil
				}
				t.align[k] = a
			}
			continue
		}
		row := make([]fastCell, len(cells))
		for k, c := range cells {
			from := len(t.parts)
			var ok bool
			if t.parts, ok = readCell(t.parts, source, c[0], c[1]); !ok {
				return nil
			}
			row[k] = fastCell{from, len(t.parts)}
		}
		if i == 0 {
			t.header = row
		} else {
			t.body = append(t.body, row)
		}
	}
	return t
}

// blankLine reports whether the line at the start of b holds spaces and
// tabs only.
func blankLine(b []byte) bool {
	for _, c := range b {
		switch c {
		case '\n':
			return true
		case ' ', '\t':
		default:
			return false
		}
	}
	return true
}

// rowCells appends to cells the cells of the row source[start:end], each
// without the spaces around it; nil unless the row starts and ends with "|" and
// holds no control byte, no backslash and no empty last cell, on which
// goldmark's reading differs from a split.
func rowCells(cells [][2]int, source []byte, start, end int) [][2]int {
	if end-start < 3 || source[end-1] != '|' || source[end-2] == '|' {
		return nil
	}
	from := start + 1
	for i := from; i < end; i++ {
		c := source[i]
		if c < 0x20 || c == 0x7f || c == '\\' {
			return nil
		}
		if c != '|' {
			continue
		}
		a, b := from, i
		for a < b && source[a] == ' ' {
			a++
		}
		for b > a && source[b-1] == ' ' {
			b--
		}
		cells = append(cells, [2]int{a, b})
		from = i + 1
	}
	return cells
}

// delimiter reads a cell of the alignment row: -, :-, -: or :-:.
func delimiter(cell []byte) (east.Alignment, bool) {
	left := len(cell) > 0 && cell[0] == ':'
	right := len(cell) > 1 && cell[len(cell)-1] == ':'
	dashes := cell
	if left {
		dashes = dashes[1:]
	}
	if right {
		dashes = dashes[:len(dashes)-1]
	}
	if len(dashes) == 0 || len(bytes.Trim(dashes, "-")) != 0 {
		return east.AlignNone, false
	}
	switch {
	case left && right:
		return east.AlignCenter, true
	case left:
		return east.AlignLeft, true
	case right:
		return east.AlignRight, true
	}
	return east.AlignNone, true
}

// readCell appends to cell the runs of text and links
// [label](#place "title") (the title optional) that source[start:end] is
// made of, with at most one emphasis, *...* or **...**, around some of
// them; ok is false for anything else.
func readCell(cell []cellPart, source []byte, start, end int) (_ []cellPart, ok bool) {
	from := start   // source[from:i] is text not yet added
	var runs [2]int // where each "*" run starts
	nRuns := 0
	for i := start; i < end; {
		c := source[i]
		switch {
		case c == '*':
			if nRuns == 2 {
				return nil, false
			}
			if from < i {
				cell = append(cell, cellPart{text: text.NewSegment(from, i)})
			}
			runs[nRuns] = len(cell)
			nRuns++
			n := i
			for i < end && source[i] == '*' {
				i++
			}
			cell = append(cell, cellPart{text: text.NewSegment(n, i), em: true})
			from = i
		case c == '[':
			link, next := readLink(source, i, end)
			if next < 0 {
				return nil, false
			}
			if from < i {
				cell = append(cell, cellPart{text: text.NewSegment(from, i)})
			}
			cell = append(cell, link)
			i, from = next, next
		case notCellText[c]:
			return nil, false
		default:
			i++
		}
	}
	if from < end {
		cell = append(cell, cellPart{text: text.NewSegment(from, end)})
	}
	if nRuns == 1 || nRuns == 2 && !emphasis(source, start, end, cell[runs[0]].text, cell[runs[1]].text) {
		return nil, false
	}
	return cell, true
}

// emphasis reports whether the runs of "*" open and close an emphasis
// around what is between them, as goldmark reads them in the cell
// source[start:end]: the same length, one or two (the rule of three then
// never applies), the first able to open, the second to close, something
// between them.
func emphasis(source []byte, start, end int, open, close text.Segment) bool {
	if open.Len() != close.Len() || open.Len() > 2 || close.Start == open.Stop {
		return false
	}
	canOpen, _ := delimiterSides(source, start, end, open)
	_, canClose := delimiterSides(source, start, end, close)
	return canOpen && canClose
}

// delimiterSides is whether a run of "*" can open and close an emphasis,
// as parser.ScanDelimiter says, with the characters around it as the
// parser sees them in the cell source[start:end].
func delimiterSides(source []byte, start, end int, run text.Segment) (canOpen, canClose bool) {
	before := '\n' // the start of the cell: blockReader.PrecendingCharacter
	if run.Start > start {
		i := run.Start - 1
		for i >= 0 && !utf8.RuneStart(source[i]) {
			i--
		}
		if i >= 0 {
			before, _ = utf8.DecodeRune(source[i:])
		}
	}
	after := ' '
	if run.Stop < end {
		after = util.ToRune(source[run.Start:end], run.Stop-run.Start)
	}
	beforePunct, beforeSpace := util.IsPunctRune(before), util.IsSpaceRune(before)
	afterPunct, afterSpace := util.IsPunctRune(after), util.IsSpaceRune(after)
	canOpen = !afterSpace && (!afterPunct || beforeSpace || beforePunct)
	canClose = !beforeSpace && (!beforePunct || afterSpace || afterPunct)
	return canOpen, canClose
}

// readLink reads the link at source[at] ("["), returning it and where it
// ends, or -1.
func readLink(source []byte, at, end int) (cellPart, int) {
	i := at + 1
	for i < end && !notCellText[source[i]] {
		i++
	}
	label := text.NewSegment(at+1, i)
	if label.Len() == 0 || label.Len() > 998 || i+2 >= end || source[i] != ']' || source[i+1] != '(' || source[i+2] != '#' {
		return cellPart{}, -1
	}
	i += 2
	d := i
	for i < end && !notPlain[source[i]] && source[i] != ' ' {
		i++
	}
	link := cellPart{text: label, link: true, dest: source[d:i]}
	if i+1 < end && source[i] == ' ' && source[i+1] == '"' {
		t := i + 2
		for i = t; i < end && source[i] != '"'; i++ {
			if source[i] == '\\' || source[i] < 0x20 {
				return cellPart{}, -1
			}
		}
		if i >= end {
			return cellPart{}, -1
		}
		link.title = source[t:i]
		i++
	}
	if i >= end || source[i] != ')' {
		return cellPart{}, -1
	}
	return link, i + 1
}

// isTable reports whether n is a table, goldmark's or a fast one.
func isTable(n gast.Node) bool {
	switch n.(type) {
	case *east.Table, *fastTable:
		return true
	}
	return false
}

// firstAllRunsTable is compareTable's choice among the blocks from first
// on: the first table in a section whose heading is anchored allRunsID.
func firstAllRunsTable(first gast.Node) gast.Node {
	for n := first; n != nil; n = n.NextSibling() {
		h, ok := n.(*gast.Heading)
		if !ok {
			continue
		}
		if id, _ := h.AttributeString("id"); !bytesEqual(id, allRunsID) {
			continue
		}
		for m := h.NextSibling(); m != nil; m = m.NextSibling() {
			if _, ok := m.(*gast.Heading); ok {
				break
			}
			if isTable(m) {
				return m
			}
		}
	}
	return nil
}

// inAllRunsSection reports whether a block added to parent now would be
// the first table of a section anchored allRunsID.
func inAllRunsSection(parent gast.Node) bool {
	for n := parent.LastChild(); n != nil; n = n.PreviousSibling() {
		if isTable(n) {
			return false
		}
		if h, ok := n.(*gast.Heading); ok {
			id, _ := h.AttributeString("id")
			return bytesEqual(id, allRunsID)
		}
	}
	return false
}

type fastTableRenderer struct{ writer html.Writer }

func (r fastTableRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(kindFastTable, r.render)
}

func (r fastTableRenderer) render(w util.BufWriter, source []byte, node gast.Node, entering bool) (gast.WalkStatus, error) {
	if !entering {
		return gast.WalkContinue, nil
	}
	t := node.(*fastTable)
	_, _ = w.WriteString("<table")
	stack := true
	if t.compare != nil {
		for _, kv := range t.compare.table {
			writeAttribute(w, kv[0], kv[1])
			stack = stack && kv[0] != "data-compare"
		}
	}
	var labels [][]byte
	if stack {
		for _, c := range t.header {
			labels = append(labels, r.plainText(t.parts[c.from:c.to], source))
		}
		_, _ = w.WriteString(` class="stack"`)
	}
	_, _ = w.WriteString(">\n<thead>\n<tr>\n")
	for i, c := range t.header {
		_, _ = w.WriteString("<th")
		if t.compare != nil && i >= 2 {
			writeAttribute(w, "data-run", t.compare.runs[i-2])
		}
		r.cell(w, source, t.parts[c.from:c.to], t.align[i], "</th>\n")
	}
	_, _ = w.WriteString("</tr>\n</thead>\n")
	if len(t.body) > 0 {
		_, _ = w.WriteString("<tbody>\n")
	}
	for ri, row := range t.body {
		_, _ = w.WriteString("<tr")
		if t.compare != nil {
			ra := t.compare.rows[ri]
			better := "0"
			if ra.higherBetter {
				better = "1"
			}
			writeAttribute(w, "data-higher-better", better)
			writeAttribute(w, "data-band", ra.band)
			if ra.unlike != "" {
				writeAttribute(w, "data-unlike", ra.unlike)
			}
		}
		_, _ = w.WriteString(">\n")
		for i, c := range row {
			_, _ = w.WriteString("<td")
			if t.compare != nil && i >= 2 {
				ra := t.compare.rows[ri]
				for _, kv := range [][2]string{{"data-v", ra.values[i-2]}, {"data-replicas", ra.replicas[i-2]}, {"data-t", ra.tests[i-2]}} {
					if kv[1] != "" {
						writeAttribute(w, kv[0], kv[1])
					}
				}
			}
			if stack && len(labels[i]) > 0 {
				writeAttribute(w, "data-label", string(labels[i]))
			}
			r.cell(w, source, t.parts[c.from:c.to], t.align[i], "</td>\n")
		}
		_, _ = w.WriteString("</tr>\n")
	}
	if len(t.body) > 0 {
		_, _ = w.WriteString("</tbody>\n")
	}
	_, _ = w.WriteString("</table>\n")
	return gast.WalkSkipChildren, nil
}

// cell writes the rest of a cell's opening tag, its alignment, its
// content and its closing tag.
func (r fastTableRenderer) cell(w util.BufWriter, source []byte, c []cellPart, align east.Alignment, closing string) {
	if align != east.AlignNone {
		_, _ = w.WriteString(` style="text-align:`)
		_, _ = w.WriteString(align.String())
		_ = w.WriteByte('"')
	}
	_ = w.WriteByte('>')
	opened := false
	for _, p := range c {
		switch {
		case p.em:
			tag := "em>"
			if p.text.Len() == 2 {
				tag = "strong>"
			}
			if opened {
				_, _ = w.WriteString("</")
			} else {
				_ = w.WriteByte('<')
			}
			_, _ = w.WriteString(tag)
			opened = !opened
			continue
		case !p.link:
			r.writer.Write(w, p.text.Value(source))
			continue
		}
		// As fragmentLinkRenderer and spanStats write it.
		writeLinkOpen(w, r.writer, p.dest, p.title)
		label := p.text.Value(source)
		if head := changeHead.Find(label); head != nil && startsWithMark(label) && len(head) < len(label) {
			r.writer.Write(w, head)
			_, _ = w.WriteString(`<span class="stat">`)
			r.writer.Write(w, label[len(head):])
			_, _ = w.WriteString(`</span>`)
		} else {
			r.writer.Write(w, label)
		}
		_, _ = w.WriteString("</a>")
	}
	_, _ = w.WriteString(closing)
}

// plainText is what stackTables labels a column with: the header cell's
// text, links' labels included, without spaces around it.
func (fastTableRenderer) plainText(c []cellPart, source []byte) []byte {
	var b []byte
	for _, p := range c {
		if !p.em {
			b = append(b, p.text.Value(source)...)
		}
	}
	return bytes.TrimSpace(b)
}

// writeAttribute writes an attribute as goldmark's RenderAttributes does.
func writeAttribute(w util.BufWriter, name, value string) {
	_ = w.WriteByte(' ')
	_, _ = w.WriteString(name)
	_, _ = w.WriteString(`="`)
	_, _ = w.Write(util.EscapeHTML([]byte(value)))
	_ = w.WriteByte('"')
}
