package render

import (
	"bytes"

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
	if isLog {
		summary := bytes.TrimSpace(bytes.TrimPrefix(info, lang))
		_, _ = w.WriteString(`<details class="log"><summary>`)
		_, _ = w.Write(util.EscapeHTML(summary))
		_, _ = w.WriteString("</summary>\n")
	}
	_, _ = w.WriteString("<pre><code")
	if len(lang) > 0 {
		_, _ = w.WriteString(` class="language-`)
		_, _ = w.Write(util.EscapeHTML(lang))
		_, _ = w.WriteString(`"`)
	}
	_, _ = w.WriteString(">")
	lines := n.Lines()
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		writeEscaped(w, seg.Value(source))
	}
	_, _ = w.WriteString("</code></pre>\n")
	if isLog {
		_, _ = w.WriteString("</details>\n")
	}
	return ast.WalkSkipChildren, nil
}
