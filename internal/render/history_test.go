package render

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/assess"

	"github.com/perflab/perflab/internal/check"
	"github.com/perflab/perflab/internal/report"
	"github.com/perflab/perflab/internal/study"
)

// historyResult is testdata/history checked: run vllm measured on v0.9.2
// (900.00 tok/s), v0.10.1 (1200.00) and, its own logs, v0.11.0 (1000.00),
// a regression; its P99 TPOT (20.00, 22.40, 25.09 ms) drifts: +12 % a version,
// within what one run a side can tell of a tail (22.2 %), +25.4 % in two.
func historyResult(t testing.TB) check.Result {
	t.Helper()
	s, probs, err := study.Load(os.DirFS("testdata/history"), "results/history", "history")
	if err != nil || len(probs) > 0 {
		t.Fatalf("testdata/history: %v %v", err, probs)
	}
	return assess.Study(s)
}

func historyCase(t testing.TB) chartCase {
	res := historyResult(t)
	return chartCase{name: "history", rep: res.Report, content: map[string]*study.Content{}}
}

func TestHistorySection(t *testing.T) {
	r, err := chartRenderer()
	if err != nil {
		t.Fatal(err)
	}
	res := historyResult(t)
	want := map[string][]string{
		"en": {"<a id=\"history\"></a>\n\n## History over engine versions\n", "<a id=\"history-vllm\"></a>\n\n### vLLM\n", "| Engine version | sharegpt (tok/s) |",
			"| v0.10.1 | [1200.00](#history-vllm", "▲\u00a0+33.3\u00a0%", "| v0.11.0 *(the version this report uses)* | [1000.00](#history-vllm",
			"▼\u00a0-16.7\u00a0%", "**Regression**", "](history/history-vllm.svg)", "`regression` — on vLLM · sharegpt · v0.11.0",
			"Serving command on v0.9.2, which differs from the run's:\n\n```bash\n# v0.9 still took the old flag\n",
			// The tails of the main workload, each figure on hover naming its log line, each
			// change judged against its own band, and the rule that fired.
			"| Change from the version before | P99 TTFT (ms) | Change in P99 TTFT | P99 TPOT (ms) | Change in P99 TPOT |",
			"| [22.40](#history-vllm \"results/history/runs/vllm/history/v0.10.1/sharegpt.log:16", "≈\u00a0+12.0\u00a0%: one run each cannot tell a change under 22.2\u00a0% from noise; add repeats",
			"**Regression** (step rule) | [9800.00](#history-vllm", "**Regression** (drift rule: [▼\u00a0+25.4\u00a0%", "since v0.9.2) |\n",
			"1.0\u00a0% for the P99 TPOT (ms)"},
		"zh": {"## 各引擎版本的历史结果\n", "| v0.11.0（本报告所用版本） |", "**性能回退**", "噪声带为 1.0%",
			"| P99 TPOT (ms) | P99 TPOT 的变化 |", "**性能回退**（单步规则）", "**性能回退**（漂移规则：自 v0.9.2 起 [▼\u00a0+25.4%"},
		"ja": {"## エンジンバージョンごとの推移\n", "| v0.11.0（本レポートが使うバージョン） |", "**性能低下**",
			"| P99 TPOT (ms) | P99 TPOT の変化 |", "**性能低下**（ステップ規則）", "**性能低下**（ドリフト規則：v0.9.2 から [▼\u00a0+25.4%"},
	}
	for _, l := range Languages {
		page, err := r.Report(Input{Result: res}, l.Code)
		if err != nil {
			t.Fatal(err)
		}
		md := string(page.Markdown)
		for _, w := range want[l.Code] {
			if !strings.Contains(md, w) {
				t.Errorf("%s: no %q in the history section:\n%s", l.Code, w, section(md, "history"))
			}
		}
		// The figures link to their log lines on hover.
		if !strings.Contains(md, "results/history/runs/vllm/history/v0.10.1/sharegpt.log:8") {
			t.Errorf("%s: the v0.10.1 value does not name its file and line", l.Code)
		}
		found := false
		for _, ch := range page.Charts {
			found = found || ch.Name == "history-vllm"
		}
		if !found {
			t.Errorf("%s: no history-vllm chart", l.Code)
		}
	}
}

// TestHistoryChart: every version is drawn with its value and change, the
// regression in the colour of a loss.
func TestHistoryChart(t *testing.T) {
	for _, ch := range historyCase(t).draw(t, "en") {
		if ch.Name != "history-vllm" {
			continue
		}
		_, drawn := texts(t, ch.SVG)
		for _, want := range []string{"v0.9.2", "v0.10.1", "v0.11.0", "900.00", "1200.00", "1000.00", "▲ +33.3 %", "▼ -16.7 %", "vLLM across engine versions"} {
			if !contains(drawn, want) {
				t.Errorf("no text %q in %q", want, drawn)
			}
		}
		if !strings.Contains(ch.Description, "v0.11.0: 1000.00, change -16.7 %, worse, a regression.") {
			t.Errorf("description %q", ch.Description)
		}
		return
	}
	t.Fatal("no history-vllm chart")
}

// section returns the part of a page's Markdown from its heading's anchor on.
func section(md, id string) string {
	if i := strings.Index(md, `<a id="`+id+`">`); i >= 0 {
		return md[i:]
	}
	return md
}

// TestFreshnessBadge: each engine of the setup says how old its version
// is, in every language; without freshness data, nothing is said.
func TestFreshnessBadge(t *testing.T) {
	r, err := chartRenderer()
	if err != nil {
		t.Fatal(err)
	}
	res := historyResult(t)
	want := map[string]string{
		"en": "vLLM v0.11.0 *(2 versions behind v0.12.1, used in [other-study](other-study.md))*",
		"zh": "vLLM v0.11.0（落后 2 个版本，本站最新为 [other-study](other-study.md) 使用的 v0.12.1）",
		"ja": "vLLM v0.11.0（2 バージョン遅れ、サイト内の最新は [other-study](other-study.md) で使われている v0.12.1）",
	}
	for _, l := range Languages {
		in := Input{Result: res, Freshness: map[string]report.Freshness{"vllm": {Known: true, Behind: 2, Newest: "v0.12.1", Study: "other-study"}}}
		page, err := r.Report(in, l.Code)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(page.Markdown), want[l.Code]) {
			t.Errorf("%s: no %q in the setup", l.Code, want[l.Code])
		}
		if !strings.Contains(string(page.HTML), `href="../other-study/index.html"`) {
			t.Errorf("%s: the badge does not link to the other study's page", l.Code)
		}
		page, err = r.Report(Input{Result: res}, l.Code)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(page.Markdown), "vLLM v0.11.0 *") {
			t.Errorf("%s: a badge without freshness data", l.Code)
		}
	}
}

// TestHistoryChartLatest: a long history draws its latest versions only,
// and says so; the table keeps every version.
func TestHistoryChartLatest(t *testing.T) {
	res := historyResult(t)
	run := res.Study.Run("vllm")
	base := run.History[0]
	for i := range 12 {
		h := base
		v, err := study.ParseVersion(fmt.Sprintf("v0.8.%d", i))
		if err != nil {
			t.Fatal(err)
		}
		h.Version = v
		run.History = append([]study.History{h}, run.History...)
	}
	slices.SortFunc(run.History, func(a, b study.History) int { return a.Version.Compare(b.Version) })
	res = assess.Study(res.Study)
	c := chartCase{name: "long", rep: res.Report, content: map[string]*study.Content{}}
	for _, ch := range c.draw(t, "en") {
		if ch.Name != "history-vllm" {
			continue
		}
		_, drawn := texts(t, ch.SVG)
		if contains(drawn, "v0.8.4") || !contains(drawn, "v0.8.5") || !contains(drawn, "v0.11.0") {
			t.Errorf("versions drawn: %q; want v0.8.5 to v0.11.0, the latest ten", drawn)
		}
		if !strings.Contains(ch.Description, "Only the latest 10 versions are drawn") {
			t.Errorf("description %q", ch.Description)
		}
	}
	r, _ := chartRenderer()
	page, err := r.Report(Input{Result: res}, "en")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page.Markdown), "| v0.8.0 |") {
		t.Error("the table leaves out a version")
	}
}

// TestHistoryAckOnce: an acknowledgement of a version covers its tails,
// so its note is written once, though both the headline and the P99 TPOT
// of v0.11.0 are regressions.
func TestHistoryAckOnce(t *testing.T) {
	res := historyResult(t)
	res.Study.Acks = append(res.Study.Acks, study.Ack{Rule: check.RuleRegression, Subject: "vllm/sharegpt@v0.11.0",
		Reason: map[string]string{"en": "Known slower build.", "zh": "已知较慢的构建。", "ja": "遅いことが分かっているビルドです。"}})
	res = assess.Study(res.Study)
	r, err := chartRenderer()
	if err != nil {
		t.Fatal(err)
	}
	page, err := r.Report(Input{Result: res}, "en")
	if err != nil {
		t.Fatal(err)
	}
	md := section(string(page.Markdown), "history")
	if n := strings.Count(md, "**v0.11.0** · "); n != 1 {
		t.Errorf("%d notes on v0.11.0, want 1:\n%s", n, md)
	}
	if !strings.Contains(md, "Known slower build.") {
		t.Errorf("no reason under the table:\n%s", md)
	}
}
