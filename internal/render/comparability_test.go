package render

import (
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/report"
)

// TestLikenessText: a comparison of unlike runs prints why in place of a
// percentage, a caveated one lists its caveats, each value escaped, and a
// like-for-like one prints nothing more, in every language.
func TestLikenessText(t *testing.T) {
	r, err := chartRenderer()
	if err != nil {
		t.Fatal(err)
	}
	unlikeCh := &report.Change{Likeness: &report.Likeness{Verdict: report.NotComparable,
		Reasons: []report.Reason{{Code: report.ReasonConcurrency, From: "64", To: "32"}}}}
	caveated := &report.Change{Likeness: &report.Likeness{Verdict: report.Caveated,
		Reasons: []report.Reason{{Code: report.ReasonToolVersion, From: "v0.11", To: "<b>v0.13+</b>"}}}}
	same := &report.Change{Likeness: &report.Likeness{Verdict: report.LikeForLike}}
	en := r.localizer("en")
	if got, want := unlike(en, unlikeCh).MD, "not comparable (concurrency 64 against 32)"; got != want {
		t.Errorf("not comparable: %q, want %q", got, want)
	}
	if got := caveats(en, caveated).MD; !strings.Contains(got, "v0.11") || strings.Contains(got, "<b>") {
		t.Errorf("caveated: %q, want the versions, escaped", got)
	}
	for _, lang := range []string{"en", "zh", "ja"} {
		loc := r.localizer(lang)
		if unlike(loc, caveated).MD != "" || unlike(loc, same).MD != "" || caveats(loc, same).MD != "" || caveats(loc, unlikeCh).MD != "" {
			t.Errorf("%s: a comparable change got a comparability text", lang)
		}
		for _, code := range []string{report.ReasonGPUModel, report.ReasonDataset, report.ReasonInputLen, report.ReasonOutputLen,
			report.ReasonConcurrency, report.ReasonRate, report.ReasonGPUCount, report.ReasonLoadUnknown, report.ReasonTool,
			report.ReasonToolVersion, report.ReasonDefinition, report.ReasonCommand, report.ReasonDate} {
			ch := &report.Change{Likeness: &report.Likeness{Verdict: report.NotComparable, Reasons: []report.Reason{{Code: code, From: "A1", To: "B2"}}}}
			if got := unlike(loc, ch).MD; strings.Contains(got, "comparability.") || got == "" {
				t.Errorf("%s: reason %s has no message: %q", lang, code, got)
			}
		}
	}
}
