package render

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/benchlog"
	"github.com/perflab/perflab/internal/report"
	"github.com/perflab/perflab/internal/study"
)

// repeatsCase is a study whose runs measured the main workload three
// times each: means of 1000 ± 24.84 (990, 1000, 1010), 1050 ± 24.84 and
// 1020 ± 37.26 tok/s, so one change is a win and one (Welch p = 0.14) is
// no measurable difference (see internal/report's TestVerdictKnownAnswers).
func repeatsCase() chartCase {
	run := func(id, name string, values ...float64) *study.Run {
		r := &study.Run{ID: id, Name: name, GPUs: 1}
		for i, v := range values {
			file := fmt.Sprintf("runs/%s/chat.run-%d.log", id, i+1)
			b := metricBlock(file, "total_token_throughput", v, "mean_ttft_ms", 100.0+float64(i), "p99_ttft_ms", 200.0)
			r.Logs = append(r.Logs, study.Log{Workload: "chat", Repeat: i + 1, File: file, Blocks: []benchlog.Block{b}})
		}
		return r
	}
	s := &study.Study{
		ID: "repeats", Model: "org/Model-7B", Objective: study.Throughput,
		Hardware:  study.Hardware{GPU: "GPU", GPUsPerNode: 1, Nodes: 1},
		Workloads: []study.Workload{{ID: "chat", Dataset: "sharegpt", Main: true}},
		Runs: []*study.Run{
			run("base", "Engine A", 990, 1000, 1010),
			run("eager", "Engine A eager", 1005, 1020, 1035),
			run("fp8", "Engine A FP8", 1040, 1050, 1060),
		},
		Baseline:    study.Config{Runs: []string{"base"}},
		Recommended: study.Config{Runs: []string{"fp8"}},
		Steps:       []study.Step{{ID: "quantization", Runs: []string{"fp8", "eager"}, Reference: "base"}},
	}
	return chartCase{name: "repeats", rep: report.Build(s, nil), content: map[string]*study.Content{}}
}

// TestChartsRepeats: a mean of repeats is drawn with its interval as an
// error bar and labelled with its half-width and count; a change the test
// cannot tell from noise is neutral.
func TestChartsRepeats(t *testing.T) {
	for _, l := range Languages {
		for _, ch := range repeatsCase().draw(t, l.Code) {
			if ch.Name != "step-quantization" {
				continue
			}
			svg := string(ch.SVG)
			for _, want := range []string{"1000.00 ± 24.84 (n=3)", "1050.00 ± 24.84 (n=3)", "1020.00 ± 37.26 (n=3)", "▲ +5.0 %", "≈ +2.0 %"} {
				if !strings.Contains(svg, want) {
					t.Errorf("%s: the step chart lacks %q", l.Code, want)
				}
			}
			// Three bars, each with a whisker and two caps.
			if n := strokes(svg, "stroke-width:2;stroke:rgba(31,35,40,1.0);fill:none"); n != 9 {
				t.Errorf("%s: %d error-bar strokes, want 9", l.Code, n)
			}
		}
	}
}

// strokes counts the lines drawn in a style: the subpaths (each starts
// with a move, "M") of every path of that style attribute.
func strokes(svg, style string) int {
	re := regexp.MustCompile(`<path [^>]*d="([^"]*)" style="` + regexp.QuoteMeta(style) + `"`)
	n := 0
	for _, m := range re.FindAllStringSubmatch(svg, -1) {
		n += strings.Count(m[1], "M ")
	}
	return n
}
