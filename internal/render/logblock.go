package render

import (
	"bytes"
	"strconv"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/util"
)

// logBlocks renders fenced code blocks. A block whose info string starts
// with "log" becomes a collapsible <details> element whose summary is the
// rest of the info string, so a raw benchmark result stays one click away
// without raw HTML in the Markdown.
type logBlocks struct{}

func (logBlocks) Extend(m goldmark.Markdown) {
	m.Renderer().AddOptions(renderer.WithNodeRenderers(util.Prioritized(logBlockRenderer{}, 100)))
}

type logBlockRenderer struct{}

func (logBlockRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindFencedCodeBlock, renderFenced)
}

// lineAnchors numbers the first count lines of a log block from first,
// with ids "<prefix>-<line>". The template asks for them with an info
// string "log @<prefix>:<first>:<count> <summary>".
type lineAnchors struct {
	prefix       string
	first, count int
}

// parseAnchors reads "@prefix:first:count" at the start of a log block's
// summary, and returns the rest of the summary.
func parseAnchors(summary []byte) (lineAnchors, []byte) {
	if !bytes.HasPrefix(summary, []byte("@")) {
		return lineAnchors{}, summary
	}
	spec, rest, _ := bytes.Cut(summary[1:], []byte(" "))
	parts := bytes.Split(spec, []byte(":"))
	if len(parts) != 3 || !isSafeID(parts[0]) {
		return lineAnchors{}, summary
	}
	first, err1 := strconv.Atoi(string(parts[1]))
	count, err2 := strconv.Atoi(string(parts[2]))
	if err1 != nil || err2 != nil || first < 1 || count < 0 {
		return lineAnchors{}, summary
	}
	return lineAnchors{string(parts[0]), first, count}, bytes.TrimSpace(rest)
}

// LineID is the id of a log line in a page: the log's path made an id,
// and the line.
func LineID(repoPath string, line int) string {
	return lineIDPrefix(repoPath) + "-" + strconv.Itoa(line)
}

// lineIDPrefix is short, as it is written twice on every line of every
// log: "L" and the 32-bit FNV-1a hash of the log's path in hex (written
// out here: a page asks for it at every figure).
func lineIDPrefix(repoPath string) string {
	const hexDigits = "0123456789abcdef"
	h := uint32(2166136261) // FNV-1a, 32 bits: offset basis and prime
	for i := 0; i < len(repoPath); i++ {
		h ^= uint32(repoPath[i])
		h *= 16777619
	}
	var id [9]byte
	id[0] = 'L'
	for i := 8; i > 0; i-- {
		id[i] = hexDigits[h&0xf]
		h >>= 4
	}
	return string(id[:])
}

func renderFenced(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*ast.FencedCodeBlock)
	lang := n.Language(source)
	var info []byte
	if n.Info != nil {
		info = bytes.TrimSpace(n.Info.Segment.Value(source))
	}
	isLog := bytes.Equal(lang, []byte("log"))
	var anchors lineAnchors
	var summary []byte
	if isLog {
		summary = bytes.TrimSpace(bytes.TrimPrefix(info, lang))
		anchors, summary = parseAnchors(summary)
		_, _ = w.WriteString(`<details class="log"><summary>`)
		_, _ = w.Write(util.EscapeHTML(summary))
		_, _ = w.WriteString("</summary>\n")
	}
	// A keyboard reaches the block to scroll it; its name is the log's
	// summary, or the page's name for a block of code.
	name := summary
	if label, ok := n.AttributeString("aria-label"); ok && !isLog {
		name, _ = label.([]byte)
	}
	_, _ = w.WriteString(`<pre tabindex="0"`)
	if len(name) > 0 {
		_, _ = w.WriteString(` aria-label="`)
		_, _ = w.Write(util.EscapeHTML(name))
		_ = w.WriteByte('"')
	}
	_, _ = w.WriteString(`><code`)
	if len(lang) > 0 {
		_, _ = w.WriteString(` class="language-`)
		_, _ = w.Write(util.EscapeHTML(lang))
		_, _ = w.WriteString(`"`)
	}
	_, _ = w.WriteString(">")
	lines := n.Lines()
	var num [20]byte
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		if i < anchors.count {
			// Each line of the log is a target: "#<prefix>-<line>",
			// written in pieces: a page has thousands of them.
			line := strconv.AppendInt(num[:0], int64(anchors.first+i), 10)
			_, _ = w.WriteString(`<span class="ln" id="`)
			_, _ = w.WriteString(anchors.prefix)
			_ = w.WriteByte('-')
			_, _ = w.Write(line)
			_, _ = w.WriteString(`"><a href="#`)
			_, _ = w.WriteString(anchors.prefix)
			_ = w.WriteByte('-')
			_, _ = w.Write(line)
			_, _ = w.WriteString(`">`)
			_, _ = w.Write(line)
			_, _ = w.WriteString(`</a>`)
			_, _ = w.Write(util.EscapeHTML(bytes.TrimRight(seg.Value(source), "\n")))
			_, _ = w.WriteString("</span>\n")
			continue
		}
		_, _ = w.Write(util.EscapeHTML(seg.Value(source)))
	}
	_, _ = w.WriteString("</code></pre>\n")
	if isLog {
		_, _ = w.WriteString("</details>\n")
	}
	return ast.WalkSkipChildren, nil
}
