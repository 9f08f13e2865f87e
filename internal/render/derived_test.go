package render

import (
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/study"
)

// TestDerivedNote: a rebuilt command says what it was rebuilt from, and
// names a published report only where there is one: a study started with
// perflab add has none.
func TestDerivedNote(t *testing.T) {
	r, err := chartRenderer()
	if err != nil {
		t.Fatal(err)
	}
	derived := &study.Run{ID: "r", CommandDerived: true}
	tests := []struct {
		name string
		s    *study.Study
		run  *study.Run
		want string // in every language: the message id's text; "" for none
	}{
		{"a command as run", &study.Study{}, &study.Run{ID: "r"}, ""},
		{"started from one log", &study.Study{}, derived, "run.command_derived_unpublished"},
		{"imported: the run's source", &study.Study{}, &study.Run{ID: "r", CommandDerived: true, Source: "report.md:12"}, "run.command_derived"},
		{"imported: the study's source", &study.Study{Source: &study.Source{Title: "T"}}, derived, "run.command_derived"},
		{"published figures kept", &study.Study{Claims: []study.Claim{{Kind: study.ClaimConclusion}}}, derived, "run.command_derived"},
		{"only parameters printed", &study.Study{Source: &study.Source{Title: "T"}}, &study.Run{ID: "r", CommandDerived: true, Parameters: "--max-num-seqs=256"}, "run.command_derived_parameters"},
	}
	for _, lang := range study.Languages {
		loc := r.localizer(lang)
		for _, tt := range tests {
			p := &reportPage{loc: loc, s: tt.s}
			got := p.derivedNote(tt.run).MD
			want := ""
			if tt.want != "" {
				want = loc.T(tt.want)
			}
			if got != want || tt.want != "" && got == "" {
				t.Errorf("%s, %s: %q, want %s (%q)", lang, tt.name, got, tt.want, want)
			}
		}
	}
	en := r.localizer("en").T("run.command_derived_unpublished")
	if strings.Contains(strings.ToLower(en), "published") {
		t.Errorf("the note of a study nobody published names a published report: %q", en)
	}
}
