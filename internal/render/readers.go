package render

import (
	"bytes"
	"strconv"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"

	"github.com/perflab/perflab/internal/chart"
)

// readerAttrs are what a page's HTML gives its readers beyond the
// Markdown: each chart's size, so that the page does not move as charts
// load, and lazy loading after the first; and a name for each code block,
// which a keyboard reaches (tabindex) to scroll it, as axe-core's
// scrollable-region-focusable asks.
type readerAttrs struct {
	charts    map[string]chartSize // by destination in the HTML page
	codeLabel string               // the accessible name of a block that is not a log
	// sized is set once the first chart is: the page's body is rendered
	// in parts (sections.go), and only the page's first chart loads at once.
	sized bool
}

// chartSize is a chart's drawings' sizes: the wide one and the narrow
// one a phone gets (picture.go), whose shape differs.
type chartSize struct{ wide, narrow [2]int }

// readerKey holds a page's readerAttrs in goldmark's parser context.
var readerKey = parser.NewContextKey()

// newReaderAttrs sizes a page's charts, linked from site/<lang>/<study>/.
func newReaderAttrs(studyID string, charts []chart.Chart, codeLabel string) *readerAttrs {
	a := &readerAttrs{charts: map[string]chartSize{}, codeLabel: codeLabel}
	for _, ch := range charts {
		w, h, ok := svgSize(ch.SVG)
		nw, nh, nok := svgSize(ch.Narrow)
		if ok && nok {
			a.charts["../"+linkPath(studyID+"/"+ch.Name+".svg")] = chartSize{[2]int{w, h}, [2]int{nw, nh}}
		}
	}
	return a
}

// svgSize reads the width and height of an SVG drawing's root element,
// as internal/chart writes them.
func svgSize(svg []byte) (w, h int, ok bool) {
	end := bytes.IndexByte(svg, '>')
	if end < 0 {
		return 0, 0, false
	}
	root := svg[:end]
	attr := func(name string) int {
		i := bytes.Index(root, []byte(" "+name+`="`))
		if i < 0 {
			return 0
		}
		v := root[i+len(name)+3:]
		j := bytes.IndexByte(v, '"')
		if j < 0 {
			return 0
		}
		n, err := strconv.Atoi(string(v[:j]))
		if err != nil {
			return 0
		}
		return n
	}
	w, h = attr("width"), attr("height")
	return w, h, w > 0 && h > 0
}

// readerAttributes sets readerAttrs on the page's chart images and code
// blocks; it runs after onlyIDAttributes, which would drop them.
type readerAttributes struct{}

func (readerAttributes) Transform(doc *ast.Document, _ text.Reader, pc parser.Context) {
	a, _ := pc.Get(readerKey).(*readerAttrs)
	if a == nil {
		return
	}
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.FencedCodeBlock:
			n.SetAttributeString("aria-label", []byte(a.codeLabel))
			return ast.WalkSkipChildren, nil
		case *ast.Image:
			size, ok := a.charts[string(n.Destination)]
			if !ok {
				return ast.WalkSkipChildren, nil
			}
			n.SetAttributeString("width", []byte(strconv.Itoa(size.wide[0])))
			n.SetAttributeString("height", []byte(strconv.Itoa(size.wide[1])))
			// For the picture's narrow source; goldmark's image renderer
			// writes only an image's own attributes.
			n.SetAttributeString(narrowWidth, []byte(strconv.Itoa(size.narrow[0])))
			n.SetAttributeString(narrowHeight, []byte(strconv.Itoa(size.narrow[1])))
			if a.sized { // the first is likely in view as the page opens
				n.SetAttributeString("loading", []byte("lazy"))
			}
			a.sized = true
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
}
