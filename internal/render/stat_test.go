package render

import (
	"strings"
	"testing"
)

// TestChangeStatsInSpan: the statistics after a change's headline go in a
// span, in every language's form; any other link, and a change whose text
// is not plain, is left as goldmark writes it.
func TestChangeStatsInSpan(t *testing.T) {
	r, err := chartRenderer()
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct{ md, want string }{
		{"[▲ +4.1 % [+1.3, +6.9] (p = 0.009, n = 5 + 5)](#a \"t\")",
			`<a href="#a" title="t">▲ +4.1 %<span class="stat"> [+1.3, +6.9] (p = 0.009, n = 5 + 5)</span></a>`},
		{"[▼ -12.1\u00a0%（n = 1 + 1，噪声带 1.0 %）](#b)",
			"<a href=\"#b\">▼ -12.1\u00a0%<span class=\"stat\">（n = 1 + 1，噪声带 1.0 %）</span></a>"},
		{"[≈ +0.4 % (n = 3 + 3, noise band 1.0 %) (no measurable difference)](#c)",
			`<a href="#c">≈ +0.4 %<span class="stat"> (n = 3 + 3, noise band 1.0 %) (no measurable difference)</span></a>`},
		{"[▲ +4.1 % (a &lt; b)](#e)", `<a href="#e">▲ +4.1 %<span class="stat"> (a &lt; b)</span></a>`},
		{"[▲ +4.1 %](#d)", `<a href="#d">▲ +4.1 %</a>`},
		{"[+4.1 % (n = 1 + 1)](#d)", `<a href="#d">+4.1 % (n = 1 + 1)</a>`},
		{"[▲ +4.1 % (n = 1 + 1)](https://example.com/)", `<a href="https://example.com/">▲ +4.1 % (n = 1 + 1)</a>`},
		{"[▲ +4.1 % *(n = 1 + 1)*](#d)", `<a href="#d">▲ +4.1 % <em>(n = 1 + 1)</em></a>`},
		{"| c |\n|---|\n| [▲ +4.1 % (n = 1 + 1)](#f) |", `<a href="#f">▲ +4.1 %<span class="stat"> (n = 1 + 1)</span></a>`},
	}
	for _, c := range cases {
		out, err := r.markdownToHTML([]byte(c.md))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(out), c.want) {
			t.Errorf("%q:\ngot  %s\nwant %s", c.md, out, c.want)
		}
	}
}
