package check

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/perflab/perflab/internal/study"
)

func TestTypography(t *testing.T) {
	text := strings.Join([]string{
		"吞吐量提升,延迟不变。",      // 1: ASCII comma between Han
		"推荐配置(见下文)。",       // 2: ASCII parentheses
		"吞吐量 (tok/s) 更高。",  // 3: fine: ASCII inside the parentheses
		"见 `--tp 4,8` 一节。", // 4: fine: code span
		"第一步。 第二步。",        // 5: space after 。
		"ノードは8台:各GPU",      // 6: ASCII colon between Han
		"設定:最適化",           // 7: ASCII colon between kana/Han
		"```",
		"中文,代码", // 9: inside a fence: fine
		"```",
		"[链接](https://x.org/a,b)。", // 11: fine: link target
	}, "\n")
	var lines []string
	for _, d := range Typography("content/zh/x.md", text) {
		if d.Rule != RuleTypography || d.Severity != Error || d.File != "content/zh/x.md" {
			t.Errorf("diagnostic %+v", d)
		}
		lines = append(lines, fmt.Sprint(d.Line))
	}
	if want := "1 2 2 5 6 7"; strings.Join(lines, " ") != want {
		t.Errorf("typography problems on lines %v, want %s", lines, want)
	}
	if d := Typography("f", "吞吐量提升,延迟不变"); len(d) != 1 || !strings.Contains(d[0].Message, "，") {
		t.Errorf("the message does not name the full-width comma: %v", d)
	}
}

func TestGlossary(t *testing.T) {
	var g Glossary
	g.Terms = append(g.Terms, GlossaryTerm{Words: map[string]string{"en": "baseline", "zh": "基准", "ja": "ベースライン"},
		Avoid: map[string][]string{"zh": {"基线"}}})
	d := g.Check("content/zh/x.md", "zh", "基准配置\n与基线相比\n`基线` 在代码里\n")
	if len(d) != 1 || d[0].Line != 2 || !strings.Contains(d[0].Message, "基准") {
		t.Errorf("glossary problems: %v, want one on line 2 naming 基准", d)
	}
	if d := g.Check("content/ja/x.md", "ja", "与基线相比\n"); len(d) != 0 {
		t.Errorf("a Chinese-only avoid word reported in Japanese: %v", d)
	}
}

func TestTypographySpaceBetweenCJK(t *testing.T) {
	text := strings.Join([]string{
		"在 短提示 上，推荐配置更慢。",      // 1: spaces between Han
		"在 ShareGPT 上，推荐配置更慢。", // 2: fine: Latin between
		"在 {{.Subject}} 上更慢。",  // 3: fine: a field between
		"8 块 GPU",              // 4: fine: digits and Latin
		"長い プロンプト",             // 5: kana and katakana
		"一、 二",                 // 6: after 、
		"见（表 1） 的说明",           // 7: after ）
		"（推算值） tok/s",          // 8: fine: Latin after
	}, "\n")
	var lines []string
	for _, d := range Typography("locales/zh.yaml", text) {
		lines = append(lines, fmt.Sprint(d.Line))
	}
	if want := "1 5 6 7"; strings.Join(lines, " ") != want {
		t.Errorf("spaces reported on lines %v, want %s", lines, want)
	}
}

func TestTypographyBold(t *testing.T) {
	for _, tc := range []struct {
		text string
		want string // "": fine
	}{
		{`slo.best: "**满足预算的最佳配置：**{{.Run}}，{{.Value}}。"`, "close"},
		{"**结果：**SGLang 更快。", "close"},
		{"值**（推算值）**", "open"},
		{`slo.best: "**满足预算的最佳配置**：{{.Run}}，{{.Value}}。"`, ""},
		{"**准确率：** 原文称……", ""},
		{"[1.0](#a)**（▼ 5 %，更慢）** 其后", ""},
		{"**ShareGPT**：对话数据", ""},
		{"`**：**x` 在代码里", ""},
	} {
		ds := Typography("f", tc.text)
		switch {
		case tc.want == "" && len(ds) != 0:
			t.Errorf("%s: %v, want none", tc.text, ds)
		case tc.want != "" && (len(ds) != 1 || !strings.Contains(ds[0].Message, "cannot "+tc.want+" bold")):
			t.Errorf("%s: %v, want one that cannot %s bold", tc.text, ds, tc.want)
		}
	}
}

func TestRegister(t *testing.T) {
	mixed := strings.Join([]string{
		`a: "値が高いほど良好です。"`,
		`b: "比べた棒グラフ。低いほど良い。"`, // 2: plain among polite
		`c: "高いほど良い"`,          // a label: no 。
		`d: "表を参照してください。"`,
		`e: "これは推計値である。"`, // 5
	}, "\n")
	var lines []string
	for _, lang := range []string{"en", "zh"} {
		if d := Register("locales/"+lang+".yaml", lang, mixed); len(d) != 0 {
			t.Errorf("%s has no register, yet: %v", lang, d)
		}
	}
	for _, d := range Register("locales/ja.yaml", "ja", mixed) {
		if d.Rule != RuleTypography || d.File != "locales/ja.yaml" {
			t.Errorf("diagnostic %+v", d)
		}
		lines = append(lines, fmt.Sprint(d.Line))
	}
	if want := "2 5"; strings.Join(lines, " ") != want {
		t.Errorf("plain sentences reported on lines %v, want %s", lines, want)
	}
	if d := Register("f", "ja", "低いほど良い。\nこれは推計値である。\n"); len(d) != 0 {
		t.Errorf("a file in the plain style throughout: %v, want nothing", d)
	}
}

func TestLatinWords(t *testing.T) {
	var g Glossary
	if err := yaml.Unmarshal([]byte(`
terms:
  - en: kernel
    zh: 内核
    avoid: {zh: [kernel]}
latin:
  all: [vLLM, CUDA Graphs, tok/s]
  zh: [token]
`), &g); err != nil {
		t.Fatal(err)
	}
	yamlText := strings.Join([]string{
		"# 注释里的 English 不算",                                     // 1: comment
		`run.vs: "（{{.Change}} vs {{.Run}}）"`,                   // 2: vs
		`chart.legend: "斜线：推算值（实测值 x 副本数）"`,                     // 3: x
		`ok: "vLLM 的 FP8 与 A100、GPU、w8a16，总 token 吞吐量 (tok/s)"`, // 4: fine
		`font: "Roboto, 'Noto Sans CJK SC', sans-serif"`,        // 5: no Chinese: not prose
		"code: \"见 `torch.compile` 与 CUDA Graphs\"",             // 6: fine
		`link: "[提交 issue]({{.URL}})"`,                          // 7: issue
		`k: "Marlin kernel 内核"`,                                 // 8: Marlin (kernel is Check's)
	}, "\n")
	var got []string
	for _, d := range g.LatinWords("locales/zh.yaml", "zh", yamlText) {
		got = append(got, fmt.Sprintf("%d:%s", d.Line, strings.Split(d.Message, `"`)[1]))
	}
	if want := "2:vs 3:x 7:issue 8:Marlin"; strings.Join(got, " ") != want {
		t.Errorf("Latin words %v, want %s", got, want)
	}
	md := "---\nworkloads:\n  chat: 对话\n---\n<!-- section: notes -->\n每个 token 都 prefill。\n"
	if d := g.LatinWords("content/zh/x.md", "zh", md); len(d) != 1 || d[0].Line != 6 || !strings.Contains(d[0].Message, `"prefill"`) {
		t.Errorf("Markdown: %v, want prefill on line 6 only", d)
	}
	if d := g.LatinWords("content/ja/x.md", "ja", "各 token の値。\n"); len(d) != 1 {
		t.Errorf("token is allowed in Chinese only: %v", d)
	}
	// A unit after a figure is no English word; the same letters alone are.
	if d := g.LatinWords("content/ja/x.md", "ja", "平均 TTFT は 149.67 s で、5 ms 短い。\n"); len(d) != 0 {
		t.Errorf("units after figures: %v", d)
	}
	if d := g.LatinWords("content/zh/x.md", "zh", "这是 s 的值。\n"); len(d) != 1 {
		t.Errorf("s alone is a word: %v", d)
	}
	if d := (&Glossary{}).LatinWords("locales/zh.yaml", "zh", yamlText); d != nil {
		t.Errorf("without a latin list the rule is off: %v", d)
	}
}

func TestTypographyItalicCJK(t *testing.T) {
	for text, want := range map[string]bool{
		"*第 1 次重复（共 3 次）*":            true,
		"值 *（推算值）* tok/s":             true,
		"*Repeat 1 of 3*":             false,
		"**结果**：SGLang":               false,
		"* 列表项":                       false, // a list item
		"2 * 3 = 6，乘法":                false,
		"`*代码*` 不算":                   false,
		"[x](#a \"*\")*Repeat*，中文在外面": false,
		"Latin *ー* only":              true, // the prolonged sound mark is Japanese
	} {
		ds := Typography("f", text)
		got := false
		for _, d := range ds {
			if strings.Contains(d.Message, "italics") {
				got = true
			}
		}
		if got != want {
			t.Errorf("%q: italic reported %v, want %v (%v)", text, got, want, ds)
		}
	}
}

// BenchmarkProseRules runs every prose rule over the repository's Chinese
// and Japanese content and locale files, as make check and build do.
func BenchmarkProseRules(b *testing.B) {
	var files []string
	for _, pattern := range []string{"../../content/zh/*.md", "../../content/ja/*.md", "../../locales/zh.yaml", "../../locales/ja.yaml"} {
		m, _ := filepath.Glob(pattern)
		files = append(files, m...)
	}
	texts := make([]string, len(files))
	size := 0
	for i, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		texts[i] = string(data)
		size += len(data)
	}
	data, err := os.ReadFile("../../locales/glossary.yaml")
	if err != nil {
		b.Fatal(err)
	}
	g := &Glossary{}
	if err := yaml.Unmarshal(data, g); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(size))
	for b.Loop() {
		for i, text := range texts {
			lang := "zh"
			if strings.Contains(files[i], "ja") {
				lang = "ja"
			}
			Typography(files[i], text)
			g.Check(files[i], lang, text)
			g.LatinWords(files[i], lang, text)
			Register(files[i], lang, text)
		}
	}
}

// FuzzTypographyPrefilters: a line the prefilters pass over is one the
// regular expressions they stand before find nothing in.
func FuzzTypographyPrefilters(f *testing.F) {
	for _, s := range []string{"中文,中文", "结果 : 更好", "。 下一句", "吞吐量 提升", " 前面 有空格", "ＧＰＵ （８）", "a,b", "中\xff,中", "中文  ,中文"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !mayHaveASCIIBetweenCJK(s) && asciiBetweenCJK.MatchString(s) {
			t.Errorf("asciiBetweenCJK matches %q, which its prefilter passes over", s)
		}
		if !mayHaveSpaceBetweenCJK(s) && spaceBetweenCJK.MatchString(s) {
			t.Errorf("spaceBetweenCJK matches %q, which its prefilter passes over", s)
		}
		if !strings.Contains(s, "。 ") && spaceAfterStop.MatchString(s) {
			t.Errorf("spaceAfterStop matches %q without a space after 。", s)
		}
	})
}

// TestTextByLanguage: Glossary.Text applies to every language what it
// has: the glossary's avoided words in English too, spacing and
// punctuation only where words are unspaced, the register only where
// sentences end in one.
func TestTextByLanguage(t *testing.T) {
	g := &Glossary{Terms: []GlossaryTerm{{Words: map[string]string{"en": "baseline", "zh": "基准", "ja": "ベースライン"},
		Avoid: map[string][]string{"en": {"reference run"}, "zh": {"基线"}}}}}
	if d := g.Text("content/en/x.md", "en", "The reference run is slower.\n", nil); len(d) != 1 || !strings.Contains(d[0].Message, `"baseline"`) {
		t.Errorf("English avoided word: %v, want one naming baseline", d)
	}
	if d := g.Text("content/en/x.md", "en", "Lower is better (see below).\n", nil); len(d) != 0 {
		t.Errorf("English prose held to CJK typography: %v", d)
	}
	if d := g.Text("content/zh/x.md", "zh", "越低越好(见下文)。\n", nil); len(d) != 2 {
		t.Errorf("Chinese ASCII parentheses: %v, want both", d)
	}
	for lang, want := range map[string]bool{"en": true, "zh": true, "ja": true} {
		if g.Reads(lang) != want {
			t.Errorf("Reads(%s) = %t", lang, !want)
		}
	}
	if (&Glossary{}).Reads("en") {
		t.Error("English without avoided words has nothing to read")
	}
	mixed := "値が高いほど良好です。\nこれは推計値である。\n"
	if d := g.Text("content/ja/x.md", "ja", mixed, nil); len(d) != 1 || d[0].Line != 2 {
		t.Errorf("Japanese mixed register: %v, want line 2", d)
	}
}

// TestRepositoryGlossary: locales/glossary.yaml gives each term a word in
// every language.
func TestRepositoryGlossary(t *testing.T) {
	data, err := os.ReadFile("../../locales/glossary.yaml")
	if err != nil {
		t.Fatal(err)
	}
	g, probs := ParseGlossary("locales/glossary.yaml", data)
	if len(probs) > 0 || len(g.Terms) == 0 {
		t.Fatalf("glossary: %v, %d terms", probs, len(g.Terms))
	}
	for _, term := range g.Terms {
		for _, lang := range study.Languages {
			if term.Words[lang] == "" {
				t.Errorf("term %v has no word in %s", term.Words, lang)
			}
		}
	}
}
