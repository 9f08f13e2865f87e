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
		if l.Code != study.Languages[i] || l.Name == "" || l.English == "" {
			t.Errorf("language %d is %+v, want code %q with its names", i, l, study.Languages[i])
		}
	}
}
