package pipeline

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/check"
	"github.com/perflab/perflab/internal/site"
)

// appendProse adds a line to a study's prose in one language and returns
// its line number.
func appendProse(t *testing.T, d Dirs, lang, line string) int {
	t.Helper()
	file := filepath.Join(d.Content, lang, "qwen3-32b-a100.md")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, append(data, "\n"+line+"\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	return bytes.Count(data, []byte("\n")) + 2
}

// A prose link whose text is one address and whose target another fails
// the check on its file and line; the same link with its own address as
// its text passes, and the site builds.
func TestLinkSpoofInProse(t *testing.T) {
	t.Parallel()
	d := copyTree(t)
	line := appendProse(t, d, "ja", "詳しくは [https://example.com/docs](https://evil.example/docs) を参照してください。")
	p, err := Check(d, nil)
	if err != nil {
		t.Fatal(err)
	}
	var spoofs []check.Diagnostic
	for _, dg := range p.Diagnostics() {
		if dg.Rule == check.RuleLinkSpoof {
			spoofs = append(spoofs, dg)
		}
	}
	if len(spoofs) != 1 || !strings.HasSuffix(spoofs[0].File, "content/ja/qwen3-32b-a100.md") || spoofs[0].Line != line ||
		spoofs[0].Severity != check.Error || !p.Failed() {
		t.Fatalf("link-spoof diagnostics %v, want one error at content/ja/qwen3-32b-a100.md:%d", spoofs, line)
	}

	d = copyTree(t)
	appendProse(t, d, "en", "See [https://example.com/docs](https://example.com/docs).")
	appendProse(t, d, "zh", "详见 [https://example.com/docs](https://example.com/docs)。")
	appendProse(t, d, "ja", "詳しくは [https://example.com/docs](https://example.com/docs) を参照してください。")
	if p, err = Check(d, nil); err != nil || p.Failed() {
		t.Fatalf("check of a link that shows its own address: %v, %v", err, p.Diagnostics())
	}
	if _, err := Build(d, &lockedFiles{files: site.Files{}}); err != nil {
		t.Fatalf("check passed, build failed: %v", err)
	}
}
