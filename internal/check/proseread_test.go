package check

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/study"
)

func TestQuantities(t *testing.T) {
	for text, want := range map[string]string{
		"TensorRT-LLM (2,054.21 tok/s) > vLLM (1,730.98 tok/s)": "2054.21 tok/s ±0.005, 1730.98 tok/s ±0.005",
		"平均 TPOT 为 149.67 ms，TTFT 为 105.56 s。":                  "149.67 ms ±0.005, 105.56 s ±0.005",
		"吞吐量约为 0.46 万 tok/s":                                    "4600 tok/s ±50 approx",
		"about 4.6k tok/s and 3 req/s":                          "4600 tok/s ±50 approx, 3 req/s ±0.5",
		"v0.11.0 FP8 on 8 GPUs, 32k tokens, steps":              "",
		"スループットは ２０５４．２１ tok/s です":                              "2054.21 tok/s ±0.005",
	} {
		var got []string
		for _, q := range quantities(foldDigits(text)) {
			s := fmt.Sprintf("%g %s ±%g", q.Value, q.Unit, q.Precision/2)
			if q.Approx {
				s += " approx"
			}
			got = append(got, s)
		}
		if strings.Join(got, ", ") != want {
			t.Errorf("%q: %q, want %q", text, strings.Join(got, ", "), want)
		}
	}
}

func TestFactors(t *testing.T) {
	for text, want := range map[string]string{
		"raises it by 1.27x":        "1.27 exact",
		"提升到 1.27 倍":                "1.27 exact",
		"スループットは 2倍 になります":          "2",
		"throughput doubles":        "2",
		"吞吐量翻倍":                     "2",
		"重みのメモリを半分にし":               "0.5",
		"3019.19 x 2 and 3019.19×2": "",
		"uses xformers 2x":          "2",
		"v1.5x of 2":                "",
	} {
		var got []string
		for _, f := range factors(text) {
			s := fmt.Sprintf("%g", f.Value)
			if f.Exact {
				s += " exact"
			}
			got = append(got, s)
		}
		if strings.Join(got, ", ") != want {
			t.Errorf("%q: %q, want %q", text, strings.Join(got, ", "), want)
		}
	}
}

// A translation states a factor or a figure in its own script: the same
// fact, so no drift.
func TestDriftReadsFactorsAndWidths(t *testing.T) {
	keys := func(md string) []string {
		var out []string
		for _, f := range facts(study.Section{Markdown: md, TextLine: 1}) {
			out = append(out, f.key)
		}
		slices.Sort(out)
		return out
	}
	for _, pair := range [][2]string{
		{"FP8 is 1.27x faster.", "FP8 快 1.27 倍。"},
		{"FP8 doubles it.", "FP8 で 2倍 になります。"},
		{"It rises by 18.7 %.", "１８．７％ 向上しました。"},
		{"SGLang reaches about 4.6k tok/s.", "SGLang 约为 0.46 万 tok/s。"},
	} {
		en, tr := keys(pair[0]), keys(pair[1])
		if !slices.Equal(en, tr) {
			t.Errorf("%q %v and %q %v state other facts", pair[0], en, pair[1], tr)
		}
	}
	if en, tr := keys("FP8 is 1.27x faster."), keys("FP8 快 1.72 倍。"); slices.Equal(en, tr) {
		t.Errorf("1.27x and 1.72 倍 read as one fact: %v", en)
	}
}

// The prefilters of the fact reader never skip what a pattern finds.
func FuzzProseFactPrefilters(f *testing.F) {
	for _, s := range []string{"1.27x", "doubles", "TWICE", "翻倍", "半分", "the highest", "最も高い", "トップ", "vLLM is faster than SGLang", "A 比 B 快", "B より速い",
		"2000 prompts", "并发数为 32", "同時実行数 16", "8 GPUs", "8 × A100", "4 块 GPU", "Ranks First", "HALVES", "2 Times", "a, b and c", "1,000 and 2,000: x; y", "甲，乙、丙：丁", "a  and\tb but  c", "and x", "x and", " while  ",
		"TTFT p99", "Time To First Token", "inter-token latency", "REQUESTS PER SECOND", "tok/s", "首字延迟", "出力トークンあたり", "ſlowest", "comes out on top", "1 位", "一番速い",
		"input length of 1,024", "2K output tokens", "request rate = 4", "输出长度为 256", "リクエストレートは 2", "concurrency of 8", "64 concurrent requests",
		"isn't faster", "CAN'T", "no longer", "ſuch as", "e.g. vLLM", "UNLESS", "次の将来", "比較", "比べて", "Outperforms", "trails"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, c string) {
		low := lowerForSpellings(c)
		if got, want := splitClauses(c), splitByPattern(c); !strings.Contains(c, "\x00") && !slices.Equal(got, want) {
			t.Errorf("splitClauses(%q) = %q, want %q", c, got, want)
		}
		if quantityWord.MatchString(c) && !mayStateQuantity(c) {
			t.Errorf("mayStateQuantity(%q) skips a figure", c)
		}
		if numericFactor.MatchString(c) && !mayHaveNumericFactor(c) {
			t.Errorf("mayHaveNumericFactor(%q) skips a factor", c)
		}
		if len(factors(c)) > 0 && !mayStateFactor(low) {
			t.Errorf("mayStateFactor(%q) skips a factor", c)
		}
		if _, ok := superlativeIn(c); ok && !mayBeSuperlative(low) {
			t.Errorf("mayBeSuperlative(%q) skips a superlative", c)
		}
		if (thanWord.MatchString(c) || ahead.MatchString(c) || behind.MatchString(c)) && !mayCompare(low) {
			t.Errorf("mayCompare(%q) skips a comparison", c)
		}
		for _, w := range workloadWords {
			if w.re.MatchString(c) && !mayStateWorkload(low) {
				t.Errorf("mayStateWorkload(%q) skips a workload setting", c)
			}
			if w.re.MatchString(c) && !gated(low, w.may) {
				t.Errorf("the gate of %s skips %q", w.kind, c)
			}
		}
		for _, g := range []gatedRegexp{thanWord, ahead, behind, negation, contrastWord, hypothetical} {
			if g.Regexp.MatchString(c) && !g.MatchString(c) {
				t.Errorf("the gate of %s skips %q", g, c)
			}
		}
		for _, w := range metricWords {
			if w.re.MatchString(c) && !gated(low, w.may) {
				t.Errorf("the gate of %s skips %q", w.key, c)
			}
		}
		for _, w := range superlatives {
			if w.re.MatchString(c) && !gated(low, w.may) {
				t.Errorf("the gate of %+v skips %q", w.kind, c)
			}
		}
		for _, re := range gpuCountWords {
			if re.MatchString(c) && !mayCountGPUs(c) {
				t.Errorf("mayCountGPUs(%q) skips a GPU count", c)
			}
		}
	})
}

// splitByPattern is splitClauses with clauseStop, digits' commas kept.
func splitByPattern(s string) []string {
	b := []byte(s)
	for i := 1; i+1 < len(b); i++ {
		if b[i] == ',' && isDigit(b[i-1]) && isDigit(b[i+1]) {
			b[i] = 0
		}
	}
	parts := clauseStop.Split(string(b), -1)
	for i := range parts {
		parts[i] = strings.ReplaceAll(parts[i], "\x00", ",")
	}
	return parts
}
