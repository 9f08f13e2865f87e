package render

import (
	htmltemplate "html/template"
	"strconv"
	"strings"
	"testing"
	"text/template"
)

// TestRichMessage: a message's Markdown is T's; its HTML is the message's
// own emphasis rendered, each field's HTML in its place, text escaped in
// each format, spaces at its ends kept, plural forms counted.
func TestRichMessage(t *testing.T) {
	r, err := chartRenderer()
	if err != nil {
		t.Fatal(err)
	}
	loc := r.localizer("en")
	link := richLink(richFigure("12.5"), "#L1-3", `a "b" <c>`)
	got := loc.R("value.repeats", "Value", link, "HalfWidth", richFigure("0.5"), "N", 3)
	if want := `[12.5](#L1-3 "a \"b\" <c>") ± 0.5 (3 repeats)`; got.MD != want {
		t.Errorf("Markdown %q, want %q", got.MD, want)
	}
	if want := `<a href="#L1-3" title="a &#34;b&#34; &lt;c&gt;">12.5</a> ± 0.5 (3 repeats)`; string(got.HTML) != want {
		t.Errorf("HTML %q, want %q", got.HTML, want)
	}
	aside := loc.R("aside", "Text", "x*y <z>")
	if aside.MD != ` *(x\*y \<z\>)*` || string(aside.HTML) != ` <em>(x*y &lt;z&gt;)</em>` {
		t.Errorf("aside: %q / %q", aside.MD, aside.HTML)
	}
	code := loc.R("label", "Label", richCode("a`b"))
	if !strings.HasPrefix(string(code.HTML), "<strong><code>a`b</code></strong>") || !strings.HasSuffix(string(code.HTML), " ") {
		t.Errorf("label: %q", code.HTML)
	}
}

// TestOnlySections: text outside every section would be on no page; the
// template is refused at its line, as is one that lacks a section.
func TestOnlySections(t *testing.T) {
	var sections strings.Builder
	for _, name := range reportSections {
		sections.WriteString(`{{define "` + name + `"}}x{{end}}` + "\n")
	}
	for src, want := range map[string]string{
		sections.String():                  "",
		sections.String() + "\nstray\n":    "templates/report.md.tmpl:" + strconv.Itoa(len(reportSections)+2) + ": this is outside every section",
		`{{define "report-start"}}{{end}}`: `no section "` + reportSections[1] + `"`,
	} {
		tmpl := template.Must(template.New("report.md.tmpl").Parse(src))
		err := onlySections(tmpl)
		if (err == nil) != (want == "") || err != nil && !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want %q", src, err, want)
		}
	}
}

// TestRichMessageLink: a field in a link's destination, which goldmark
// percent-encodes, is put in its place as well.
func TestRichMessageLink(t *testing.T) {
	r, err := chartRenderer()
	if err != nil {
		t.Fatal(err)
	}
	u := "https://example.com/r/blob/HEAD/results/a%20b.log#L3-L9"
	got := r.localizer("en").R("run.view_source", "URL", rich{u, htmltemplate.HTML(htmlText.Replace(u))})
	if want := `<a href="` + u + `">`; !strings.Contains(string(got.HTML), want) || !strings.Contains(got.MD, "]("+u+")") {
		t.Errorf("got %q / %q, want the address in both", got.MD, got.HTML)
	}
}

// TestFieldMarks: the marks made once are those made for a field past
// them, and each is unique to its field.
func TestFieldMarks(t *testing.T) {
	seen := map[string]bool{}
	for i := range len(fieldMarks) + 3 {
		text, _ := fieldMark(i).(string)
		if want := markOpen + strconv.Itoa(i) + markClose; text != want || seen[text] {
			t.Errorf("field %d: mark %q, want %q", i, text, want)
		}
		seen[text] = true
	}
}

// TestRichFieldHoldingMark: each format is filled in one pass, so a name
// that holds another field's mark is shown as written, never replaced by
// that field.
func TestRichFieldHoldingMark(t *testing.T) {
	r, err := chartRenderer()
	if err != nil {
		t.Fatal(err)
	}
	name := "run " + fieldMark(1).(string)
	got := r.localizer("en").R("conclusion.baseline", "Name", name, "Command", richCode("vllm serve x"))
	for _, s := range []string{got.MD, string(got.HTML)} {
		if !strings.Contains(s, name) || strings.Count(s, "vllm serve x") != 1 {
			t.Errorf("the name's mark was filled: %q", s)
		}
	}
}
