package render

import (
	"bytes"

	"github.com/yuin/goldmark"
	gast "github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/util"
)

// narrowMedia is the screens that get a chart's narrow drawing: a phone's,
// where the wide one would be scaled to less than half its size.
const narrowMedia = "(max-width: 640px)"

// chartPictures renders each chart of a page, an SVG image (a report's
// Markdown has no other: its text escapes "!"), as a <picture> whose
// narrow screens get the drawing in narrow/ next to it; the <img> inside
// is goldmark's own, with the wide drawing and the text alternative.
type chartPictures struct{}

// The size of a chart's narrow drawing, on its image node for the
// picture's source (readers.go).
const narrowWidth, narrowHeight = "narrow-width", "narrow-height"

func (chartPictures) Extend(m goldmark.Markdown) {
	var stock stockFuncs
	html.NewRenderer().RegisterFuncs(&stock)
	m.Renderer().AddOptions(renderer.WithNodeRenderers(util.Prioritized(pictureRenderer{stock[gast.KindImage]}, 100)))
}

type pictureRenderer struct{ stock renderer.NodeRendererFunc }

func (r pictureRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(gast.KindImage, r.render)
}

func (r pictureRenderer) render(w util.BufWriter, source []byte, node gast.Node, entering bool) (gast.WalkStatus, error) {
	n := node.(*gast.Image)
	narrow, ok := narrowChart(n.Destination)
	if !entering || !ok {
		return r.stock(w, source, node, entering)
	}
	_, _ = w.WriteString(`<picture><source media="` + narrowMedia + `" srcset="`)
	_, _ = w.Write(util.EscapeHTML(util.URLEscape(narrow, true)))
	_ = w.WriteByte('"')
	for _, a := range [][2]string{{narrowWidth, "width"}, {narrowHeight, "height"}} {
		if v, ok := n.AttributeString(a[0]); ok {
			_, _ = w.WriteString(" " + a[1] + `="`)
			_, _ = w.Write(v.([]byte))
			_ = w.WriteByte('"')
		}
	}
	_ = w.WriteByte('>')
	status, err := r.stock(w, source, node, entering)
	_, _ = w.WriteString(`</picture>`)
	return status, err
}

// narrowChart is the narrow drawing of a chart at dest ("../s/x.svg" gives
// "../s/narrow/x.svg"); false for what is not a chart's SVG.
func narrowChart(dest []byte) ([]byte, bool) {
	if !bytes.HasSuffix(dest, []byte(".svg")) || bytes.Contains(dest, []byte("://")) {
		return nil, false
	}
	cut := bytes.LastIndexByte(dest, '/') + 1
	out := make([]byte, 0, len(dest)+len("narrow/"))
	out = append(out, dest[:cut]...)
	out = append(out, "narrow/"...)
	return append(out, dest[cut:]...), true
}

// stockFuncs collects the node renderers of goldmark's HTML renderer.
type stockFuncs map[gast.NodeKind]renderer.NodeRendererFunc

func (s *stockFuncs) Register(k gast.NodeKind, f renderer.NodeRendererFunc) {
	if *s == nil {
		*s = stockFuncs{}
	}
	(*s)[k] = f
}
