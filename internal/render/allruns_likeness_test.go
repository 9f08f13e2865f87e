package render

import (
	"testing"

	"github.com/perflab/perflab/internal/benchlog"
	"github.com/perflab/perflab/internal/check"
)

// TestCompareSaysUnlike: two runs of the all-runs table measured at other
// loads get the sentence the page shows when both are chosen, and the row
// they are unlike on the pair, so that it prints no change.
func TestCompareSaysUnlike(t *testing.T) {
	r, err := chartRenderer()
	if err != nil {
		t.Fatal(err)
	}
	c := syntheticCase()
	for _, run := range c.rep.Study.Runs {
		for i := range run.Logs {
			if lg := &run.Logs[i]; lg.Workload == "long" && (run.ID == "base" || run.ID == "nolog") {
				load := map[string]float64{"base": 64, "nolog": 32}[run.ID]
				lg.Blocks[0].Metrics["max_concurrency"] = benchlog.Metric{Value: load, Line: 1}
			}
		}
	}
	page, err := r.Report(Input{Result: check.Result{Study: c.rep.Study, Report: c.rep}, Content: c.content}, "en")
	if err != nil {
		t.Fatal(err)
	}
	body := allRunsTable(t, string(page.HTML))
	ta := elements(body, "table")[0].attrs
	if got := ta["data-like-0-2"]; got != "These two runs were not measured like for like: concurrency 64 against 32. Where that makes a row unlike, no change is printed on it." {
		t.Errorf("base against nolog: %q", got)
	}
	if ta["data-unlike-text"] != "not like for like" {
		t.Errorf("data-unlike-text %q", ta["data-unlike-text"])
	}
	// half's long log states no load: a caveat against either.
	for _, k := range []string{"data-like-0-1", "data-like-1-2"} {
		if got := ta[k]; got != "Compare these two runs with care: only one side's log states the load it ran at." {
			t.Errorf("%s = %q", k, got)
		}
	}
	rows := elements(body, "tr")[1:]
	for i, tr := range rows {
		want := ""
		if i == 4 { // long's throughput, the one row both runs measured
			want = "0-2"
		}
		if got := tr.attrs["data-unlike"]; got != want {
			t.Errorf("row %d data-unlike %q, want %q", i, got, want)
		}
	}
}
