package pipeline

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"math"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/perflab/perflab/internal/check"
	"github.com/perflab/perflab/internal/report"
	"github.com/perflab/perflab/internal/site"
	"github.com/perflab/perflab/internal/study"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// repoDirs are the repository's own folders, seen from this package.
var repoDirs = Dirs{Results: "../../results", Content: "../../content", Locales: "../../locales", Templates: "../../templates"}

func buildRepo(t *testing.T, d Dirs) (*Project, site.Files) {
	t.Helper()
	var mu sync.Mutex
	held := map[string]check.Result{}
	out := &lockedFiles{files: site.Files{}}
	p, _, err := build(d, out, nil, func(res check.Result) {
		mu.Lock()
		held[res.Study.ID] = res
		mu.Unlock()
	})
	if err != nil {
		t.Fatal(err)
	}
	for i, res := range p.Results {
		p.Results[i] = held[res.Study.ID]
		content, err := loadContent(d, res.Study.ID)
		if err != nil {
			t.Fatal(err)
		}
		for lang, c := range content {
			if p.Content[lang] == nil {
				p.Content[lang] = map[string]*study.Content{}
			}
			p.Content[lang][res.Study.ID] = c
		}
	}
	return p, out.files
}

// TestRepositoryGolden builds the repository's own results/ in every
// language and compares every page with testdata/golden.
func TestRepositoryGolden(t *testing.T) {
	t.Parallel()
	_, files := buildRepo(t, repoDirs)
	golden := filepath.Join("testdata", "golden")
	if *update {
		// The golden folder is test data, not a site: rewritten file by
		// file, with no stamp.
		if err := os.RemoveAll(golden); err != nil {
			t.Fatal(err)
		}
		for _, name := range files.Names() {
			p := filepath.Join(golden, filepath.FromSlash(name))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, files[name], 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return
	}
	for _, name := range files.Names() {
		want, err := os.ReadFile(filepath.Join(golden, filepath.FromSlash(name)))
		if err != nil {
			t.Errorf("%s: no golden file (run go test ./internal/pipeline -update): %v", name, err)
			continue
		}
		if !bytes.Equal(want, files[name]) {
			t.Errorf("%s differs from its golden file (go test ./internal/pipeline -update rewrites it):\n%s", name, diff(want, files[name]))
		}
	}
	filepath.WalkDir(golden, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(golden, p)
			if _, ok := files[filepath.ToSlash(rel)]; !ok {
				t.Errorf("golden file %s is no longer produced: run with -update", rel)
			}
		}
		return nil
	})
}

// diff shows the first differing lines.
func diff(want, got []byte) string {
	w, g := strings.Split(string(want), "\n"), strings.Split(string(got), "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			return "line " + strconv.Itoa(i+1) + ":\n  want: " + a + "\n  got:  " + b
		}
	}
	return "(same lines, different bytes)"
}

var htmlTag = regexp.MustCompile(`<[^>]*>`)

// TestSeedFigures asserts the figures the seeds publish, recomputed from the
// logs, on the English, Chinese and Japanese pages.
func TestSeedFigures(t *testing.T) {
	t.Parallel()
	_, files := buildRepo(t, repoDirs)
	want := map[string][]string{
		"qwen3-235b-a22b-a100": {"+59.2 %", "+33.2 %", "+14.2 %", "+13.4 %", "+24.1 %", "+22.2 %", "3019.19 x 2",
			"SGLang (4635.31 tok/s) &gt; vLLM (3792.50 tok/s)"},
		"qwen3-32b-a100": {"+18.7 %", "+33.1 %", "+7.7 %", "+10.9 %", "-12.1 %", "-13.8%",
			"TensorRT-LLM (2054.21 tok/s) &gt; vLLM (1730.98 tok/s) &gt; SGLang (1398.38 tok/s)"},
	}
	for _, lang := range []string{"en", "zh", "ja"} {
		for id, figures := range want {
			page := string(files[lang+"/"+id+"/index.html"])
			if page == "" {
				t.Fatalf("no page %s/%s", lang, id)
			}
			text := htmlTag.ReplaceAllString(page, "")     // figures are links to their logs
			text = strings.ReplaceAll(text, "\u00a0", " ") // a % bound by a no-break space reads the same
			for _, f := range figures {
				if lang != "en" { // a run's figure in the ranking is in full-width brackets, a % right after its figure
					f = strings.NewReplacer(" (", "（", ")", "）", " %", "%").Replace(f)
				}
				if !strings.Contains(text, f) {
					t.Errorf("%s/%s/index.html does not show %q", lang, id, f)
				}
			}
			if !strings.Contains(page, `<html lang="`+lang+`">`) {
				t.Errorf("%s/%s: wrong html lang", lang, id)
			}
			for _, other := range []string{"en", "zh", "ja"} {
				if !strings.Contains(page, `href="../../`+other+`/`+id+`/index.html"`) {
					t.Errorf("%s/%s does not link to its %s version", lang, id, other)
				}
			}
		}
	}
	// The projected optimized value is labelled as such and never shown as a measurement.
	en := string(files["en/qwen3-235b-a22b-a100/index.html"])
	if !strings.Contains(en, "3019.19 x 2</a> <em>(projected)</em>") {
		t.Error("the TP4 ShareGPT figure is not labelled projected")
	}
	if strings.Contains(en, "6038.38") {
		t.Error("the projection 3019.19 x 2 is shown as if it were measured (6038.38)")
	}
}

// TestRepositoryCheck: the seeds' two known problems are found and
// acknowledged, and nothing else is an error.
func TestRepositoryCheck(t *testing.T) {
	t.Parallel()
	p, err := loadHeld(repoDirs)
	if err != nil {
		t.Fatal(err)
	}
	if p.Failed() {
		for _, d := range p.Diagnostics() {
			t.Log(d)
		}
		t.Fatal("check fails on the repository's results/")
	}
	got := map[string]bool{}
	for _, d := range p.Diagnostics() {
		if d.Acknowledged() {
			got[d.Rule+" "+d.Subject] = true
		}
	}
	for _, want := range []string{"claim-mismatch conclusion/random-32k", "model-mismatch trtllm-mnt16384", "model-mismatch trtllm-mnt32768"} {
		if !got[want] {
			t.Errorf("expected an acknowledged %s", want)
		}
	}
}

// copyTree copies the repository folders into a temporary tree.
func copyTree(t *testing.T) Dirs {
	t.Helper()
	dst := t.TempDir()
	for _, dir := range []string{"results", "content", "locales", "templates"} {
		out, err := exec.Command("cp", "-r", filepath.Join("../..", dir), filepath.Join(dst, dir)).CombinedOutput()
		if err != nil {
			t.Fatalf("cp: %v %s", err, out)
		}
	}
	return Dirs{Results: filepath.Join(dst, "results"), Content: filepath.Join(dst, "content"),
		Locales: filepath.Join(dst, "locales"), Templates: filepath.Join(dst, "templates")}
}

// TestRemovingAcknowledgementFails: without its acknowledgement a seed
// problem fails the check, on the claim's own line.
func TestRemovingAcknowledgementFails(t *testing.T) {
	t.Parallel()
	d := copyTree(t)
	file := filepath.Join(d.Results, "qwen3-32b-a100", "study.yaml")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(data, []byte("\nacknowledged:"))
	if i < 0 {
		t.Fatal("study.yaml has no acknowledged: section")
	}
	if err := os.WriteFile(file, data[:i+1], 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := loadHeld(d)
	if err != nil {
		t.Fatal(err)
	}
	if !p.Failed() {
		t.Fatal("check passes without the acknowledgements")
	}
	rules := map[string]int{}
	for _, diag := range p.Diagnostics() {
		if diag.Severity == check.Error && !diag.Acknowledged() {
			rules[diag.Rule]++
			if diag.Line <= 0 {
				t.Errorf("%s has no line", diag)
			}
		}
	}
	if rules["claim-mismatch"] != 1 || rules["model-mismatch"] != 2 {
		t.Errorf("unacknowledged errors by rule = %v, want one claim-mismatch and two model-mismatch", rules)
	}
}

// TestDeterministic: two builds of the same tree give the same bytes.
func TestDeterministic(t *testing.T) {
	t.Parallel()
	// The second build reads the same folders by absolute paths: pages name
	// files as the repository does, whatever path perflab was given.
	abs := repoDirs
	for _, p := range []*string{&abs.Results, &abs.Content, &abs.Locales, &abs.Templates} {
		var err error
		if *p, err = filepath.Abs(*p); err != nil {
			t.Fatal(err)
		}
	}
	_, a := buildRepo(t, repoDirs)
	_, b := buildRepo(t, abs)
	if len(a) != len(b) {
		t.Fatalf("builds produced %d and %d files", len(a), len(b))
	}
	for name, data := range a {
		if !bytes.Equal(data, b[name]) {
			t.Errorf("%s differs between two builds", name)
		}
	}
}

// TestMissingTranslationIsCaught: a label missing in one language, and a
// prose section missing in one language, are check errors.
func TestMissingTranslationIsCaught(t *testing.T) {
	t.Parallel()
	d := copyTree(t)
	ja := filepath.Join(d.Locales, "ja.yaml")
	data, _ := os.ReadFile(ja)
	lines := strings.Split(string(data), "\n")
	var kept []string
	for _, l := range lines {
		if !strings.HasPrefix(l, "summary.heading:") {
			kept = append(kept, l)
		}
	}
	os.WriteFile(ja, []byte(strings.Join(kept, "\n")), 0o644)
	zh := filepath.Join(d.Content, "zh", "qwen3-32b-a100.md")
	data, _ = os.ReadFile(zh)
	data = bytes.Replace(data, []byte("<!-- section: objective -->"), []byte("<!-- section: notes-removed -->"), 1)
	os.WriteFile(zh, data, 0o644)

	p, err := loadHeld(d)
	if err != nil {
		t.Fatal(err)
	}
	var msgs []string
	for _, diag := range p.Diagnostics() {
		if diag.Severity == check.Error && !diag.Acknowledged() {
			msgs = append(msgs, diag.String())
		}
	}
	joined := strings.Join(msgs, "\n")
	for _, want := range []string{"ja.yaml", "summary.heading", "zh/qwen3-32b-a100.md"} {
		if !strings.Contains(joined, want) {
			t.Errorf("check output does not mention %q:\n%s", want, joined)
		}
	}
}

// TestPageTemplateParts: a report page is written between page.html.tmpl's
// page-start and page-end; a page template without them (one that
// printed a {{.Body}}) stops the build with an error naming the file.
func TestPageTemplateParts(t *testing.T) {
	t.Parallel()
	d := copyTree(t)
	os.WriteFile(filepath.Join(d.Templates, "page.html.tmpl"), []byte("<main>\n{{.Body}}\n</main>"), 0o644)
	_, _, err := build(d, &lockedFiles{files: site.Files{}}, nil, nil)
	if err == nil || !strings.Contains(err.Error(), "page.html.tmpl") || !strings.Contains(err.Error(), `no section "page-start"`) {
		t.Errorf("error %v, want one naming page.html.tmpl and page-start", err)
	}
}

// TestNotFoundTemplateChecked: a 404 template that fails as it runs is an
// error of check on its file, as it would fail the build.
func TestNotFoundTemplateChecked(t *testing.T) {
	t.Parallel()
	d := copyTree(t)
	os.WriteFile(filepath.Join(d.Templates, "notfound.html.tmpl"), []byte("<p>{{.NoSuchField}}</p>"), 0o644)
	p, err := loadHeld(d)
	if err != nil {
		t.Fatal(err)
	}
	want := filepath.ToSlash(filepath.Join(d.Templates, "notfound.html.tmpl"))
	for _, diag := range p.Problems {
		if diag.Rule == check.RuleSchema && diag.File == want && strings.Contains(diag.Message, "NoSuchField") {
			return
		}
	}
	t.Errorf("no schema problem on %s in %v", want, p.Problems)
}

// TestTemplateErrorNamesGivenFolder: a broken template or locale file is
// reported by its path in the folders perflab was given.
func TestTemplateErrorNamesGivenFolder(t *testing.T) {
	t.Parallel()
	d := copyTree(t)
	os.Remove(filepath.Join(d.Locales, "ja.yaml"))
	p, err := loadHeld(d)
	if err != nil {
		t.Fatal(err)
	}
	want := filepath.ToSlash(filepath.Join(d.Locales, "ja.yaml"))
	for _, diag := range p.Problems {
		if diag.Rule == check.RuleSchema && diag.File == want {
			return
		}
	}
	t.Errorf("no schema problem on %s in %v", want, p.Problems)
}

// A template whose output runs away stops the build with an error naming it.
func TestRunawayTemplateNamed(t *testing.T) {
	t.Parallel()
	d := copyTree(t)
	file := filepath.Join(d.Templates, "report.md.tmpl")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	loop := `{{define "report-end"}}{{range 100000}}{{range 100000}}xxxxxxxx{{end}}{{end}}`
	if err := os.WriteFile(file, bytes.Replace(data, []byte(`{{define "report-end"}}`), []byte(loop), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = siteFiles(d)
	if err == nil || !strings.Contains(err.Error(), "templates/report.md.tmpl") || !strings.Contains(err.Error(), "runs away") {
		t.Fatalf("err %v, want the runaway template named", err)
	}
}

// An article (tables, no logs) is checked but never rendered: the site is
// the same as without it, and its table error is among the diagnostics.
func TestArticleIsCheckedNotRendered(t *testing.T) {
	t.Parallel()
	d := copyTree(t)
	_, without := buildRepo(t, d)
	dir := filepath.Join(d.Results, "an-article")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	yaml := "kind: article\nmodel: Qwen3-8B\nclaims:\n  - kind: table\n    from: \"13305.38\"\n    to: \"16452.52\"\n    printed: \"+26.7%\"\n    source: \"a.md:123\"\n"
	if err := os.WriteFile(filepath.Join(dir, "study.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	p, with := buildRepo(t, d)
	if len(with) != len(without) {
		t.Errorf("the site has %d files with the article, %d without", len(with), len(without))
	}
	for name := range with {
		if strings.Contains(name, "an-article") {
			t.Errorf("the article was rendered: %s", name)
		}
	}
	found := false
	for _, diag := range p.Diagnostics() {
		found = found || diag.Study == "an-article" && strings.Contains(diag.Message, "+23.7 %")
	}
	if !found {
		t.Error("the article's wrong change is not among the diagnostics")
	}
}

// make check catches ASCII punctuation between Chinese characters in the
// prose and in the locale files, on its file and line.
func TestTypographyIsChecked(t *testing.T) {
	t.Parallel()
	d := copyTree(t)
	file := filepath.Join(d.Content, "zh", "qwen3-32b-a100.md")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, append(data, []byte("\n吞吐量提升,延迟不变。\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := loadHeld(d)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, diag := range p.Diagnostics() {
		if diag.Rule == check.RuleTypography {
			found = strings.HasSuffix(diag.File, "content/zh/qwen3-32b-a100.md") && diag.Line == strings.Count(string(data), "\n")+2
		}
	}
	if !found || !p.Failed() {
		t.Errorf("typography problem not reported on its line (found %v, failed %v)", found, p.Failed())
	}
}

// The Markdown pages read well on GitHub: no {#id} attribute syntax (an
// anchor before the heading instead) and no provenance chains in titles.
func TestMarkdownForGitHub(t *testing.T) {
	t.Parallel()
	_, files := buildRepo(t, repoDirs)
	for _, name := range files.Names() {
		if !strings.HasSuffix(name, ".md") {
			continue
		}
		md := string(files[name])
		if strings.Contains(md, "{#") {
			t.Errorf("%s: {#id} attribute syntax, which GitHub prints as text", name)
		}
		if strings.Contains(md, ` · `) && regexp.MustCompile(`\]\([^ )]+ "[^"]* · `).MatchString(md) {
			t.Errorf("%s: a link title with a whole provenance chain", name)
		}
		if !strings.Contains(md, `<a id="conclusion"></a>`) {
			t.Errorf("%s: no anchor for the conclusion", name)
		}
	}
}

// A run in no step and no configuration is shown under Other runs in every
// language, and check warns about it.
func TestUnplacedRunIsShown(t *testing.T) {
	t.Parallel()
	d := copyTree(t)
	src := filepath.Join(d.Results, "qwen3-32b-a100", "runs", "sglang")
	dst := filepath.Join(d.Results, "qwen3-32b-a100", "runs", "sglang-again")
	if out, err := exec.Command("cp", "-r", src, dst).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v %s", err, out)
	}
	p, files := buildRepo(t, d)
	for _, lang := range []string{"en", "zh", "ja"} {
		page := string(files[lang+"/qwen3-32b-a100/index.html"])
		if !strings.Contains(page, `id="other-runs"`) || !strings.Contains(page, `id="run-sglang-again"`) {
			t.Errorf("%s: the unplaced run is not under Other runs", lang)
		}
	}
	warned := false
	for _, diag := range p.Diagnostics() {
		warned = warned || diag.Rule == check.RuleUnplaced && diag.Subject == "sglang-again" && diag.Severity == check.Warning
	}
	if !warned {
		t.Error("no unplaced-run warning")
	}
}

// With the repository's address, each log links to its lines there and
// every report ends with an invitation to open an issue.
func TestRepoURLLinks(t *testing.T) {
	t.Parallel()
	d := repoDirs
	d.RepoURL = "https://github.com/org/repo"
	_, files := buildRepo(t, d)
	for _, lang := range []string{"en", "zh", "ja"} {
		md := string(files[lang+"/qwen3-32b-a100.md"])
		if !strings.Contains(md, "(https://github.com/org/repo/blob/HEAD/results/qwen3-32b-a100/runs/vllm-max-model-len/sharegpt.log#L1-L23)") {
			t.Errorf("%s: no link to the log's lines in the repository", lang)
		}
		if !strings.Contains(md, "(https://github.com/org/repo/issues/new)") {
			t.Errorf("%s: no feedback link", lang)
		}
		// An earlier version's log is not on the page: its figures link
		// to their line in the repository.
		history := string(files[lang+"/example-qwen3-8b-l40s.md"])
		if !strings.Contains(history, "[10770.06](https://github.com/org/repo/blob/HEAD/results/example-qwen3-8b-l40s/runs/vllm/history/v0.9.2/chat.log#L12 ") {
			t.Errorf("%s: a history figure does not link to its log line", lang)
		}
	}
}

// A study's latency budget gives a section in every language: each run
// with a result, best first, whether it keeps the budget, and the best
// that does.
func TestLatencyBudget(t *testing.T) {
	t.Parallel()
	d := copyTree(t)
	file := filepath.Join(d.Results, "qwen3-235b-a22b-a100", "study.yaml")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	slo := "slo:\n  statistic: p99\n  ttft_ms: 100000\n  tpot_ms: 520\n"
	if err := os.WriteFile(file, append([]byte(slo), data...), 0o644); err != nil {
		t.Fatal(err)
	}
	p, files := buildRepo(t, d)
	var res *report.SLOResult
	for _, r := range p.Results {
		if r.Study.ID == "qwen3-235b-a22b-a100" {
			res = r.Report.SLO
		}
	}
	if res == nil || len(res.Runs) < 3 || res.Best == nil {
		t.Fatalf("SLO result %+v", res)
	}
	for _, sr := range res.Runs {
		if sr.Run.ID == res.Best.Run.ID {
			break
		}
		if sr.Meets {
			t.Errorf("%s keeps the budget and ranks above the best, %s", sr.Run.ID, res.Best.Run.ID)
		}
	}
	for _, v := range res.Best.Values {
		if v == nil {
			t.Errorf("the best run lacks a latency of the budget")
		}
	}
	for lang, want := range map[string]string{"en": "Best configuration within the budget:", "zh": "满足预算的最佳配置", "ja": "予算内で最良の構成"} {
		page := string(files[lang+"/qwen3-235b-a22b-a100.md"])
		if !strings.Contains(page, want) || !strings.Contains(page, `<a id="slo"></a>`) || !strings.Contains(page, res.Best.Run.Name) {
			t.Errorf("%s: no latency-budget section naming %s", lang, res.Best.Run.Name)
		}
	}
}

// A study's price gives each configuration's cost per token, cheapest
// first, in every language, from its logged output throughput and GPUs.
func TestCostPerToken(t *testing.T) {
	t.Parallel()
	d := copyTree(t)
	file := filepath.Join(d.Results, "qwen3-32b-a100", "study.yaml")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, append([]byte("price:\n  gpu_hour: 2.50\n  currency: USD\n"), data...), 0o644); err != nil {
		t.Fatal(err)
	}
	p, files := buildRepo(t, d)
	var res *report.CostResult
	for _, r := range p.Results {
		if r.Study.ID == "qwen3-32b-a100" {
			res = r.Report.Cost
		}
	}
	if res == nil || len(res.Runs) < 2 {
		t.Fatalf("cost result %+v", res)
	}
	for i, cr := range res.Runs {
		want := 2.50 * 1e6 / (cr.Output.Measured * 3600 / float64(cr.Run.GPUs))
		if math.Abs(cr.PerMillion-want) > 1e-9*want || i > 0 && cr.PerMillion < res.Runs[i-1].PerMillion {
			t.Errorf("run %s: %v per million, want %v, cheapest first", cr.Run.ID, cr.PerMillion, want)
		}
	}
	cheapest := report.FormatNumber(res.Runs[0].PerMillion, 3)
	for _, lang := range []string{"en", "zh", "ja"} {
		page := string(files[lang+"/qwen3-32b-a100.md"])
		if !strings.Contains(page, `<a id="cost"></a>`) || !strings.Contains(page, "| "+cheapest+" |") {
			t.Errorf("%s: no cost section with %s", lang, cheapest)
		}
	}
	// A price that is not a positive number is a schema error on its line.
	for _, bad := range []string{"free", "NaN", "-1", "1e400"} {
		if err := os.WriteFile(file, append([]byte("price:\n  gpu_hour: "+bad+"\n  currency: USD\n"), data...), 0o644); err != nil {
			t.Fatal(err)
		}
		p, err = loadHeld(d)
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, diag := range p.Diagnostics() {
			found = found || diag.Rule == check.RuleSchema && diag.Line == 2 && strings.Contains(diag.Message, "gpu_hour")
		}
		if !found {
			t.Errorf("no schema error for gpu_hour: %s", bad)
		}
	}
}

// A run's accuracy.json (lm-evaluation-harness results) is shown beside its
// throughput, each score with its file and line; a file that is not one is
// a schema error.
func TestAccuracyBesideThroughput(t *testing.T) {
	t.Parallel()
	d := copyTree(t)
	run := filepath.Join(d.Results, "qwen3-235b-a22b-a100", "runs", "vllm-fp8-tp4")
	scores := "{\n  \"results\": {\n    \"gsm8k\": {\n      \"alias\": \"gsm8k\",\n      \"exact_match,strict-match\": 0.8931,\n      \"exact_match_stderr,strict-match\": 0.0085\n    },\n    \"mmlu\": {\n      \"acc,none\": 0.7478,\n      \"acc_stderr,none\": 0.0035\n    }\n  }\n}\n"
	if err := os.WriteFile(filepath.Join(run, "accuracy.json"), []byte(scores), 0o644); err != nil {
		t.Fatal(err)
	}
	_, files := buildRepo(t, d)
	page := string(files["en/qwen3-235b-a22b-a100.md"])
	for _, want := range []string{"Accuracy: gsm8k exact\\_match [0.8931]", "results/qwen3-235b-a22b-a100/runs/vllm-fp8-tp4/accuracy.json:5", "mmlu acc [0.7478]", "accuracy.json:9"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if !strings.Contains(string(files["ja/qwen3-235b-a22b-a100.md"]), "精度：gsm8k") {
		t.Error("no accuracy in Japanese")
	}
	if err := os.WriteFile(filepath.Join(run, "accuracy.json"), []byte(`{"acc": 0.5}`), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := loadHeld(d)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, diag := range p.Diagnostics() {
		found = found || diag.Rule == check.RuleSchema && strings.HasSuffix(diag.File, "vllm-fp8-tp4/accuracy.json")
	}
	if !found {
		t.Error("no schema error for an accuracy.json without results")
	}
}

// TestMarkdownDownloadsDeclareUTF8: each report's Markdown download opens
// with one UTF-8 byte order mark, so that a browser reads it as UTF-8 when
// a server names no charset; the HTML pages, which declare theirs, have none.
func TestMarkdownDownloadsDeclareUTF8(t *testing.T) {
	t.Parallel()
	_, files := buildRepo(t, repoDirs)
	downloads := 0
	for name, data := range files {
		switch {
		case strings.HasSuffix(name, ".md"):
			downloads++
			rest, ok := bytes.CutPrefix(data, utf8BOM)
			if !ok || bytes.HasPrefix(rest, utf8BOM) || !utf8.Valid(rest) {
				t.Errorf("%s starts with % x, want one byte order mark, then UTF-8", name, data[:min(len(data), 8)])
			}
		case strings.HasSuffix(name, ".html") && bytes.HasPrefix(data, utf8BOM):
			t.Errorf("%s starts with a byte order mark", name)
		}
	}
	if downloads == 0 {
		t.Error("no Markdown download was built")
	}
}

// loadContent reads a study's prose in every language it is written in,
// as the build read it.
func loadContent(d Dirs, id string) (map[string]*study.Content, error) {
	out := map[string]*study.Content{}
	if d.Content == "" {
		return out, nil
	}
	croot, cfs := filepath.ToSlash(d.Content), d.folder(d.Content)
	for _, l := range study.Languages {
		data, err := cfs.ReadFile(path.Join(l, id+".md"))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		c, probs := study.ParseContent(path.Join(croot, l, id+".md"), l, id, data)
		if err := schemaError(check.Problems(probs)); err != nil {
			return nil, err
		}
		out[l] = c
	}
	return out, nil
}

// lockedFiles collects files in memory from several goroutines.
type lockedFiles struct {
	mu    sync.Mutex
	files site.Files
}

func (l *lockedFiles) Add(name string, data []byte) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.files.Add(name, data)
}

func (l *lockedFiles) ReadFile(name string) ([]byte, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	data, ok := l.files[name]
	if !ok {
		return nil, fmt.Errorf("site: %q was not added", name)
	}
	return data, nil
}
