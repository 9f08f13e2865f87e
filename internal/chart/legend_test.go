package chart

import (
	"encoding/xml"
	"os"
	"strconv"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// drawnText is one text element of a drawn chart: its x, anchor and words.
type drawnText struct {
	x      float64
	anchor string
	text   string
}

// drawnTexts reads the text elements back from an SVG.
func drawnTexts(t *testing.T, svg []byte) []drawnText {
	t.Helper()
	var doc struct {
		Texts []struct {
			X     string `xml:"x,attr"`
			Chars string `xml:",chardata"`
			Tspan struct {
				Anchor string `xml:"text-anchor,attr"`
				Chars  string `xml:",chardata"`
			} `xml:"tspan"`
		} `xml:"text"`
	}
	if err := xml.Unmarshal(svg, &doc); err != nil {
		t.Fatalf("not well-formed XML: %v", err)
	}
	var out []drawnText
	for _, e := range doc.Texts {
		x, err := strconv.ParseFloat(e.X, 64)
		if err != nil {
			t.Fatalf("text x %q: %v", e.X, err)
		}
		out = append(out, drawnText{x: x, anchor: e.Tspan.Anchor, text: e.Chars + e.Tspan.Chars})
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
			svg, err := drawSVG(m, w, s.draw, s.name, s.title, "desc", "sans-serif")
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
