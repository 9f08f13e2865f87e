package check

import (
	"fmt"
	"strings"
	"testing"
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
	g.Terms = append(g.Terms, struct {
		EN    string              `yaml:"en"`
		ZH    string              `yaml:"zh"`
		JA    string              `yaml:"ja"`
		Avoid map[string][]string `yaml:"avoid"`
	}{EN: "baseline", ZH: "基准", JA: "ベースライン", Avoid: map[string][]string{"zh": {"基线"}}})
	d := g.Check("content/zh/x.md", "zh", "基准配置\n与基线相比\n`基线` 在代码里\n")
	if len(d) != 1 || d[0].Line != 2 || !strings.Contains(d[0].Message, "基准") {
		t.Errorf("glossary problems: %v, want one on line 2 naming 基准", d)
	}
	if d := g.Check("content/ja/x.md", "ja", "与基线相比\n"); len(d) != 0 {
		t.Errorf("a Chinese-only avoid word reported in Japanese: %v", d)
	}
}
