package importer

import (
	"os"
	"strings"
	"testing"
)

// FuzzEvidence feeds pages (read by their evidence, and a report of the
// family) to Import: it never panics, a page it imports can be written,
// and every log is text of the page (indentation of a fence aside), never
// made up.
func FuzzEvidence(f *testing.F) {
	for _, name := range []string{"vllm_recipe", "sglang_guide", "mi300_docker", "bare_block", "handwritten_latency", "dcp_recipe", "output_tokens_recipe"} {
		src, err := os.ReadFile("testdata/" + name + ".md")
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(src))
	}
	f.Add("# R\n\n`vllm serve m -tp 2`\n\n" + sampleBlock + "\n")
	f.Add("# A\n\n| Metric | A | B | B vs A | Utilisation of 4×200 Gbps |\n|---|---|---|---|---|\n| Mean TTFT (sec) | 2.5 | 2.0 | +20.0% | 87% |\n\n(It was 8 times faster (+25%), reduced TTFT by 40.5 %.)\n")
	f.Fuzz(func(t *testing.T, page string) {
		s, err := Import("page.md", []byte(page))
		if err != nil {
			return
		}
		if _, err := s.Files(); err != nil {
			t.Fatalf("an imported page cannot be written: %v", err)
		}
		flat := strings.ReplaceAll(page, "\r\n", "\n")
		for _, r := range s.Runs {
			for _, lg := range r.Logs {
				for _, l := range strings.Split(lg.Text, "\n") {
					if !strings.Contains(flat, l) {
						t.Fatalf("run %s: log line %q is not in the page", r.ID, l)
					}
				}
			}
		}
	})
}
