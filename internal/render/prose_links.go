package render

import (
	"bytes"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"github.com/perflab/perflab/internal/check"
)

// LinkReader lists the links of prose as a report page publishes them,
// read by the same goldmark, with the same extensions, as the pages:
// what check judges of a link is what the page shows and opens.
type LinkReader struct{ md goldmark.Markdown }

// NewLinkReader returns a LinkReader; it may be used from any goroutine.
func NewLinkReader() *LinkReader {
	return &LinkReader{md: reportMarkdown()}
}

// Links lists the links of a content file (its front matter, which is
// not Markdown, blanked out first): the text a reader sees, the href the
// page writes and the line of the link's "[".
func (lr *LinkReader) Links(file []byte) []check.ProseLink {
	if !bytes.ContainsRune(file, '[') {
		return nil
	}
	src := blankFrontMatter(file)
	doc := lr.md.Parser().Parse(text.NewReader(src))
	var out []check.ProseLink
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		link, ok := n.(*ast.Link)
		if !entering || !ok {
			return ast.WalkContinue, nil
		}
		var shown []byte
		visibleText(link, src, &shown)
		shown = util.ResolveEntityNames(util.ResolveNumericReferences(util.UnescapePunctuations(shown)))
		line := 0
		if at := link.Pos(); at >= 0 {
			line = bytes.Count(src[:at], []byte("\n")) + 1
		}
		out = append(out, check.ProseLink{Text: string(shown), Target: string(util.URLEscape(link.Destination, true)), Line: line})
		return ast.WalkContinue, nil
	})
	return out
}

// visibleText appends the text a reader sees of n: its text and code,
// not the alternative text of an image.
func visibleText(n ast.Node, src []byte, out *[]byte) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch c := c.(type) {
		case *ast.Text:
			*out = append(*out, c.Segment.Value(src)...)
			if c.SoftLineBreak() || c.HardLineBreak() {
				*out = append(*out, ' ')
			}
		case *ast.String:
			*out = append(*out, c.Value...)
		case *ast.Image:
		default:
			visibleText(c, src, out)
		}
	}
}

// blankFrontMatter turns the YAML front matter of a content file, when
// it has one, into blank lines, so that lines keep their numbers.
func blankFrontMatter(file []byte) []byte {
	if !bytes.HasPrefix(file, []byte("---\n")) && !bytes.HasPrefix(file, []byte("---\r\n")) {
		return file
	}
	end := -1
	for off := bytes.IndexByte(file, '\n') + 1; off < len(file); {
		next := bytes.IndexByte(file[off:], '\n')
		line := file[off:]
		if next >= 0 {
			line = file[off : off+next]
		}
		if string(bytes.TrimSuffix(line, []byte("\r"))) == "---" {
			end = off + len(line)
			break
		}
		if next < 0 {
			break
		}
		off += next + 1
	}
	if end < 0 {
		return file
	}
	out := bytes.Clone(file)
	for i := range end {
		if out[i] != '\n' {
			out[i] = ' '
		}
	}
	return out
}
