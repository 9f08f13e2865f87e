package render

import (
	"regexp"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/markup"
)

// Prose from a pull request goes through the same goldmark as the
// templates; only a plain heading id may come out as an attribute.
func TestProseCannotAddAttributes(t *testing.T) {
	r, err := chartRenderer()
	if err != nil {
		t.Fatal(err)
	}
	md := strings.Join([]string{
		"## Title {onmouseover=alert(1) style=color:red}",
		"## Styled {#ok .wide onclick=\"steal()\"}",
		"## Quoted {#\"><script>x</script> data-x=1}",
		"## Anchor {#step-1}",
		"<img src=x onerror=alert(1)>",
		"[click](javascript:alert(1))",
		"",
	}, "\n\n")
	out, err := r.markdownToHTML([]byte(md))
	if err != nil {
		t.Fatal(err)
	}
	html := string(out)
	for _, tag := range tagPattern.FindAllString(html, -1) {
		for _, a := range attributePattern.FindAllStringSubmatch(tag, -1) {
			if a[1] != "id" && a[1] != "href" {
				t.Errorf("attribute %s reached the HTML in %s", a[1], tag)
			}
		}
	}
	for _, bad := range []string{"<script", "<img", `href="javascript:`} {
		if strings.Contains(html, bad) {
			t.Errorf("%q reached the HTML:\n%s", bad, html)
		}
	}
	for _, good := range []string{`<h2 id="ok">Styled</h2>`, `<h2 id="step-1">Anchor</h2>`} {
		if !strings.Contains(html, good) {
			t.Errorf("missing %s in:\n%s", good, html)
		}
	}
}

var (
	tagPattern       = regexp.MustCompile(`<[a-z][^>]*>`)
	attributePattern = regexp.MustCompile(`\s([^\s=>]+)=`)
)

func TestCodeSpanKeepsBackticks(t *testing.T) {
	for in, want := range map[string]string{
		"report.md:30":   "`report.md:30`",
		"a`b":            "``a`b``",
		"`x``":           "``` `x`` ```",
		"two\nlines":     "`two lines`",
		"a\\_b*c*[d](e)": "`a\\_b*c*[d](e)`",
	} {
		if got := markup.CodeSpan(in); got != want {
			t.Errorf("code(%q) = %q, want %q", in, got, want)
		}
	}
}
