package render

import (
	"testing"

	"github.com/perflab/perflab/internal/study"
)

func TestLanguagesFollowStudyLanguages(t *testing.T) {
	if len(Languages) != len(study.Languages) {
		t.Fatalf("%d render languages, %d study languages", len(Languages), len(study.Languages))
	}
	for i, l := range Languages {
		if l.Code != study.Languages[i] || l.Name == "" {
			t.Errorf("language %d is %+v, want code %q with a name", i, l, study.Languages[i])
		}
	}
}

func TestLanguagesOfUnknownCodePanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("languagesOf accepted a code without a name")
		}
	}()
	languagesOf([]string{"en", "xx"})
}
