package importer

import (
	"os"
	"strings"
	"testing"
)

// TestWriteRefusesBadStudyID: an id the loader would refuse (a name the
// site layout uses, one too long for its files) is refused before
// anything is written.
func TestWriteRefusesBadStudyID(t *testing.T) {
	for _, id := range []string{"all", "index.html", strings.Repeat("r", 200), "..", ""} {
		dir := t.TempDir()
		err := Write(dir, &Study{ID: id})
		if err == nil || !strings.Contains(err.Error(), "cannot import into") {
			t.Errorf("%q: error %v, want a refusal", id, err)
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 0 {
			t.Errorf("%q: %d entries written", id, len(entries))
		}
	}
}
