package pipeline

import (
	"html"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

var (
	overviewTag   = regexp.MustCompile(`<([a-z0-9]+)((?:\s[^>]*)?)>`)
	overviewAttr  = regexp.MustCompile(`\s([a-z-]+)(?:="([^"]*)")?`)
	overviewLogID = regexp.MustCompile(`^#(L[0-9a-f]{8}-\d+)$`)
)

// tagOf is one element of a page: its name, attributes and the text up to
// its closing tag (or the page's end).
type tagOf struct {
	name  string
	attrs map[string]string
	inner string
}

func tagsOf(page, name string) []tagOf {
	var out []tagOf
	for _, m := range overviewTag.FindAllStringSubmatchIndex(page, -1) {
		if page[m[2]:m[3]] != name {
			continue
		}
		e := tagOf{name: name, attrs: map[string]string{}}
		for _, a := range overviewAttr.FindAllStringSubmatch(page[m[4]:m[5]], -1) {
			e.attrs[a[1]] = html.UnescapeString(a[2])
		}
		rest := page[m[1]:]
		if end := strings.Index(rest, "</"+name+">"); end >= 0 {
			rest = rest[:end]
		}
		e.inner = rest
		out = append(out, e)
	}
	return out
}

func textOf(s string) string { return html.UnescapeString(htmlTag.ReplaceAllString(s, "")) }

// figureIn writes a figure written the English way, "▲ +3.0 %", as a page
// in lang shows it: its mark bound to it by a no-break space, its % by
// another in English and right after it in Chinese and Japanese.
func figureIn(lang, s string) string {
	s = strings.NewReplacer("▲ ", "▲\u00a0", "▼ ", "▼\u00a0", "≈ ", "≈\u00a0").Replace(s)
	if lang == "en" {
		return strings.ReplaceAll(s, " %", "\u00a0%")
	}
	return strings.ReplaceAll(s, " %", "%")
}

// TestOverview: each landing page compares the studies, one row each with
// the attributes its filters match, filters labelled in the page's language
// and listing every model, GPU and engine, and each study's gain linked to
// its report's conclusion with its formula.
func TestOverview(t *testing.T) {
	t.Parallel()
	_, files := buildRepo(t, repoDirs)
	labels := map[string][]string{"en": {"Model", "GPU", "Engine"}, "zh": {"模型", "GPU", "推理引擎"}, "ja": {"モデル", "GPU", "推論エンジン"}}
	for _, page := range []struct{ file, lang, dir string }{
		{"index.html", "en", "en/"}, {"en/index.html", "en", ""}, {"zh/index.html", "zh", ""}, {"ja/index.html", "ja", ""},
	} {
		body := string(files[page.file])
		var got []string
		for _, l := range tagsOf(body, "label") {
			got = append(got, strings.TrimSpace(textOf(l.inner[:strings.Index(l.inner, "<select")])))
		}
		if strings.Join(got, "|") != strings.Join(labels[page.lang], "|") {
			t.Errorf("%s: filter labels %q, want %q", page.file, got, labels[page.lang])
		}
		options := map[string][]string{}
		for _, sel := range tagsOf(body, "select") {
			for _, o := range tagsOf(sel.inner, "option") {
				options[sel.attrs["data-filter"]] = append(options[sel.attrs["data-filter"]], textOf(o.inner))
			}
		}
		if o := options["engines"]; strings.Join(o[1:], "|") != "SGLang|TensorRT-LLM|vLLM" {
			t.Errorf("%s: engine filter %q, want every engine by name", page.file, o)
		}
		if o := options["model"]; strings.Join(o[1:], "|") != "Qwen/Qwen3-235B-A22B-Instruct-2507|Qwen/Qwen3-32B|Qwen/Qwen3-8B" {
			t.Errorf("%s: model filter %q", page.file, o)
		}
		studies := body[strings.Index(body, `id="studies"`):strings.Index(body, `id="matched"`)]
		rows := tagsOf(studies, "tr")[1:]
		if len(rows) != 3 { // the two seeds and the example
			t.Fatalf("%s: %d rows, want one per study", page.file, len(rows))
		}
		// Measurements first, by study id, then the example: qwen3-235b-a22b-a100, qwen3-32b-a100, example-qwen3-8b-l40s.
		if ex := tagsOf(rows[2].inner, "span"); len(ex) != 1 || ex[0].attrs["class"] != "example" || strings.TrimSpace(textOf(ex[0].inner)) == "" {
			t.Errorf("%s: the example study's row is not last, marked as simulated: %v", page.file, ex)
		}
		if strings.Contains(rows[0].inner, `class="example"`) || strings.Contains(rows[1].inner, `class="example"`) {
			t.Errorf("%s: a study of measurements is marked as an example", page.file)
		}
		r := rows[0]
		if r.attrs["data-model"] != "Qwen/Qwen3-235B-A22B-Instruct-2507" || r.attrs["data-gpu"] != "NVIDIA A100 SXM 80GB" || r.attrs["data-engines"] != "vLLM|SGLang" {
			t.Errorf("%s: first row's attributes %v", page.file, r.attrs)
		}
		cells := tagsOf(r.inner, "td")
		engines := map[string]string{"en": "vLLM v0.11.0, SGLang v0.5.5.post1", "zh": "vLLM v0.11.0、SGLang v0.5.5.post1", "ja": "vLLM v0.11.0、SGLang v0.5.5.post1"}[page.lang]
		gpus := map[string]string{"en": "8 × NVIDIA A100 SXM 80GB", "zh": "8\u00a0×\u00a0NVIDIA A100 SXM 80GB", "ja": "8\u00a0×\u00a0NVIDIA A100 SXM 80GB"}[page.lang]
		if len(cells) != 7 || textOf(cells[1].inner) != gpus || textOf(cells[2].inner) != engines {
			t.Fatalf("%s: first row's cells %q", page.file, cells)
		}
		if a := tagsOf(cells[0].inner, "a")[0]; a.attrs["href"] != page.dir+"qwen3-235b-a22b-a100/index.html" {
			t.Errorf("%s: the model links to %q", page.file, a.attrs["href"])
		}
		if textOf(cells[4].inner) != "sharegpt" {
			t.Errorf("%s: main workload %q, want sharegpt", page.file, textOf(cells[4].inner))
		}
		gain := tagsOf(cells[5].inner, "a")
		if len(gain) != 1 || gain[0].attrs["href"] != page.dir+"qwen3-235b-a22b-a100/index.html#conclusion" ||
			gain[0].attrs["title"] != "(3019.19 x 2 / 3792.50 - 1) x 100" || textOf(gain[0].inner) != figureIn(page.lang, "+59.2 %") {
			t.Errorf("%s: the gain %+v", page.file, gain)
		}
		if !strings.HasPrefix(textOf(cells[5].inner), "TP4") {
			t.Errorf("%s: recommended configuration %q, want TP4 first", page.file, textOf(cells[5].inner))
		}
		// The latency the gain costs, on the rows that trade it, beside the gain.
		cost := map[string]string{"en": "cost: mean TTFT +20.5 to +77.2 %, mean TPOT +22.2 to +79.5 %",
			"zh": "代价：平均 TTFT +20.5～+77.2 %、平均 TPOT +22.2～+79.5 %", "ja": "代償：平均 TTFT +20.5〜+77.2 %、平均 TPOT +22.2〜+79.5 %"}[page.lang]
		if !strings.Contains(textOf(cells[5].inner), figureIn(page.lang, cost)) {
			t.Errorf("%s: recommended configuration %q lacks its cost %q", page.file, textOf(cells[5].inner), figureIn(page.lang, cost))
		}
		// The baseline the gain is against is named.
		against := map[string]string{"en": "against vLLM", "zh": "对比 vLLM", "ja": "vLLM との比較"}[page.lang]
		if !strings.HasSuffix(textOf(cells[5].inner), against) {
			t.Errorf("%s: recommended configuration %q does not end with %q", page.file, textOf(cells[5].inner), against)
		}
		// The two A100 studies on ShareGPT are compared per GPU; the L40S
		// example is in no group.
		matched := body[strings.Index(body, `id="matched"`):]
		if h := tagsOf(matched, "h3"); len(h) != 1 || !strings.HasPrefix(textOf(h[0].inner), "NVIDIA A100 SXM 80GB · sharegpt · ") {
			t.Errorf("%s: matched groups %v, want the A100's on sharegpt", page.file, h)
		}
		var figures []string
		for _, a := range tagsOf(matched, "a") {
			figures = append(figures, a.attrs["href"]+" "+textOf(a.inner))
		}
		if want := page.dir + "qwen3-235b-a22b-a100/index.html#conclusion 754.80|" + page.dir + "qwen3-32b-a100/index.html#conclusion 2054.21"; !strings.HasPrefix(strings.Join(figures, "|"), want) {
			t.Errorf("%s: matched figures %q, want %q (3019.19 / 4 GPUs and 2054.21 / 1)", page.file, figures, want)
		}
	}
}

// TestAllRunsLinksToLogLines: on every report page, each figure of the
// all-runs table links to a log line of the same page that prints it, and
// carries the number its script compares.
func TestAllRunsLinksToLogLines(t *testing.T) {
	t.Parallel()
	_, files := buildRepo(t, repoDirs)
	for _, name := range []string{"en/qwen3-32b-a100/index.html", "zh/qwen3-235b-a22b-a100/index.html", "ja/qwen3-32b-a100/index.html"} {
		page := string(files[name])
		tables := tagsOf(page, "table")
		var table *tagOf
		for i := range tables {
			if _, ok := tables[i].attrs["data-compare"]; ok {
				table = &tables[i]
			}
		}
		if table == nil {
			t.Fatalf("%s: no all-runs table", name)
		}
		values := 0
		for _, td := range tagsOf(table.inner, "td") {
			v, ok := td.attrs["data-v"]
			if !ok {
				continue
			}
			values++
			measured, err := strconv.ParseFloat(v, 64)
			if err != nil {
				t.Fatalf("%s: data-v %q: %v", name, v, err)
			}
			a := tagsOf(td.inner, "a")
			if len(a) != 1 {
				t.Fatalf("%s: a figure without its link: %s", name, td.inner)
			}
			m := overviewLogID.FindStringSubmatch(a[0].attrs["href"])
			if m == nil {
				t.Errorf("%s: %s links to %q, not to a log line", name, textOf(a[0].inner), a[0].attrs["href"])
				continue
			}
			i := strings.Index(page, `id="`+m[1]+`"`)
			if i < 0 {
				t.Errorf("%s: %s links to %s, which is not on the page", name, textOf(a[0].inner), m[1])
				continue
			}
			line := textOf(page[i+len(`id="`+m[1]+`">`) : i+strings.Index(page[i:], "</span>")])
			shown := textOf(a[0].inner)
			number, _, _ := strings.Cut(shown, " x ") // a projection shows the measurement times its replicas
			if !strings.Contains(line, number) {
				t.Errorf("%s: %s links to a log line that does not print it: %q", name, shown, line)
			}
			if got, _ := strconv.ParseFloat(number, 64); got != measured {
				t.Errorf("%s: shown %s, data-v %s", name, shown, v)
			}
		}
		if values < 10 {
			t.Errorf("%s: only %d figures in the all-runs table", name, values)
		}
	}
}
