package chart

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/text/width"
)

// TestMeasureCJK checks that CJK runes count as full-width ems and that
// wrapping keeps every line within the width.
func TestMeasureCJK(t *testing.T) {
	m, err := chartMetrics()
	if err != nil {
		t.Fatal(err)
	}
	if got := m.width("推理引擎", 10); got != 40 {
		t.Errorf("width of four CJK runes at 10 px = %v, want 40", got)
	}
	if got := m.width("テスト", 12); got != 36 {
		t.Errorf("width of three kana at 12 px = %v, want 36", got)
	}
	if a, b := m.width("iiii", 12), m.width("WWWW", 12); a <= 0 || a >= b {
		t.Errorf("Latin widths: iiii %v, WWWW %v", a, b)
	}
	for _, s := range []string{"非常に長いプロンプト（折り返しが必要な長い名前）", "TensorRT-LLM 最大批处理 token 数", "--max_num_tokens=16384 and more words"} {
		lines := m.wrapText(nil, s, 13, 120)
		if strings.Join(lines, "") != strings.ReplaceAll(s, " ", "") && strings.Join(lines, " ") != s {
			// spaces at breaks are dropped; nothing else is
			if strings.ReplaceAll(strings.Join(lines, ""), " ", "") != strings.ReplaceAll(s, " ", "") {
				t.Errorf("wrap(%q) lost text: %q", s, lines)
			}
		}
		for _, l := range lines {
			if m.width(l, 13) > 120 {
				t.Errorf("wrap(%q): line %q is %v px wide, over 120", s, l, m.width(l, 13))
			}
		}
	}
}

// TestAppendEscaped checks the escaping of text, which go-chart's
// renderer writes as it is given.
func TestAppendEscaped(t *testing.T) {
	esc := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&#39;")
	for _, s := range []string{"", "plain", `a<b & "c" 'd'>`, "<<&&>>", "推理 & テスト's"} {
		if got, want := string(appendEscaped([]byte("x"), s)), "x"+esc.Replace(s); got != want {
			t.Errorf("appendEscaped(%q) = %q, want %q", s, got, want)
		}
	}
}

func TestAppendTick(t *testing.T) {
	for _, v := range []float64{0, math.Copysign(0, -1), 1, 2.5, 25, 1000, 0.1 * 3, 1e6 / 3, 999999999999999, 1e15, 1e20, 1.23e-7} {
		if got, want := string(appendTick(nil, v)), strconv.FormatFloat(math.Round(v*1e6)/1e6, 'f', -1, 64); got != want {
			t.Errorf("appendTick(%v) = %q, want %q", v, got, want)
		}
	}
}

// TestMeasureTable checks the table of advances against the font, rune by
// rune, as measured before there was a table.
func TestMeasureTable(t *testing.T) {
	m, err := chartMetrics()
	if err != nil {
		t.Fatal(err)
	}
	for r := rune(0); r < 0x10000; r++ {
		want := m.advance(r)
		if r >= 0x300 {
			if k := width.LookupRune(r).Kind(); k == width.EastAsianWide || k == width.EastAsianFullwidth {
				want = 0
			}
		}
		if got := m.bmp[r]; got != want {
			t.Fatalf("advance of %U = %v, want %v", r, got, want)
		}
	}
}
