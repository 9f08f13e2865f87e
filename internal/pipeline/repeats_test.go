package pipeline

import (
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/check"
	"github.com/perflab/perflab/internal/render"
)

// repeatsDirs is a study whose runs measured the main workload three times
// each (testdata/repeats), rendered with the repository's locales and
// templates. Total token throughputs, tok/s:
//
//	vllm        990, 1000, 1010 -> 1000 ± 24.84 (t(2) = 4.303, s = 10, n = 3)
//	vllm-fp8   1040, 1050, 1060 -> 1050 ± 24.84: Welch p = 0.004 against vllm, a win
//	vllm-eager 1005, 1020, 1035 -> 1020 ± 37.26: Welch p = 0.14, +2.0 % is noise
var repeatsDirs = Dirs{Results: "testdata/repeats/results", Content: "testdata/repeats/content",
	Locales: "../../locales", Templates: "../../templates"}

// TestRepeatsStudy: every page shows each mean with its interval and
// count, in its language; the win and the noise are told apart; every
// repeat's line is named and shown; the downloads carry the interval.
func TestRepeatsStudy(t *testing.T) {
	t.Parallel()
	p, files := buildRepo(t, repeatsDirs)
	for _, d := range p.Diagnostics() {
		if d.Severity == check.Error && !d.Acknowledged() || d.Severity == check.Warning {
			t.Errorf("check: %s", d.String())
		}
	}
	const id = "example-8b-repeats"
	counts := map[string]string{"en": " (3 repeats)", "zh": "（3 次重复）", "ja": "（3 回の反復）"}
	closing := map[string]string{"en": ")", "zh": "）", "ja": "）"}
	noise := map[string]string{"en": " (no measurable difference)", "zh": "（差异在噪声范围内）", "ja": "（差はノイズの範囲内）"}
	holm := map[string]string{"en": ", Holm-adjusted ", "zh": "，Holm 校正后 ", "ja": "、Holm 補正後 "}
	test := map[string]func(p string) string{
		"en": func(p string) string { return " (" + p + ", n = 3 + 3)" },
		"zh": func(p string) string { return "（" + p + "，n = 3 + 3）" },
		"ja": func(p string) string { return "（" + p + "、n = 3 + 3）" },
	}
	for lang, count := range counts {
		// A change's mark is bound to its figure with a no-break space;
		// Chinese and Japanese write the % right after it.
		md := strings.ReplaceAll(string(files[lang+"/"+id+".md"]), "\u00a0", " ")
		pct := func(s string) string { return s }
		if lang != "en" {
			pct = func(s string) string { return strings.ReplaceAll(s, " %", "%") }
		}
		for _, want := range []string{
			`/sharegpt.run-1.log:8") ± 24.84` + count,                                         // the conclusion's baseline, linked to its first repeat
			pct(`[▲ +5.0 % [+2.7, +7.3]`) + test[lang]("p = 0.004") + `](#optimized-sharegpt`, // the conclusion: a change, with its test
			// A step's two alternatives are one family: Holm's correction.
			pct(`[≈ +2.0 % [-1.1, +5.1]`) + test[lang]("p = 0.14"+holm[lang]+"p = 0.14") + noise[lang] + `](#run-vllm-eager`,
			" ± 24.84" + count + " tok/s" + closing[lang] + " ≈ ", // the ranking does not order overlapping means
		} {
			if !strings.Contains(md, want) {
				t.Errorf("%s: the report lacks %q", lang, want)
			}
		}
		// Every repeat's block is shown, so every line a mean is made of
		// is on the page.
		for _, run := range []string{"vllm", "vllm-fp8", "vllm-eager"} {
			for _, n := range []string{"1", "2", "3"} {
				prefix := strings.TrimSuffix(render.LineID("results/"+id+"/runs/"+run+"/sharegpt.run-"+n+".log", 1), "-1")
				if !strings.Contains(md, `<a id="`+prefix+`-13"></a>`+"\n\n```log ") {
					t.Errorf("%s: the block of %s repeat %s is not shown", lang, run, n)
				}
			}
		}
		if svg := string(files[lang+"/"+id+"/conclusion.svg"]); !strings.Contains(svg, "1050.00 ± 24.84 (n=3)") {
			t.Errorf("%s: the conclusion chart lacks the interval", lang)
		}
	}
	// The value's title names every repeat, its line and its value.
	html := string(files["en/"+id+"/index.html"])
	want := "results/" + id + "/runs/vllm/sharegpt.run-1.log:8 (990.00), results/" + id + "/runs/vllm/sharegpt.run-2.log:8 (1000.00), results/" + id + "/runs/vllm/sharegpt.run-3.log:8 (1010.00)"
	if !strings.Contains(html, want) {
		t.Errorf("the page does not name every repeat: %s", want)
	}
	// Downloads: each repeat's row, its number, the count, the mean and
	// its half-width.
	csv := string(files["data/"+id+".csv"])
	for _, n := range []string{"1", "2", "3"} {
		row := "results/" + id + "/runs/vllm-fp8/sharegpt.run-" + n + ".log,"
		i := strings.Index(csv, row)
		if i < 0 {
			t.Fatalf("no row of %s", row)
		}
		line := csv[i:]
		line = line[:strings.IndexByte(line, '\n')]
		// excluded, excluded_by, the four repeat columns, then the sweep's two (empty)
		if !strings.HasSuffix(line, ",false,,"+n+",3,1050.00,24.84,,") {
			t.Errorf("row of repeat %s ends %q, want ...,%s,3,1050.00,24.84,,", n, line[max(0, len(line)-40):], n)
		}
	}
}
