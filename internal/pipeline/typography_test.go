package pipeline

import (
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/check"
	"github.com/perflab/perflab/internal/study"
)

// The rendered Chinese and Japanese reports keep the typography rule that
// make check applies to locales and content: sentences joined by templates
// and code must not bring back ASCII punctuation, a space after 。 or
// between two Chinese or Japanese characters, bold that does not render,
// italic Chinese or Japanese, or the plain style among the polite one in
// a language that has both (Japanese です/ます): the rule as it applies to
// each language.
func TestRenderedCJKTypography(t *testing.T) {
	t.Parallel()
	_, files := buildRepo(t, repoDirs)
	pages := 0
	for _, name := range files.Names() {
		lang, _, _ := strings.Cut(name, "/")
		if l, ok := study.LanguageOf(lang); !ok || !strings.HasSuffix(name, ".md") {
			continue
		} else if l.Unspaced {
			pages++
		}
		for _, d := range (&check.Glossary{}).Text(name, lang, string(files[name]), nil) {
			t.Errorf("%s:%d: %s", d.File, d.Line, d.Message)
		}
	}
	if pages == 0 {
		t.Fatal("no Chinese or Japanese report was built")
	}
}
