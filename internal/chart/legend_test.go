package chart

import (
	"encoding/xml"
	"os"
	"strconv"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// drawnText is one chunk of a drawn chart's text: its x, anchor and words.
type drawnText struct {
	x      float64
	anchor string
	text   string
}

// drawnTexts reads the text chunks back from an SVG: the words of a text
// element at its x, and those of each tspan at the tspan's x, or the
// element's.
func drawnTexts(t *testing.T, svg []byte) []drawnText {
	t.Helper()
	var doc struct {
		Texts []struct {
			X      string `xml:"x,attr"`
			Chars  string `xml:",chardata"`
			Tspans []struct {
				X      string `xml:"x,attr"`
				Anchor string `xml:"text-anchor,attr"`
				Chars  string `xml:",chardata"`
			} `xml:"tspan"`
		} `xml:"text"`
	}
	if err := xml.Unmarshal(svg, &doc); err != nil {
		t.Fatalf("not well-formed XML: %v", err)
	}
	parse := func(s string) float64 {
		x, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatalf("text x %q: %v", s, err)
		}
		return x
	}
	var out []drawnText
	for _, e := range doc.Texts {
		x := parse(e.X)
		if e.Chars != "" {
			out = append(out, drawnText{x: x, text: e.Chars})
		}
		for _, ts := range e.Tspans {
			tx := x
			if ts.X != "" {
				tx = parse(ts.X)
			}
			out = append(out, drawnText{x: tx, anchor: ts.Anchor, text: ts.Chars})
		}
	}
	return out
}

// TestLegendFits draws a bar chart's legend at a phone's width and at a
// desktop's, with every language's legend of a projection and with long
// labels of each script, and checks that every label ends inside the
// chart: a label too long for its line wraps.
func TestLegendFits(t *testing.T) {
	m, err := chartMetrics()
	if err != nil {
		t.Fatal(err)
	}
	labels := []string{
		"Hatched: projected (measurement x replicas that fit on the node)",
		strings.Repeat("Baseline-configuration-", 8),
		strings.Repeat("斜线：推算值（实测值 × 节点可容纳的副本数）", 3),
		strings.Repeat("斜線：推計値（実測値 × ノードに収まるレプリカ数）", 3),
	}
	for _, lang := range []string{"en", "zh", "ja"} {
		raw, err := os.ReadFile("../../locales/" + lang + ".yaml")
		if err != nil {
			t.Fatal(err)
		}
		var msgs map[string]any
		if err := yaml.Unmarshal(raw, &msgs); err != nil {
			t.Fatal(err)
		}
		label, ok := msgs["chart.legend.projected"].(string)
		if !ok {
			t.Fatalf("%s: no chart.legend.projected", lang)
		}
		labels = append(labels, label)
	}
	for _, label := range labels {
		s := chartSpec{
			name: "conclusion", title: "Title", subtitle: "Subtitle",
			legend: []legendItem{{kind: barBaseline, label: "Baseline"}, {kind: barOptimized, label: label}, {kind: barOptimized, projected: true, label: label}},
			panels: []panel{{groups: []group{{label: "Chat", bars: []bar{{kind: barBaseline, value: 1, label: "1"}}}}}},
		}
		for _, w := range []int{narrowWidth, chartWidth} {
			svg, _, err := drawSVG(&canvas{}, m, w, s.draw, s.name, s.title, "desc", "sans-serif")
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range drawnTexts(t, svg) {
				if d.anchor == "" && d.x+m.width(d.text, legendSize) > float64(w-chartPad)+0.5 {
					t.Errorf("at %d px, %q at x=%v ends at %.0f, past the chart's edge", w, d.text, d.x, d.x+m.width(d.text, legendSize))
				}
			}
		}
	}
}
