package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/perflab/perflab/internal/check"
	"github.com/perflab/perflab/internal/report"
)

// TestFiltersAndCompare drives the two scripts a reader uses: the landing
// page's filters, and a report's choice of two runs side by side, whose
// changes must read exactly as the report's own.
func TestFiltersAndCompare(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	browser := findBrowser()
	if browser == "" {
		t.Skip("no chromium, chromium-browser or google-chrome on PATH")
	}
	rs := buildRepoSite(t)
	base, p := rs.base, rs.project
	ctx := startBrowser(t, browser, 60*time.Second)
	eval := func(js string, out any) {
		t.Helper()
		raw, err := chromedp.Run(ctx, chromedp.Evaluate[json.RawMessage](js))
		if err != nil {
			t.Fatalf("%s: %v", js, err)
		}
		if err := json.Unmarshal(raw, out); err != nil {
			t.Fatalf("%s: %s: %v", js, raw, err)
		}
	}
	open := func(name string) {
		t.Helper()
		if _, err := chromedp.Run(ctx, chromedp.NavigateResponse(base+name)); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}

	// The landing page: each filter hides the rows that do not match.
	open("en/index.html")
	type shown struct {
		Models []string
		Count  string
		Groups int  // matched groups in view
		None   bool // the note that no group is left
	}
	filter := func(model, gpu, engine string) shown {
		t.Helper()
		var s shown
		eval(fmt.Sprintf(`(() => {
  const set = (f, v) => { const s = document.querySelector('select[data-filter="' + f + '"]'); s.value = v; s.dispatchEvent(new Event("change")); };
  set("model", %q); set("gpu", %q); set("engines", %q);
  return {Models: [...document.querySelectorAll("#studies tbody tr")].filter(r => !r.hidden && r.offsetParent).map(r => r.cells[0].querySelector("a").textContent),
    Count: document.getElementById("count").textContent,
    Groups: [...document.querySelectorAll(".matched-group")].filter(g => g.offsetParent).length,
    None: !!document.getElementById("matched-filtered").offsetParent};
})()`, model, gpu, engine), &s)
		return s
	}
	for _, c := range []struct {
		model, gpu, engine string
		want               []string
		count              string
		groups             int // the A100 group of the 235B and 32B studies, kept while one of them passes
	}{
		{"", "", "", []string{"Qwen/Qwen3-235B-A22B-Instruct-2507", "Qwen/Qwen3-32B", "Qwen/Qwen3-8B"}, "3 / 3", 1}, // measurements before the example
		{"", "", "TensorRT-LLM", []string{"Qwen/Qwen3-32B"}, "1 / 3", 1},
		{"", "NVIDIA A100 SXM 80GB", "vLLM", []string{"Qwen/Qwen3-235B-A22B-Instruct-2507", "Qwen/Qwen3-32B"}, "2 / 3", 1},
		{"", "NVIDIA L40S", "", []string{"Qwen/Qwen3-8B"}, "1 / 3", 0},
		{"Qwen/Qwen3-235B-A22B-Instruct-2507", "", "", []string{"Qwen/Qwen3-235B-A22B-Instruct-2507"}, "1 / 3", 1},
		{"Qwen/Qwen3-235B-A22B-Instruct-2507", "", "TensorRT-LLM", nil, "0 / 3", 0},
	} {
		got := filter(c.model, c.gpu, c.engine)
		if strings.Join(got.Models, "|") != strings.Join(c.want, "|") || got.Count != c.count {
			t.Errorf("filters %q %q %q: rows %q (%s), want %q (%s)", c.model, c.gpu, c.engine, got.Models, got.Count, c.want, c.count)
		}
		if got.Groups != c.groups || got.None != (c.groups == 0) {
			t.Errorf("filters %q %q %q: %d matched groups (note of none shown: %v), want %d", c.model, c.gpu, c.engine, got.Groups, got.None, c.groups)
		}
	}

	// A report: choose two runs; only their columns show, in the order
	// chosen, with the change from the first to the second.
	var res *check.Result
	for i := range p.Results {
		if p.Results[i].Study.ID == "qwen3-32b-a100" {
			res = &p.Results[i]
		}
	}
	if res == nil {
		t.Fatal("no study qwen3-32b-a100")
	}
	table := res.Report.AllRuns()
	column := func(id string) int {
		for i, r := range table.Runs {
			if r.ID == id {
				return i
			}
		}
		t.Fatalf("no column for run %s", id)
		return -1
	}
	open("en/qwen3-32b-a100/index.html")
	type view struct {
		Header []string
		Rows   [][]string // visible cells of each visible body row
	}
	choose := func(a, b int) view {
		t.Helper()
		var v view
		eval(fmt.Sprintf(`(() => {
  const s = document.querySelectorAll("p.compare select");
  s[0].value = "%d"; s[0].dispatchEvent(new Event("change"));
  s[1].value = "%d"; s[1].dispatchEvent(new Event("change"));
  const t = document.querySelector("table[data-compare]");
  const visible = row => [...row.cells].filter(c => !c.hidden && c.offsetParent).map(c => c.textContent);
  return {Header: visible(t.tHead.rows[0]), Rows: [...t.tBodies[0].rows].filter(r => !r.hidden).map(visible)};
})()`, a, b), &v)
		return v
	}
	// The conclusion's own pairs: its changes, as the report prints them.
	conclusion := map[string]string{"random-128": "▲ +33.1 %", "random-2k": "▲ +7.7 %", "random-4k": "▲ +10.9 %", "random-32k": "▼ -12.1 %"}
	v := choose(column("vllm"), column("trtllm-chunked-prefill"))
	if strings.Join(v.Header, "|") != "Benchmark case|Metric|vLLM|TensorRT-LLM|Change" {
		t.Errorf("header %q", v.Header)
	}
	if len(v.Rows) != 16 { // four random workloads x four metrics; ShareGPT neither run measured
		t.Errorf("%d rows shown, want 16: %q", len(v.Rows), v.Rows)
	}
	names := map[string]string{}
	for _, w := range res.Study.Workloads {
		names[p.Content["en"]["qwen3-32b-a100"].Workloads[w.ID]] = w.ID
	}
	seen := 0
	for _, row := range v.Rows {
		if want, ok := conclusion[names[row[0]]]; ok && row[1] == "total token throughput (tok/s)" {
			seen++
			if row[4] != want {
				t.Errorf("%s: change %q, the conclusion says %q", row[0], row[4], want)
			}
		}
	}
	if seen != len(conclusion) {
		t.Errorf("%d of the conclusion's changes found", seen)
	}
	// ShareGPT: the engine step, TensorRT-LLM against its reference.
	v = choose(column("vllm-max-model-len"), column("trtllm"))
	if len(v.Rows) != 4 || v.Rows[0][2] != "1730.98" || v.Rows[0][3] != "2054.21" || v.Rows[0][4] != "▲ +18.7 %" {
		t.Errorf("ShareGPT, vLLM then TensorRT-LLM: %q", v.Rows)
	}
	// Every pair, every row, of every study: the page's change is the
	// report's convention (internal/report: effective values, rounded once,
	// the noise band); qwen3-235b-a22b-a100 has projected figures.
	for i := range p.Results {
		res := &p.Results[i]
		table := res.Report.AllRuns()
		unlike := map[[2]int]map[int]bool{} // rows each pair prints no change on
		for _, pl := range res.Report.PairLikenesses(table) {
			unlike[[2]int{pl.A, pl.B}] = map[int]bool{}
			for _, i := range pl.Rows {
				unlike[[2]int{pl.A, pl.B}][i] = true
			}
		}
		open("en/" + res.Study.ID + "/index.html")
		for a := range table.Runs {
			for b := range table.Runs {
				v := choose(a, b)
				k := 0
				for ri, row := range table.Rows {
					from, to := row.Values[a], row.Values[b]
					if from == nil && to == nil {
						continue // hidden
					}
					if k >= len(v.Rows) {
						t.Fatalf("%s, runs %d, %d: %d rows shown, more expected", res.Study.ID, a, b, len(v.Rows))
					}
					cells := v.Rows[k]
					k++
					if want := 4 + min(1, abs(a-b)); len(cells) != want { // one column when a run is chosen twice
						t.Fatalf("%s, runs %d, %d: %d cells shown in %q, want %d", res.Study.ID, a, b, len(cells), cells, want)
					}
					want := expectedChange(res.Report, row, from, to)
					if unlike[[2]int{min(a, b), max(a, b)}][ri] && from != nil && to != nil {
						want = "— not like for like"
					}
					if cells[len(cells)-1] != want {
						t.Errorf("%s %s %s, %s -> %s: change %q, want %q", res.Study.ID, row.Workload, row.Metric.Key,
							table.Runs[a].ID, table.Runs[b].ID, cells[len(cells)-1], want)
					}
				}
				if k != len(v.Rows) {
					t.Errorf("%s, runs %d, %d: %d rows shown, want %d", res.Study.ID, a, b, len(v.Rows), k)
				}
			}
		}
	}

	// Without JavaScript the whole table shows, and no control.
	if err := chromedp.Do(ctx, func(ctx context.Context, tg *chromedp.Target) (chromedp.Void, error) {
		_, err := cdp.Call(ctx, tg, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true})
		return chromedp.Void{}, err
	}); err != nil {
		t.Fatal(err)
	}
	open("en/qwen3-32b-a100/index.html")
	var plain struct {
		Columns, Rows, Selects int
	}
	eval(`(() => {
  const t = document.querySelector("table[data-compare]");
  return {Columns: [...t.tHead.rows[0].cells].filter(c => c.offsetParent).length,
    Rows: [...t.tBodies[0].rows].filter(r => r.offsetParent).length, Selects: document.querySelectorAll("p.compare select").length};
})()`, &plain)
	if plain.Columns != 2+len(table.Runs) || plain.Rows != len(table.Rows) || plain.Selects != 0 {
		t.Errorf("without JavaScript: %+v, want %d columns, %d rows, no select", plain, 2+len(table.Runs), len(table.Rows))
	}
	open("en/index.html")
	var rows int
	eval(`[...document.querySelectorAll("#studies tbody tr")].filter(r => r.offsetParent).length`, &rows)
	if rows != len(p.Results) {
		t.Errorf("without JavaScript the landing page shows %d studies, want %d", rows, len(p.Results))
	}
}

func abs(x int) int { return max(x, -x) }

// expectedChange is the change cell the report would print (render's pct):
// the same arithmetic on the same float64s, the verdict at the row's band
// in the study (its metric's, or at a sweep's load that load's), the
// arrows.
func expectedChange(rep *report.Report, row report.AllRunsRow, from, to *report.Value) string {
	m := row.Metric
	band := rep.BandOf(m.Key)
	if row.Load != nil {
		band = rep.LoadBand(m.Key, row.Workload, row.Load.Value)
	}
	if from == nil || to == nil {
		return "—"
	}
	a, b := from.Effective(), to.Effective()
	p := (b/a - 1) * 100
	if math.IsInf(p, 0) || math.IsNaN(p) {
		return "—"
	}
	if !report.DistinctAt(band, *from, *to) {
		return "≈ " + report.FormatPercent(p) + " (no measurable difference)"
	}
	better := b < a
	if m.HigherBetter {
		better = b > a
	}
	if better {
		return "▲ " + report.FormatPercent(p)
	}
	return "▼ " + report.FormatPercent(p)
}
