package importer

import (
	"os"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/study"
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

// A report's file name longer than a study id may be still imports: its
// id is cut at a word and told apart from another cut the same way.
func TestStudyIDFits(t *testing.T) {
	long := "gpustack-deepseek-v3.2-exp-optimization-on-ascend-910b-npu-with-mindie__a.md"
	other := strings.Replace(long, "__a", "__b", 1)
	a, b := StudyID(long), StudyID(other)
	for _, id := range []string{a, b} {
		if len(id) > study.MaxIDLength || study.ValidID("study", id) != nil {
			t.Errorf("%q (%d bytes) is not a valid study id: %v", id, len(id), study.ValidID("study", id))
		}
		if !strings.HasPrefix(id, "gpustack-deepseek-v3.2-exp-optimization-on-ascend-") {
			t.Errorf("%q does not keep the name's words", id)
		}
	}
	if a == b {
		t.Errorf("two reports share the id %q", a)
	}
	if got := StudyID("qwen3-32b__a100.md"); got != "qwen3-32b-a100" {
		t.Errorf("a short name: %q", got)
	}
}
