package render

import (
	"strings"
	"testing"
)

// The missing-page notice speaks every language, from the locale files, and
// its link is text however the base URL is spelled.
func TestNotFoundInEveryLanguage(t *testing.T) {
	r, err := chartRenderer()
	if err != nil {
		t.Fatal(err)
	}
	page, err := r.NotFound(`https://x.test/a"b<c>/index.html`)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range Languages {
		loc := r.localizer(l.Code)
		want := `<p lang="` + l.Code + `">` + loc.T("notfound.text") + ` <a href="https://x.test/a%22b%3cc%3e/index.html">` + loc.T("notfound.link") + `</a></p>`
		if !strings.Contains(string(page), want) {
			t.Errorf("no %s line %q in:\n%s", l.Code, want, page)
		}
	}
	if strings.Contains(string(page), `a"b<c>`) {
		t.Errorf("the base URL reached the page as markup:\n%s", page)
	}
}
