package render

import (
	"html"
	"regexp"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/check"
	"github.com/perflab/perflab/internal/report"
)

// element is a tag of a page and its attributes, read with the patterns
// of attributes_test.go.
type element struct {
	name  string
	attrs map[string]string
	inner string // up to the next tag of the same name, or the table's end
}

var (
	attrValuePattern = regexp.MustCompile(`\s([^\s=>]+)(?:="([^"]*)")?`)
	tagNamePattern   = regexp.MustCompile(`^<([a-z0-9]+)`)
)

// elements lists the tags named name in page, in order.
func elements(page, name string) []element {
	var out []element
	for _, loc := range tagPattern.FindAllStringIndex(page, -1) {
		tag := page[loc[0]:loc[1]]
		if m := tagNamePattern.FindStringSubmatch(tag); m == nil || m[1] != name {
			continue
		}
		e := element{name: name, attrs: map[string]string{}}
		for _, a := range attrValuePattern.FindAllStringSubmatch(strings.TrimPrefix(tag, "<"+name), -1) {
			e.attrs[a[1]] = html.UnescapeString(a[2])
		}
		rest := page[loc[1]:]
		if end := strings.Index(rest, "</"+name+">"); end >= 0 {
			rest = rest[:end]
		}
		e.inner = rest
		out = append(out, e)
	}
	return out
}

// allRunsTable is the all-runs table of an HTML page: from its heading to
// the table's end.
func allRunsTable(t *testing.T, page string) string {
	t.Helper()
	i := strings.Index(page, `<h2 id="all-runs">`)
	if i < 0 {
		t.Fatal("no all-runs heading")
	}
	j := strings.Index(page[i:], "</table>")
	if j < 0 {
		t.Fatal("no table after the all-runs heading")
	}
	return page[i : i+j]
}

func renderSynthetic(t *testing.T, lang string) *Page {
	t.Helper()
	r, err := chartRenderer()
	if err != nil {
		t.Fatal(err)
	}
	c := syntheticCase()
	page, err := r.Report(Input{Result: check.Result{Study: c.rep.Study, Report: c.rep}, Content: c.content}, lang)
	if err != nil {
		t.Fatal(err)
	}
	return page
}

// TestAllRunsTable: the synthetic study's all-runs table has a column per
// comparable run (not the failed one, not the one left out of
// comparisons), a row per metric with its direction, and in each cell the
// number the script compares and a link to its log line.
func TestAllRunsTable(t *testing.T) {
	page := renderSynthetic(t, "en")
	body := allRunsTable(t, string(page.HTML))
	tables := elements(body, "table")
	if len(tables) != 1 {
		t.Fatalf("%d tables", len(tables))
	}
	ta := tables[0].attrs
	for k, want := range map[string]string{"data-compare": "", "data-first": "0", "data-second": "1",
		"data-label-first": "First run", "data-label-second": "Second run", "data-label-change": "Change",
		"data-noise-text": " (no measurable difference)"} {
		if got, ok := ta[k]; !ok || got != want {
			t.Errorf("table %s = %q (%v), want %q", k, got, ok, want)
		}
	}
	var runs []string
	for _, th := range elements(body, "th") {
		if id, ok := th.attrs["data-run"]; ok {
			runs = append(runs, id)
		}
	}
	if strings.Join(runs, " ") != "base half nolog" {
		t.Errorf("columns %q, want base half nolog", runs)
	}
	if strings.Contains(body, "<half>") || !strings.Contains(body, "Engine A &lt;half&gt; &amp; co") {
		t.Error("a run's name is not escaped in the table's header")
	}
	rows := elements(body, "tr")[1:] // the header's row first
	var dirs []string
	for _, tr := range rows {
		dirs = append(dirs, tr.attrs["data-higher-better"])
		// No repeats: each row's band is the floor.
		if tr.attrs["data-band"] != "1" {
			t.Errorf("row band %q, want 1", tr.attrs["data-band"])
		}
	}
	// chat: throughput, mean TTFT, P99 TTFT, mean TPOT; long: throughput.
	if strings.Join(dirs, "") != "10001" {
		t.Errorf("rows' data-higher-better %q, want 10001", dirs)
	}
	cells := elements(rows[0].inner, "td")
	if len(cells) != 5 {
		t.Fatalf("%d cells in the first row, want 5", len(cells))
	}
	base, half := cells[2], cells[3]
	// The engine A's chat log, shown on the page as the baseline's: its line.
	if base.attrs["data-v"] != "1000.5" || base.attrs["data-replicas"] != "" ||
		!strings.Contains(base.inner, `href="#`+LineID("runs/base/chat.log", 2)+`"`) || !strings.Contains(base.inner, ">1000.50</a>") {
		t.Errorf("baseline cell %+v", base)
	}
	// One GPU of two: projected, the page multiplies by the replicas.
	if half.attrs["data-v"] != "750.25" || half.attrs["data-replicas"] != "2" || !strings.Contains(half.inner, ">750.25 x 2</a>") {
		t.Errorf("projected cell %+v", half)
	}
	if _, ok := cells[4].attrs["data-v"]; ok || !strings.Contains(cells[4].inner, "—") {
		t.Errorf("a run without the workload: cell %+v, want — and no value", cells[4])
	}
	// nolog's long log is not shown on the page: its figure links to its run.
	last := elements(rows[4].inner, "td")
	if last[4].attrs["data-v"] != "10" || !strings.Contains(last[4].inner, `href="#run-nolog"`) ||
		!strings.Contains(last[4].inner, "runs/nolog/long.log:2") {
		t.Errorf("a figure of a log the page does not show: %+v", last[4])
	}
	// The script comes with the table, once.
	if n := strings.Count(string(page.HTML), `document.querySelector("table[data-compare]")`); n != 1 {
		t.Errorf("the compare script is on the page %d times", n)
	}
	// The Markdown has the plain table: no attributes, no script.
	md := string(page.Markdown)
	if !strings.Contains(md, "## All runs side by side") || !strings.Contains(md, "| [Engine A](#run-base) | [Engine A \\<half\\> \\& co](#run-half) | [Engine D](#run-nolog) |") {
		t.Errorf("the Markdown has no all-runs table:\n%s", md)
	}
	if strings.Contains(md, "data-") || strings.Contains(md, "<script") {
		t.Error("the Markdown carries the page's attributes or script")
	}
}

// TestAllRunsLabels: the controls are labelled in the page's language.
func TestAllRunsLabels(t *testing.T) {
	for lang, want := range map[string]string{"zh": "第一个运行", "ja": "一つ目の実行"} {
		table := elements(allRunsTable(t, string(renderSynthetic(t, lang).HTML)), "table")[0]
		if table.attrs["data-label-first"] != want {
			t.Errorf("%s: data-label-first %q, want %q", lang, table.attrs["data-label-first"], want)
		}
	}
}

// TestAllRunsNone: a study with a single comparable run has no table, and
// its page no script.
func TestAllRunsNone(t *testing.T) {
	r, err := chartRenderer()
	if err != nil {
		t.Fatal(err)
	}
	c := syntheticCase()
	s := c.rep.Study
	s.Runs = s.Runs[:1] // base
	s.Steps[0].Runs = []string{"base"}
	s.Recommended.Runs = []string{"base"}
	rep := report.Build(s, nil)
	page, err := r.Report(Input{Result: check.Result{Study: s, Report: rep}, Content: c.content}, "en")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(page.HTML), "all-runs") || strings.Contains(string(page.HTML), "data-compare") {
		t.Error("a study of one run has an all-runs table")
	}
}
