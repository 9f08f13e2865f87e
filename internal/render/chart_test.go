package render

import (
	"bytes"
	"encoding/xml"
	"flag"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/perflab/perflab/internal/assess"

	"github.com/perflab/perflab/internal/benchlog"
	"github.com/perflab/perflab/internal/chart"
	"github.com/perflab/perflab/internal/report"
	"github.com/perflab/perflab/internal/study"
)

var updateCharts = flag.Bool("updateCharts", false, "rewrite the golden SVGs in testdata/charts")

// chartRenderer is the repository's locales, loaded once for all chart tests.
var chartRenderer = sync.OnceValues(func() (*Renderer, error) {
	return New(os.DirFS("../../templates"), os.DirFS("../../locales"))
})

// chartCase is one report to draw, with its display names by language.
type chartCase struct {
	name    string
	rep     *report.Report
	content map[string]*study.Content
}

func (c chartCase) draw(t testing.TB, lang string) []chart.Chart {
	t.Helper()
	r, err := chartRenderer()
	if err != nil {
		t.Fatal(err)
	}
	loc := r.localizer(lang)
	ct := c.content[lang]
	name := func(m map[string]string) func(string) string {
		return func(id string) string {
			if n := m[id]; n != "" {
				return n
			}
			return id
		}
	}
	var workloads, steps map[string]string
	if ct != nil {
		workloads, steps = ct.Workloads, ct.Steps
	}
	charts, err := chart.Draw(c.rep, loc.T, name(workloads), name(steps))
	if err != nil {
		t.Fatal(err)
	}
	if loc.Lacked() != nil {
		t.Fatal(loc.Lacked())
	}
	return charts
}

// metricBlock is a result block with the given metrics.
func metricBlock(file string, kv ...any) benchlog.Block {
	b := benchlog.Block{File: file, Line: 1, Metrics: map[string]benchlog.Metric{}}
	for i := 0; i+1 < len(kv); i += 2 {
		b.Metrics[kv[i].(string)] = benchlog.Metric{Value: kv[i+1].(float64), Decimals: 2, Line: i + 2}
	}
	return b
}

// syntheticCase is a small study with every kind of bar: a projection, a
// change for the worse, a failed run, a run left out of comparisons, a
// missing result and names that need escaping or wrapping.
func syntheticCase() chartCase {
	run := func(id, name string, gpus int, tput map[string]float64, lat ...float64) *study.Run {
		r := &study.Run{ID: id, Name: name, GPUs: gpus}
		for _, w := range []string{"chat", "long"} {
			v, ok := tput[w]
			if !ok {
				continue
			}
			kv := []any{"total_token_throughput", v}
			if w == "chat" && len(lat) == 4 {
				kv = append(kv, "mean_ttft_ms", lat[0], "p99_ttft_ms", lat[1], "mean_tpot_ms", lat[2], "p99_tpot_ms", lat[3])
			}
			r.Logs = append(r.Logs, study.Log{Workload: w, File: "runs/" + id + "/" + w + ".log", Blocks: []benchlog.Block{metricBlock(id+"/"+w, kv...)}})
		}
		return r
	}
	s := &study.Study{
		ID: "synthetic", Model: "org/Model-7B", Objective: study.Throughput,
		Hardware:  study.Hardware{GPU: "GPU", GPUsPerNode: 2, Nodes: 1},
		Workloads: []study.Workload{{ID: "chat", Dataset: "sharegpt", Main: true}, {ID: "long", Dataset: "random"}},
		Runs: []*study.Run{
			run("base", "Engine A", 2, map[string]float64{"chat": 1000.5, "long": 800.25}, 120.5, 900.75, 20.25, 45.5),
			run("half", "Engine A <half> & co", 1, map[string]float64{"chat": 750.25, "long": 350.5}, 150.25, 1200.5, 12.15, 40.25),
			run("broken", "Engine B", 2, nil),
			run("other", "Engine C --max_num_tokens=16384", 2, map[string]float64{"chat": 1500.75}),
			run("nolog", "Engine D", 2, map[string]float64{"long": 10}),
		},
		Baseline:    study.Config{Runs: []string{"base"}},
		Recommended: study.Config{Runs: []string{"half"}},
		Steps: []study.Step{
			{ID: "engine", Runs: []string{"base", "half", "broken", "other", "nolog"}, Reference: "base"},
		},
	}
	s.Runs[2].Error = "KeyError: 'weight'"
	sort.Slice(s.Runs, func(i, j int) bool { return s.Runs[i].ID < s.Runs[j].ID })
	rep := report.Build(s, map[string]string{"other": "model-mismatch"})
	names := map[string]*study.Content{
		"en": {Workloads: map[string]string{"chat": "Chat", "long": "Very long prompts with a name that wraps"}, Steps: map[string]string{"engine": "Engine choice"}},
		"zh": {Workloads: map[string]string{"chat": "对话", "long": "超长提示词，名称很长需要换行显示"}, Steps: map[string]string{"engine": "推理引擎选型"}},
		"ja": {Workloads: map[string]string{"chat": "会話", "long": "非常に長いプロンプト（折り返しが必要な長い名前）"}, Steps: map[string]string{"engine": "推論エンジンの選定"}},
	}
	return chartCase{name: "synthetic", rep: rep, content: names}
}

// repoCases are the reports of the repository's results/.
func repoCases(t testing.TB) []chartCase {
	t.Helper()
	studies, probs, err := study.LoadAll(os.DirFS("../../results"), "results")
	if err != nil {
		t.Fatal(err)
	}
	if len(probs) > 0 {
		t.Fatalf("results/: %v", probs)
	}
	content, _, err := study.LoadContent(os.DirFS("../../content"), "content")
	if err != nil {
		t.Fatal(err)
	}
	var out []chartCase
	for _, res := range assess.All(studies) {
		c := chartCase{name: res.Study.ID, rep: res.Report, content: map[string]*study.Content{}}
		for _, l := range Languages {
			c.content[l.Code] = content[l.Code][res.Study.ID]
		}
		out = append(out, c)
	}
	return out
}

func allCases(t testing.TB) []chartCase {
	return append([]chartCase{syntheticCase(), distCase(t), repeatsCase(), historyCase(t)}, repoCases(t)...)
}

// distCase is a study whose main workload was saved as vLLM --save-result
// JSON (testdata/distribution: fifty requests each, one failed in the
// baseline), so its report has the distribution chart.
func distCase(t testing.TB) chartCase {
	t.Helper()
	run := func(id, name, file string) *study.Run {
		raw, err := os.ReadFile(filepath.Join("testdata", "distribution", file))
		if err != nil {
			t.Fatal(err)
		}
		blocks, err := benchlog.Parse(file, bytes.NewReader(raw))
		if err != nil || len(blocks) != 1 || blocks[0].Requests == nil {
			t.Fatalf("%s: %v, %d blocks", file, err, len(blocks))
		}
		return &study.Run{ID: id, Name: name, GPUs: 1, Logs: []study.Log{{Workload: "chat", File: "runs/" + id + "/chat.json", Raw: raw, Blocks: blocks}}}
	}
	s := &study.Study{
		ID: "distribution", Model: "example-org/Example-8B", Objective: study.Latency,
		Hardware:    study.Hardware{GPU: "GPU", GPUsPerNode: 1, Nodes: 1},
		Workloads:   []study.Workload{{ID: "chat", Dataset: "sharegpt", Main: true}},
		Runs:        []*study.Run{run("base", "vLLM", "baseline.json"), run("tuned", "vLLM tuned", "optimized.json")},
		Baseline:    study.Config{Runs: []string{"base"}},
		Recommended: study.Config{Runs: []string{"tuned"}},
		Steps:       []study.Step{{ID: "tuning", Runs: []string{"tuned"}, Reference: "base"}},
	}
	names := map[string]*study.Content{
		"en": {Workloads: map[string]string{"chat": "Chat"}, Steps: map[string]string{"tuning": "Tuning"}},
		"zh": {Workloads: map[string]string{"chat": "对话"}, Steps: map[string]string{"tuning": "参数调优"}},
		"ja": {Workloads: map[string]string{"chat": "会話"}, Steps: map[string]string{"tuning": "パラメータ調整"}},
	}
	return chartCase{name: "distribution", rep: report.Build(s, nil), content: names}
}

// TestChartsGolden compares every chart of the synthetic and the repository's
// reports, in every language, with testdata/charts/<case>/<lang>/<name>.svg.
func TestChartsGolden(t *testing.T) {
	dir := filepath.Join("testdata", "charts")
	seen := map[string]bool{}
	for _, c := range allCases(t) {
		for _, l := range Languages {
			for _, ch := range c.draw(t, l.Code) {
				if c.name == "history" && !strings.HasPrefix(ch.Name, "history-") {
					continue // its other charts are of kinds the other cases keep
				}
				wide := filepath.Join(dir, c.name, l.Code, ch.Name+".svg")
				narrow := filepath.Join(dir, c.name, l.Code, "narrow", ch.Name+".svg")
				compareChart(t, wide, ch.SVG)
				compareChart(t, narrow, ch.Narrow)
				// The page sizes its images by what the chart says.
				for _, d := range []struct {
					svg  []byte
					w, h int
				}{{ch.SVG, ch.Width, ch.Height}, {ch.Narrow, ch.NarrowWidth, ch.NarrowHeight}} {
					if doc, _ := texts(t, d.svg); doc.Width != d.w || doc.Height != d.h {
						t.Errorf("%s: drawn %dx%d, said %dx%d", wide, doc.Width, doc.Height, d.w, d.h)
					}
				}
				seen[wide], seen[narrow] = true, true
			}
		}
	}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !seen[p] {
			if *updateCharts {
				return os.Remove(p)
			}
			t.Errorf("golden file %s is no longer drawn: run with -updateCharts", p)
		}
		return nil
	})
}

// compareChart compares a drawn chart with its golden file, or rewrites
// the file with -updateCharts.
func compareChart(t *testing.T, file string, svg []byte) {
	t.Helper()
	if *updateCharts {
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, svg, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Errorf("%s: no golden file (go test ./internal/render -run Charts -updateCharts writes it): %v", file, err)
		return
	}
	if !bytes.Equal(want, svg) {
		t.Errorf("%s differs from the chart drawn (go test ./internal/render -run Charts -updateCharts rewrites it):\n%s", file, firstDiff(want, svg))
	}
}

// firstDiff shows the first differing line of two texts.
func firstDiff(a, b []byte) string {
	al, bl := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	for i := 0; i < len(al) || i < len(bl); i++ {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y {
			return fmt.Sprintf("line %d:\n- %.300s\n+ %.300s", i+1, x, y)
		}
	}
	return "(same lines)"
}

func TestChartsDeterministic(t *testing.T) {
	for _, c := range allCases(t) {
		for _, l := range Languages {
			a, b := c.draw(t, l.Code), c.draw(t, l.Code)
			if len(a) != len(b) {
				t.Fatalf("%s/%s: %d charts, then %d", c.name, l.Code, len(a), len(b))
			}
			for i := range a {
				if !bytes.Equal(a[i].SVG, b[i].SVG) || a[i].Description != b[i].Description {
					t.Errorf("%s/%s/%s: two drawings differ", c.name, l.Code, a[i].Name)
				}
			}
		}
	}
}

// svgDoc is what the tests read back from a chart.
type svgDoc struct {
	XMLName xml.Name `xml:"svg"`
	Width   int      `xml:"width,attr"`
	Height  int      `xml:"height,attr"`
	Title   string   `xml:"title"`
	Desc    string   `xml:"desc"`
	Texts   []struct {
		Inner string `xml:",innerxml"`
	} `xml:"text"`
}

var tagRE = regexp.MustCompile(`<[^>]*>`)

// texts returns the texts drawn in a chart, one string per text: a text
// element holds the texts of one font, the first one's words before any
// tspan and each other's in a tspan.
func texts(t *testing.T, svg []byte) (svgDoc, []string) {
	t.Helper()
	var doc svgDoc
	if err := xml.Unmarshal(svg, &doc); err != nil {
		t.Fatalf("not well-formed XML: %v", err)
	}
	var out []string
	for _, x := range doc.Texts {
		for _, s := range tagRE.Split(x.Inner, -1) {
			if s = strings.TrimSpace(html.UnescapeString(s)); s != "" {
				out = append(out, s)
			}
		}
	}
	return doc, out
}

var numberRE = regexp.MustCompile(`[0-9]+(?:\.[0-9]+)?`)

// TestChartsDescribeWhatTheyShow checks the SVG is well-formed, has the
// title and description, and that every number of the description is drawn.
func TestChartsDescribeWhatTheyShow(t *testing.T) {
	for _, c := range allCases(t) {
		for _, l := range Languages {
			charts := c.draw(t, l.Code)
			names := map[string]bool{}
			for _, ch := range charts {
				where := c.name + "/" + l.Code + "/" + ch.Name
				names[ch.Name] = true
				doc, drawn := texts(t, ch.SVG)
				if doc.Title != ch.Title || doc.Desc != ch.Description || ch.Title == "" || ch.Description == "" {
					t.Errorf("%s: <title> %q and <desc> %q, want %q and %q", where, doc.Title, doc.Desc, ch.Title, ch.Description)
				}
				all := strings.Join(drawn, "\n")
				for _, n := range numberRE.FindAllString(ch.Description, -1) {
					if !containsNumber(all, n) {
						t.Errorf("%s: the description gives %s, the chart does not show it", where, n)
					}
				}
				if strings.Contains(all, "chart.") {
					t.Errorf("%s: an untranslated message id is drawn", where)
				}
			}
			if !names["conclusion"] {
				t.Errorf("%s/%s: no conclusion chart", c.name, l.Code)
			}
			for _, st := range c.rep.Steps {
				if measured := len(st.Step.Runs) > 0; names["step-"+st.Step.ID] != measured {
					t.Errorf("%s/%s: step %s with %d runs: chart drawn %v", c.name, l.Code, st.Step.ID, len(st.Step.Runs), !measured)
				}
			}
		}
	}
}

// containsNumber reports whether n occurs in s as a whole number, not as
// part of a longer one.
func containsNumber(s, n string) bool {
	for _, m := range numberRE.FindAllString(s, -1) {
		if m == n {
			return true
		}
	}
	return false
}

// TestChartsSynthetic checks what each kind of bar says.
func TestChartsSynthetic(t *testing.T) {
	charts := syntheticCase().draw(t, "en")
	byName := map[string]chart.Chart{}
	for _, ch := range charts {
		byName[ch.Name] = ch
	}
	for _, name := range []string{"conclusion", "step-engine", "latency"} {
		if _, ok := byName[name]; !ok {
			t.Fatalf("no %s chart among %d", name, len(charts))
		}
	}
	_, concl := texts(t, byName["conclusion"].SVG)
	for _, want := range []string{"750.25 x 2", "▲ +50.0 %", "▼ -12.4 %", "Hatched: projected (measurement x replicas that fit on the node)"} {
		if !contains(concl, want) {
			t.Errorf("conclusion chart: no text %q in %q", want, concl)
		}
	}
	_, step := texts(t, byName["step-engine"].SVG)
	for _, want := range []string{"Engine A <half> & co", "failed: the server did not start", "not comparable", "no result", "Reference", "1500.75"} {
		if !contains(step, want) {
			t.Errorf("step chart: no text %q in %q", want, step)
		}
	}
	if d := byName["step-engine"].Description; !strings.Contains(d, "Engine B: failed") || !strings.Contains(d, "1500.75, not comparable") {
		t.Errorf("step description: %s", d)
	}
	_, lat := texts(t, byName["latency"].SVG)
	for _, want := range []string{"Chat · P99", "▼ +24.7 %", "▲ -40.0 %", "1200.50"} {
		if !contains(lat, want) {
			t.Errorf("latency chart: no text %q in %q", want, lat)
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func BenchmarkCharts(b *testing.B) {
	cases := allCases(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, c := range cases {
			for _, l := range Languages {
				c.draw(b, l.Code)
			}
		}
	}
}
