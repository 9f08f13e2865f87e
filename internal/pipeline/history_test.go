package pipeline

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/check"
)

// TestHistoryBuilt gives a run of the repository's qwen3-32b-a100 two
// earlier versions (logs of other runs, so that every block is a real
// one): the built pages have the history section, its chart and only
// links that land, and the drop from v0.10.1 (-15.7 %, past the 6.9 %
// one run a side can tell from noise) is a regression warning.
func TestHistoryBuilt(t *testing.T) {
	t.Parallel()
	d := copyTree(t)
	runs := filepath.Join(d.Results, "qwen3-32b-a100", "runs")
	for version, from := range map[string]string{"v0.9.2": "vllm-fp8", "v0.10.1": "trtllm"} {
		dir := filepath.Join(runs, "vllm-max-model-len", "history", version)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(filepath.Join(runs, from, "sharegpt.log"))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "sharegpt.log"), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p, files := buildRepo(t, d)
	href := regexp.MustCompile(`href="#([^"]+)"`)
	for _, lang := range []string{"en", "zh", "ja"} {
		page := string(files[lang+"/qwen3-32b-a100/index.html"])
		for _, id := range []string{"history", "history-vllm-max-model-len"} {
			if !strings.Contains(page, `id="`+id+`"`) {
				t.Errorf("%s: no element %s", lang, id)
			}
		}
		for _, m := range href.FindAllStringSubmatch(page, -1) {
			if !strings.Contains(page, `id="`+m[1]+`"`) {
				t.Errorf("%s: a link to #%s, which is not on the page", lang, m[1])
			}
		}
		if _, ok := files[lang+"/qwen3-32b-a100/history-vllm-max-model-len.svg"]; !ok {
			t.Errorf("%s: no history chart", lang)
		}
		md := string(files[lang+"/qwen3-32b-a100.md"])
		for _, want := range []string{"1563.33", "2054.21", "1730.98", figureIn(lang, "▲ +31.4 %"), figureIn(lang, "▼ -15.7 %")} {
			if !strings.Contains(section(md, "history"), want) {
				t.Errorf("%s: no %s in the history section", lang, want)
			}
		}
	}
	found := false
	for _, diag := range p.Diagnostics() {
		if diag.Rule == check.RuleRegression && strings.Contains(diag.File, "qwen3-32b-a100") {
			found = true
			if diag.Subject != "vllm-max-model-len/sharegpt@v0.11.0" || !strings.HasSuffix(diag.File, "results/qwen3-32b-a100/runs/vllm-max-model-len/sharegpt.log") {
				t.Errorf("regression %+v", diag)
			}
		}
	}
	if !found {
		t.Error("no regression warning")
	}
}

// section returns the part of a page's Markdown from its heading's anchor
// on, up to the next section of the same level.
func section(md, id string) string {
	i := strings.Index(md, `<a id="`+id+`">`)
	if i < 0 {
		return ""
	}
	rest := md[i:]
	heading := strings.Index(rest, "\n## ") + 1 // the section's own
	if j := strings.Index(rest[heading:], "\n## "); j >= 0 {
		return rest[:heading+j]
	}
	return rest
}
