package locale

import (
	"regexp"
	"strings"
	"testing"
)

// TestFiguresKeptWhole: a change's mark and its figure stay together in
// every language; English binds the % with a no-break space, Chinese and
// Japanese write it right after the figure, as they do ("-12.1%").
func TestFiguresKeptWhole(t *testing.T) {
	c := repositoryCatalogue(t)
	for lang, want := range map[string]string{"zh": "▼\u00a0-12.1%", "ja": "▼\u00a0-12.1%"} {
		got := c.Localizer(lang).T("tpot.regression", "Percent", "-12.1 %")
		if !strings.Contains(got, want) {
			t.Errorf("%s: %q lacks %q", lang, got, want)
		}
	}
	for lang, want := range map[string]string{"en": "▼\u00a0-12.1\u00a0%", "zh": "▼\u00a0-12.1%", "ja": "▼\u00a0-12.1%"} {
		if got := c.Localizer(lang).Figure("▼ -12.1 %"); got != want {
			t.Errorf("%s: Figure gives %q, want %q", lang, got, want)
		}
	}
	if got := keepFiguresWhole("8 × NVIDIA A100 上 +3.0 %, A ≈ B"); got != "8\u00a0×\u00a0NVIDIA A100 上 +3.0\u00a0%, A ≈ B" {
		t.Errorf("keepFiguresWhole: %q", got)
	}
	// Only a space after a digit goes: "100 % of" in prose before a word stays.
	if got := percentAfterDigits("+3.0\u00a0% and 5 % but x %"); got != "+3.0% and 5% but x %" {
		t.Errorf("percentAfterDigits: %q", got)
	}
}

// figureSpaces is what keepFiguresWhole does, as a Replacer, and
// markSpace its binding of a change's mark to the figure after it.
var (
	figureSpaces = strings.NewReplacer(" %", "\u00a0%", " × ", "\u00a0×\u00a0", " ×", "\u00a0×", "× ", "×\u00a0")
	markSpace    = regexp.MustCompile(`([▲▼≈]) ([0-9+\-]|−)`)
)

// keepFiguresWhole is figureSpaces and markSpace, written by hand.
func FuzzKeepFiguresWhole(f *testing.F) {
	for _, s := range []string{"8 × A100", "-12.1 %", "× ×  × %", " ×× % ×", "a×b", "x ×", "× ", "  %%", "▲ +3 %", "A ≈ B", "≈ −1", "▼ ▼ 1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := keepFiguresWhole(s), figureSpaces.Replace(markSpace.ReplaceAllString(s, "$1\u00a0$2")); got != want {
			t.Errorf("keepFiguresWhole(%q) = %q, want %q", s, got, want)
		}
	})
}
