package pipeline

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestContributorTextIsEscaped: markup in a run name, a model's hardware
// name, a serving command, an acknowledgement and the prose must reach
// every page as text, never as elements or attributes.
func TestContributorTextIsEscaped(t *testing.T) {
	t.Parallel()
	d := copyTree(t)
	edit := func(file, old, new string) {
		t.Helper()
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(data), old) {
			t.Fatalf("%s has no %q", file, old)
		}
		os.WriteFile(file, []byte(strings.Replace(string(data), old, new, 1)), 0o644)
	}
	study := filepath.Join(d.Results, "qwen3-32b-a100")
	edit(filepath.Join(study, "runs", "sglang", "run.yaml"), "name: SGLang", `name: "<script>alert('name')</script>"`)
	edit(filepath.Join(study, "study.yaml"), "gpu: NVIDIA A100 SXM 80GB", `gpu: "A100 <img src=x onerror=alert('gpu')>"`)
	edit(filepath.Join(study, "runs", "trtllm", "run.yaml"), "trtllm-serve Qwen/Qwen3-32B", "trtllm-serve Qwen/Qwen3-32B </code><script>alert('cmd')</script>")
	edit(filepath.Join(study, "study.yaml"), "reason:\n      en: \"", "reason:\n      en: \"<script>alert('ack')</script> ") // the first acknowledgement's
	for _, lang := range []string{"en", "zh", "ja"} {
		edit(filepath.Join(d.Content, lang, "qwen3-32b-a100.md"), "<!-- section: objective -->",
			"<!-- section: objective -->\n<script>alert('prose')</script>\n<img src=x onerror=alert('img')>\n[click](javascript:alert('link'))\n")
	}
	_, files := buildRepo(t, d)
	tag := regexp.MustCompile(`(?i)<script>alert|<img[^>]*onerror|href="javascript:`)
	checked := 0
	for name, data := range files {
		if !strings.HasSuffix(name, ".html") {
			continue
		}
		checked++
		if m := tag.Find(data); m != nil {
			t.Errorf("%s contains live markup %q", name, m)
		}
	}
	if checked < 10 {
		t.Fatalf("only %d HTML files checked", checked)
	}
	page := string(files["en/qwen3-32b-a100/index.html"])
	for _, want := range []string{"&lt;script&gt;alert('name')&lt;/script&gt;", "&lt;/code&gt;&lt;script&gt;alert('cmd')"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page does not show the escaped text %q", want)
		}
	}
}
