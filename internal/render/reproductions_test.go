package render

import (
	"sort"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/benchlog"
	"github.com/perflab/perflab/internal/check"
	"github.com/perflab/perflab/internal/report"
	"github.com/perflab/perflab/internal/study"
)

// TestReproductionsAndRecipes: a rerun of the synthetic study's run half,
// 20 % slower, named and recorded with markup and line breaks, is counted
// under its original, and neither its name nor what it recorded escapes
// the table, the heading or the recipe's comment lines.
func TestReproductionsAndRecipes(t *testing.T) {
	c := syntheticCase()
	s := c.rep.Study
	rerun := &study.Run{ID: "half-rerun", Name: "<script>alert(1)</script>\nrm -rf ~", GPUs: 1, Reproduces: "half",
		Command: "serve org/Model-7B", Recorded: &study.Recorded{GPU: "`x`\n<b>y</b>", EngineVersion: "v9"},
		Logs: []study.Log{{Workload: "chat", File: "runs/half-rerun/chat.log", Blocks: []benchlog.Block{metricBlock("half-rerun/chat", "total_token_throughput", 600.2)}}}}
	s.Runs = append(s.Runs, rerun)
	sort.Slice(s.Runs, func(i, j int) bool { return s.Runs[i].ID < s.Runs[j].ID })
	s.Engines = []study.Engine{{ID: "", Name: "Engine", Version: "v1"}}
	rep := report.Build(s, map[string]string{"other": "model-mismatch"})
	r, err := chartRenderer()
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range []string{"en", "zh", "ja"} {
		page, err := r.Report(Input{Result: check.Result{Study: s, Report: rep}, Content: c.content}, lang)
		if err != nil {
			t.Fatal(err)
		}
		html, md := string(page.HTML), string(page.Markdown)
		if strings.Contains(html, "<script>alert") || strings.Contains(html, "<b>y") {
			t.Errorf("%s: a name or a recorded value is markup on the page", lang)
		}
		if !strings.Contains(md, `id="reproductions-half"`) && !strings.Contains(md, "{#reproductions-half}") && !strings.Contains(md, `<a id="reproductions-half">`) {
			t.Errorf("%s: no Reproductions section for half:\n%s", lang, md)
		}
		for _, line := range strings.Split(md, "\n") {
			if strings.HasPrefix(line, "rm -rf") || strings.HasPrefix(line, "<b>y") {
				t.Errorf("%s: a value broke out of its line: %q", lang, line)
			}
		}
	}
	page, _ := r.Report(Input{Result: check.Result{Study: s, Report: rep}, Content: c.content}, "en")
	md := string(page.Markdown)
	for _, want := range []string{
		"- Chat: 1 reproduction, 0 within the noise. Beyond the noise:",
		"▼\u00a0-20.0\u00a0%", // bound to its mark and its %, in English too,
		"| no | unknown | no (v1 vs v9) | no |",
		"# GPUs: 1 × `x` <b>y</b>",
		"# Benchmark command for chat: unknown",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("en page lacks %q:\n%s", want, md[strings.Index(md, "## Reproductions"):])
		}
	}
}
