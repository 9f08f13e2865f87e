package pipeline

import (
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/check"
)

// The rendered Chinese and Japanese reports keep the typography rule that
// make check applies to locales and content: sentences joined by templates
// and code must not bring back ASCII punctuation, a space after 。 or
// between two Chinese or Japanese characters, bold that does not render,
// italic Chinese or Japanese, or (in Japanese) the plain style among
// です/ます.
func TestRenderedCJKTypography(t *testing.T) {
	t.Parallel()
	_, files := buildRepo(t, repoDirs)
	pages := 0
	for _, name := range files.Names() {
		if !strings.HasSuffix(name, ".md") || !(strings.HasPrefix(name, "zh/") || strings.HasPrefix(name, "ja/")) {
			continue
		}
		pages++
		ds := check.Typography(name, string(files[name]))
		if strings.HasPrefix(name, "ja/") {
			ds = append(ds, check.Register(name, string(files[name]))...)
		}
		for _, d := range ds {
			t.Errorf("%s:%d: %s", d.File, d.Line, d.Message)
		}
	}
	if pages == 0 {
		t.Fatal("no Chinese or Japanese report was built")
	}
}
