package render

import (
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/study"
)

func TestLanguagesFollowStudyLanguages(t *testing.T) {
	if len(Languages) != len(study.Languages) {
		t.Fatalf("%d render languages, %d study languages", len(Languages), len(study.Languages))
	}
	for i, l := range Languages {
		if l.Code != study.Languages[i] || l.Name == "" || l.English == "" {
			t.Errorf("language %d is %+v, want code %q with its names", i, l, study.Languages[i])
		}
	}
}

// TestLanguageLinksMarked: a report's links to its other languages carry
// the language of their text, so that each name is set in its own font.
func TestLanguageLinksMarked(t *testing.T) {
	r, err := chartRenderer()
	if err != nil {
		t.Fatal(err)
	}
	got := languageLinks(r.localizer("en"), r.langLinks("s", "en"))
	for _, want := range []string{`<a href="../../en/s/index.html" lang="en">English</a>`, `<a href="../../ja/s/index.html" lang="ja">日本語</a>`} {
		if !strings.Contains(string(got.HTML), want) {
			t.Errorf("%s lacks %s", got.HTML, want)
		}
	}
	if want := "[日本語](../ja/s.md)"; !strings.Contains(got.MD, want) {
		t.Errorf("%s lacks %s", got.MD, want)
	}
}
