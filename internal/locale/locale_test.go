package locale

import (
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/nicksnyder/go-i18n/v2/i18n"

	"github.com/perflab/perflab/internal/cjk"
	"github.com/perflab/perflab/internal/study"
)

// repositoryCatalogue is the repository's locales/.
func repositoryCatalogue(t testing.TB) *Catalogue {
	t.Helper()
	c, err := Load(os.DirFS("../../locales"), study.LanguageTable)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestMessagesAsGoI18n: T prints what go-i18n prints for every message,
// tidied, with strings (markup characters included) and ints, the first
// time and from its cache of messages without fields.
func TestMessagesAsGoI18n(t *testing.T) {
	c := repositoryCatalogue(t)
	for _, l := range study.LanguageTable {
		loc := i18n.NewLocalizer(c.bundle, l.Code)
		tr := c.Localizer(l.Code)
		for id, fields := range c.fields[l.Code] {
			for _, value := range []any{"a <b> & \"c\" {{.X}}", 42, "", "模型"} {
				var kv []any
				data := map[string]any{}
				for _, f := range fields {
					kv = append(kv, f, value)
					data[f] = value
				}
				var count any
				if c.counted[l.Code][id] {
					if _, ok := value.(int); !ok {
						continue // the code counts with numbers
					}
					count = value
				}
				want, err := loc.Localize(&i18n.LocalizeConfig{MessageID: id, TemplateData: data, PluralCount: count})
				if err != nil {
					t.Fatalf("%s %s: %v", l.Code, id, err)
				}
				want = tr.Tidy(want)
				for range 2 {
					if got := tr.T(id, kv...); got != want {
						t.Errorf("%s %s with %v: T = %q, want %q", l.Code, id, value, got, want)
					}
				}
			}
		}
		if tr.Lacked() != nil {
			t.Errorf("%s: %v", l.Code, tr.Lacked())
		}
	}
}

// English counts take their plural form from N; Chinese and Japanese have one.
func TestPluralForms(t *testing.T) {
	c := repositoryCatalogue(t)
	for _, tc := range []struct {
		lang, id string
		n        int
		want     string
	}{
		{"en", "dataset.prompts", 1, "1 prompt"},
		{"en", "dataset.prompts", 1000, "1000 prompts"},
		{"en", "dataset.concurrency", 1, "at most 1 concurrent request"},
		{"zh", "dataset.prompts", 1, "1"},
	} {
		loc := c.Localizer(tc.lang)
		if got := loc.T(tc.id, "N", tc.n); !strings.Contains(got, tc.want) || loc.Lacked() != nil {
			t.Errorf("%s %s N=%d: %q (%v), want %q", tc.lang, tc.id, tc.n, got, loc.Lacked(), tc.want)
		}
	}
	hw := c.Localizer("en").T("setup.hardware_value", "N", 1, "PerNode", 8, "GPU", "H100")
	if hw != "1 node × 8 × H100" {
		t.Errorf("hardware: %q", hw)
	}
}

// TestMissingMessageFallsBack: a message one language lacks shows in
// English, one no language has shows as its id; neither fails, and
// MissingMessages lists it where it belongs.
func TestMissingMessageFallsBack(t *testing.T) {
	c := repositoryCatalogue(t)
	delete(c.messages["zh"], "severity.warning")
	loc := c.Localizer("zh")
	if got := loc.T("severity.warning"); got != "Warning" || loc.Lacked() == nil {
		t.Errorf("zh without severity.warning gives %q (%v), want English", got, loc.Lacked())
	}
	if got := loc.T("no.such.message"); got != "no.such.message" {
		t.Errorf("a message no language has gives %q", got)
	}
	m := c.MissingMessages([]string{"severity.warning"})["zh"]
	if len(m) != 1 || m[0].ID != "severity.warning" || !m[0].Required || m[0].Line <= 1 {
		t.Errorf("MissingMessages()[zh] = %+v", m)
	}
}

// A field's value decides whether the spaces a message keeps around it
// stay: Latin text keeps them, a Chinese or Japanese name does not.
func TestJoinCJK(t *testing.T) {
	for in, want := range map[string]string{
		"在 短提示 上":      "在短提示上",
		"在 ShareGPT 上": "在 ShareGPT 上",
		"长いプロンプト での":   "长いプロンプトでの",
		"（同時 128） を通る": "（同時 128）を通る",
		"（推算值） tok/s":  "（推算值） tok/s",
		"8 块 GPU":      "8 块 GPU",
		"对话、 长提示 ":     "对话、长提示 ",
		"a  b":         "a  b",
	} {
		if got := joinCJK(in); got != want {
			t.Errorf("joinCJK(%q) = %q, want %q", in, got, want)
		}
	}
	c := repositoryCatalogue(t)
	if got := c.Localizer("zh").T("rule.trade-off", "Subject", "短提示"); strings.Contains(got, " 短提示") || strings.Contains(got, "短提示 ") {
		t.Errorf("zh rule.trade-off with a Chinese subject: %q keeps the spaces", got)
	}
	if got := c.Localizer("en").T("run.vs", "Change", "+1 %", "Run", "短提示"); got != "+1 % vs 短提示" {
		t.Errorf("English keeps its spaces: %q", got)
	}
}

// FuzzJoinCJK compares joinCJK with its definition, rune by rune: a run of
// spaces goes when the runes on both sides are Chinese or Japanese.
func FuzzJoinCJK(f *testing.F) {
	for _, s := range []string{"在 短提示 上", "在 ShareGPT 上", "对话、 长提示 ", " 前 ", "a  b", "（推算值） tok/s", "\xff 中"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var b strings.Builder
		runes := []rune(s)
		for i := 0; i < len(runes); i++ {
			if runes[i] != ' ' {
				b.WriteRune(runes[i])
				continue
			}
			j := i
			for j < len(runes) && runes[j] == ' ' {
				j++
			}
			if i == 0 || j == len(runes) || !cjk.IsAny(runes[i-1]) || !cjk.IsAny(runes[j]) {
				b.WriteString(string(runes[i:j]))
			}
			i = j - 1
		}
		if !utf8.ValidString(s) {
			return // the definition above rewrites invalid bytes
		}
		if got, want := joinCJK(s), b.String(); got != want {
			t.Errorf("joinCJK(%q) = %q, want %q", s, got, want)
		}
	})
}

// TestFill: texts go into their marks' places in one pass, so a text that
// holds a mark is not read again, and a mark character that is no mark of
// ours stays as it is without stopping the marks after it.
func TestFill(t *testing.T) {
	mark := func(i string) string { return string(textMarkOpen) + i + string(textMarkClose) }
	for _, c := range []struct {
		s     string
		texts []string
		want  string
	}{
		{"a " + mark("0") + " b " + mark("1"), []string{"x", "y"}, "a x b y"},
		{mark("0") + mark("1"), []string{mark("1"), "y"}, mark("1") + "y"},
		{string(textMarkOpen) + "z " + mark("0"), []string{"x"}, string(textMarkOpen) + "z x"},
		{mark("7") + " " + mark("0"), []string{"x"}, mark("7") + " x"},
	} {
		if got := fill(c.s, c.texts); got != c.want {
			t.Errorf("fill(%q, %q) = %q, want %q", c.s, c.texts, got, c.want)
		}
	}
}
