package check

import (
	"fmt"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/study"
)

// proseOf parses one section of prose per language.
func proseOf(t *testing.T, en, zh, ja string) map[string]map[string]*study.Content {
	t.Helper()
	out := map[string]map[string]*study.Content{}
	for lang, text := range map[string]string{"en": en, "zh": zh, "ja": ja} {
		c, probs := study.ParseContent("content/"+lang+"/s.md", lang, "s", []byte("<!-- section: other-cases -->\n"+text+"\n"))
		if len(probs) > 0 {
			t.Fatal(probs)
		}
		out[lang] = map[string]*study.Content{"s": c}
	}
	return out
}

// TestDrift: a translation that states another precision, size, GPU,
// engine or figure is an error on its line; rewording is not.
func TestDrift(t *testing.T) {
	en := "FP8 on TP4 over the A100 with vLLM, `--max-num-seqs 256`, 59.2 % faster."
	tests := []struct {
		zh   string
		want string // "" for none
	}{
		{"在 A100 上用 vLLM 以 TP4 运行 FP8，`--max-num-seqs 256`，快 59.2%。", ""},
		{"在 A100 上用 vLLM 以 TP4 运行 FP4，`--max-num-seqs 256`，快 59.2%。", "states FP4"},
		{"在 A100 上用 vLLM 以 TP8 运行 FP8，`--max-num-seqs 256`，快 59.2%。", "states TP8"},
		{"在 H100 上用 vLLM 以 TP4 运行 FP8，`--max-num-seqs 256`，快 59.2%。", "states H100"},
		{"在 A100 上用 SGLang 以 TP4 运行 FP8，`--max-num-seqs 256`，快 59.2%。", "states SGLang"},
		{"在 A100 上用 vLLM 以 TP4 运行 FP8，`--max-num-seqs 256`，快 95.2%。", "states 95.2%"},
		{"在 A100 上用 vLLM 以 TP4 运行 FP8，快 59.2%。", "states --max-num-seqs (line 2)"},
	}
	for _, tt := range tests {
		d := Drift(proseOf(t, en, tt.zh, "A100 の vLLM で TP4 の FP8 を `--max-num-seqs 256` で動かすと 59.2% 速くなります。"), "content")
		if tt.want == "" {
			if len(d) != 0 {
				t.Errorf("%q: %v", tt.zh, d)
			}
			continue
		}
		found := false
		for _, x := range d {
			found = found || x.File == "content/zh/s.md" && x.Line == 2 && strings.Contains(x.Message, tt.want)
		}
		if !found {
			t.Errorf("%q: %v, want one on content/zh/s.md:2 saying %q", tt.zh, d, tt.want)
		}
	}
}

// TestDriftCountedNumbers: Chinese and Japanese count with a number and a
// counter word where English uses words ("per batch", "two runs"): such a
// number is no figure the translation adds, but one that differs from an
// English figure is still drift, as is any other number standing alone.
func TestDriftCountedNumbers(t *testing.T) {
	tests := []struct {
		en, zh, ja string
		want       []string // "file:line: text"; none for a clean section
	}{
		{"Raising it lets more prefill run per batch, over two runs of each.",
			"提高它可以让每 1 批处理更多预填充，每个配置运行 2 次。",
			"値を大きくすると 1 バッチでより多くのプリフィルを処理でき、各構成を 2 回、2 つの設定で実行します。", nil},
		{"The model runs on 8 GPUs.", "模型运行在 8 张 GPU 上。", "モデルは 8 台の GPU で動きます。", nil},
		{"The model runs on 8 GPUs.", "模型运行在 4 张 GPU 上。", "モデルは 8 台の GPU で動きます。",
			[]string{"content/zh/s.md:2: states 8 (line 2)"}},
		{"Throughput rises per batch.", "每批吞吐量提高 12 %。", "バッチごとにスループットが 1580.36 トークン増えます。",
			[]string{"content/zh/s.md:2: states 12%", "content/ja/s.md:2: states 1580.36"}},
		{"Each request waits.", "每个请求等待 30 秒。", "各リクエストは 30 の順番で待ちます。",
			[]string{"content/ja/s.md:2: states 30"}},
	}
	for _, tt := range tests {
		var got []string
		for _, d := range Drift(proseOf(t, tt.en, tt.zh, tt.ja), "content") {
			got = append(got, fmt.Sprintf("%s:%d: %s", d.File, d.Line, d.Message))
		}
		if len(got) != len(tt.want) {
			t.Errorf("%q / %q / %q: %d problems, want %d:\n%s", tt.en, tt.zh, tt.ja, len(got), len(tt.want), strings.Join(got, "\n"))
			continue
		}
		for i, w := range tt.want {
			at, text, _ := strings.Cut(w, ": ")
			if !strings.HasPrefix(got[i], at+": ") || !strings.Contains(got[i], text) {
				t.Errorf("problem %d is %q, want one on %s saying %q", i, got[i], at, text)
			}
		}
	}
}

// TestDriftInStudyOrder: studies are checked on several workers, and their
// problems still come in order of study id, as a check lists them.
func TestDriftInStudyOrder(t *testing.T) {
	en := "FP8 on TP4 over the A100."
	content := map[string]map[string]*study.Content{}
	ids := []string{"s09", "s03", "s11", "s01", "s07", "s05"}
	for _, id := range ids {
		for lang, text := range map[string]string{"en": en, "zh": "在 H100 上以 TP4 运行 FP8。", "ja": "A100 で TP8 の FP8 を動かします。"} {
			c, probs := study.ParseContent("content/"+lang+"/"+id+".md", lang, id, []byte("<!-- section: other-cases -->\n"+text+"\n"))
			if len(probs) > 0 {
				t.Fatal(probs)
			}
			if content[lang] == nil {
				content[lang] = map[string]*study.Content{}
			}
			content[lang][id] = c
		}
	}
	var got []string
	for _, d := range Drift(content, "content") {
		got = append(got, d.File)
	}
	var want []string
	for _, id := range []string{"s01", "s03", "s05", "s07", "s09", "s11"} {
		// Each translation states one fact the English does not and drops one.
		want = append(want, "content/zh/"+id+".md", "content/zh/"+id+".md", "content/ja/"+id+".md", "content/ja/"+id+".md")
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("drift problems in the order\n%v\nwant\n%v", got, want)
	}
}

// TestProseFigures: a percentage is the computed change it rounds to, in
// the direction its words say; a mistyped one is an error, one bound to
// nothing a warning.
func TestProseFigures(t *testing.T) {
	figs := &Figures{Changes: map[string][]FigureChange{"": {{Percent: 59.24, Better: true, What: "the conclusion row of sharegpt"}}},
		Values: map[string]bool{"3792.50": true, "8": true}}
	res := []Result{{Study: &study.Study{ID: "s"}, Figures: figs}}
	tests := []struct {
		text string
		sev  Severity
		want string
	}{
		{"The optimized configuration is faster by 59.2 % on 8 GPUs, from 3792.50 tok/s.", "", ""},
		{"It is +59 % on ShareGPT.", "", ""},
		{"The optimized configuration is slower by 59.2 %.", Error, `says "slower"`},
		{"Throughput is lower by 59.2 %, which helps.", Error, `says "lower"`},
		{"It changes throughput by -59.2 %.", Error, "a decrease"},
		{"The optimized configuration is faster by 95.2 %.", Error, "mistyped"},
		{"Throughput rises by 12.0 %.", Warning, "bound to no change"},
		{"It served 4096 requests.", Warning, "bound to nothing"},
		{"Accuracy drops by less than 1 %.", Warning, "bound to no change"},
		{"吞吐量降低了 59.2%。", Error, `says "降低"`},
		{"スループットが 59.2% 向上しました。", "", ""},
	}
	for _, tt := range tests {
		c := proseOf(t, tt.text, tt.text, tt.text)
		var got []Diagnostic
		for _, d := range ProseFigures(res, c, "content") {
			if d.File == "content/en/s.md" {
				got = append(got, d)
			}
		}
		if tt.sev == "" {
			if len(got) != 0 {
				t.Errorf("%q: %v", tt.text, got)
			}
			continue
		}
		if len(got) != 1 || got[0].Severity != tt.sev || got[0].Line != 2 || !strings.Contains(got[0].Message, tt.want) {
			t.Errorf("%q: %v, want one %s on line 2 saying %q", tt.text, got, tt.sev, tt.want)
		}
	}
}

// TestEngineComparison: "A is faster than B" must agree with the logs of
// the section's step, or of every step that ran both.
func TestEngineComparison(t *testing.T) {
	figs := &Figures{Higher: true, Best: map[string]map[string]float64{
		"step/engine":      {"SGLang": 4635.31, "vLLM": 3792.50},
		"step/parallelism": {"vLLM": 6038.38},
	}}
	tests := []struct {
		text string
		bad  bool
	}{
		{"SGLang is faster than vLLM with default settings.", false},
		{"vLLM is faster than SGLang with default settings.", true},
		{"vLLM trails SGLang.", false},
		{"SGLang trails vLLM.", true},
		{"vLLM 比 SGLang 快。", true},
		{"SGLang は vLLM より速いです。", false},
		{"vLLM and SGLang were both started, and vLLM is kept.", false},
	}
	for _, tt := range tests {
		got := comparison(tt.text, "other-cases", figs) != ""
		if got != tt.bad {
			t.Errorf("%q: error %v, want %v", tt.text, got, tt.bad)
		}
	}
}

// TestCredit: prose that credits the recommendation names its engine and
// its precision.
func TestCredit(t *testing.T) {
	figs := &Figures{RecommendedEngine: "vLLM", RecommendedCommand: "vllm serve qwen/qwen3-235b-a22b-instruct-2507-fp8 -tp 4"}
	tests := []struct {
		text string
		bad  bool
	}{
		{"FP8 is our recommendation when the goal is throughput.", false},
		{"AWQ is our recommendation when the goal is throughput.", true},
		{"我们推荐使用 FP8。", false},
		{"我们推荐使用 SGLang。", true},
		{"スループット重視なら vLLM をお勧めします。", false},
		{"SGLang cannot serve FP4. We recommend the FP8 checkpoint.", false},
	}
	for _, tt := range tests {
		if got := credit(tt.text, figs) != ""; got != tt.bad {
			t.Errorf("%q: error %v, want %v", tt.text, got, tt.bad)
		}
	}
}
