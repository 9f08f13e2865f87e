package render

import (
	"strings"
	"testing"
)

// TestFiguresKeptWhole: in Chinese and Japanese, where a line may break at
// any space, a figure's % and × are bound to it by a no-break space; the
// figure's characters and English text are unchanged.
func TestFiguresKeptWhole(t *testing.T) {
	r, err := chartRenderer()
	if err != nil {
		t.Fatal(err)
	}
	for lang, want := range map[string]string{"en": "▼ -12.1 %", "zh": "▼ -12.1\u00a0%", "ja": "▼ -12.1\u00a0%"} {
		got := r.localizer(lang).T("tpot.regression", "Percent", "-12.1 %")
		if !strings.Contains(got, want) {
			t.Errorf("%s: %q lacks %q", lang, got, want)
		}
	}
	if got := keepFiguresWhole("8 × NVIDIA A100 上 +3.0 %"); got != "8\u00a0×\u00a0NVIDIA A100 上 +3.0\u00a0%" {
		t.Errorf("keepFiguresWhole: %q", got)
	}
}

// figureSpaces is what keepFiguresWhole does, as a Replacer.
var figureSpaces = strings.NewReplacer(" %", "\u00a0%", " × ", "\u00a0×\u00a0", " ×", "\u00a0×", "× ", "×\u00a0")

// keepFiguresWhole is figureSpaces, written by hand.
func FuzzKeepFiguresWhole(f *testing.F) {
	for _, s := range []string{"8 × A100", "-12.1 %", "× ×  × %", " ×× % ×", "a×b", "x ×", "× ", "  %%"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := keepFiguresWhole(s), figureSpaces.Replace(s); got != want {
			t.Errorf("keepFiguresWhole(%q) = %q, want %q", s, got, want)
		}
	})
}
