package pipeline

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/check"
)

// sweepDirs is a study whose workload chat-sweep was measured at
// concurrency 1, 4 and 16 by two configurations (testdata/sweep), with a
// budget of 15 ms median TPOT, rendered with the repository's locales and
// templates. Output tok/s per GPU against median TPOT:
//
//	vLLM TP1 (1 GPU):  c1 100 at 9.5 ms, c4 320 at 12, c16 800 at 24
//	vLLM TP2 (2 GPUs): c1 100 at 6 ms,   c4 256 at 8.5, c16 640 at 17
//
// Within 15 ms: both c1 and c4; the best is vLLM TP1 at concurrency 4.
// Workload burst was swept by guidellm at concurrency 8 and 32, in one
// JSON report of vLLM TP2 (1523.4 and 3969.8 tok/s on 2 GPUs, median TPOT
// 5.27 and 7.93 ms): the best is concurrency 32, 1984.9 tok/s per GPU.
var sweepDirs = Dirs{Results: "testdata/sweep/results", Content: "testdata/sweep/content",
	Locales: "../../locales", Templates: "../../templates"}

var pageAnchor = regexp.MustCompile(`href="#(L[0-9a-f]{8}-[0-9]+)"`)

func TestSweepStudy(t *testing.T) {
	t.Parallel()
	p, files := buildRepo(t, sweepDirs)
	for _, d := range p.Diagnostics() {
		if d.Severity == check.Error && !d.Acknowledged() || d.Rule == check.RuleSweepMissing || d.Rule == check.RuleSweepPoint {
			t.Errorf("check: %s", d.String())
		}
	}
	const id = "example-8b-sweep"
	best := map[string]string{ // the recommendation at the budget
		"en": "vLLM TP1 at concurrency 4, 320.00 output tok/s per GPU.",
		"zh": "vLLM TP1，并发 4，每 GPU 输出 320.00 tok/s。",
		"ja": "vLLM TP1、同時実行数 4、GPU あたり出力 320.00 tok/s。",
	}
	bestBurst := map[string]string{
		"en": "vLLM TP2 at concurrency 32, 1984.9 output tok/s per GPU.",
		"zh": "vLLM TP2，并发 32，每 GPU 输出 1984.9 tok/s。",
		"ja": "vLLM TP2、同時実行数 32、GPU あたり出力 1984.9 tok/s。",
	}
	lineID := regexp.MustCompile(`id="(L[0-9a-f]{8}-[0-9]+)"`)
	for _, lang := range []string{"en", "zh", "ja"} {
		svg := files[lang+"/"+id+"/sweep-chat-sweep.svg"]
		if !bytes.Contains(svg, []byte(`<title id="chart-sweep-chat-sweep-title">`)) {
			t.Errorf("%s: no sweep chart: %.80q", lang, svg)
		}
		md := string(files[lang+"/"+id+".md"])
		for _, want := range []string{"(" + id + "/sweep-chat-sweep.svg)", best[lang], "(" + id + "/sweep-burst.svg)", bestBurst[lang]} {
			if !strings.Contains(md, want) {
				t.Errorf("%s: the page lacks %q", lang, want)
			}
		}
		// Six rows, one per configuration and load; the frontier is four
		// of them (TP2 c1, TP2 c4, TP1 c4, TP2 c16) and TP1 c16.
		section := md[strings.Index(md, "sweep-chat-sweep"):]
		section = section[:strings.Index(section, "sweep-burst")]
		if n := strings.Count(section, "\n| vLLM TP"); n != 6 {
			t.Errorf("%s: %d rows of the sweep, want 6", lang, n)
		}
		// The sweep's workload is not a row of the conclusion table.
		if concl := md[:strings.Index(md, "sweep-chat-sweep")]; strings.Contains(concl, "chat-sweep.c1.log") {
			t.Errorf("%s: a point of the sweep is in the conclusion", lang)
		}
		// Every figure links to a line the page shows, once: the guidellm
		// report holds both loads of burst on its line 1.
		html := string(files[lang+"/"+id+"/index.html"])
		ids := map[string]bool{}
		for _, m := range lineID.FindAllStringSubmatch(html, -1) {
			if ids[m[1]] {
				t.Errorf("%s: id %s twice", lang, m[1])
			}
			ids[m[1]] = true
		}
		for _, m := range pageAnchor.FindAllStringSubmatch(html, -1) {
			if !strings.Contains(html, `id="`+m[1]+`"`) {
				t.Errorf("%s: a link to #%s, which the page does not have", lang, m[1])
			}
		}
	}
	// The downloads give each point its load.
	csv := string(files["data/"+id+".csv"])
	for _, want := range []string{"runs/vllm-tp2/chat-sweep.c4.log,1,", ",max_concurrency,4\n", ",max_concurrency,16\n"} {
		if !strings.Contains(csv, want) {
			t.Errorf("data/%s.csv lacks %q", id, want)
		}
	}
	if n := strings.Count(csv, ",max_concurrency,"); n != 8 {
		t.Errorf("data/%s.csv: %d rows with a load, want 8 (6 logs of one load, 2 blocks of guidellm's)", id, n)
	}
}

func TestSweepDeterministic(t *testing.T) {
	t.Parallel()
	_, a := buildRepo(t, sweepDirs)
	_, b := buildRepo(t, sweepDirs)
	if len(a) != len(b) {
		t.Fatalf("builds produced %d and %d files", len(a), len(b))
	}
	for name, data := range a {
		if !bytes.Equal(data, b[name]) {
			t.Errorf("%s differs between two builds", name)
		}
	}
}
