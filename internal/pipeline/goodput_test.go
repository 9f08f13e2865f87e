package pipeline

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// A study of saved JSON results with a latency budget: its report gives
// each run's goodput at that budget, counted from the per-request arrays.
func TestBudgetGoodputBuilt(t *testing.T) {
	t.Parallel()
	dst := t.TempDir()
	if out, err := exec.Command("cp", "-r", "testdata/distribution/results", "testdata/distribution/content", dst).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v %s", err, out)
	}
	d := Dirs{Results: filepath.Join(dst, "results"), Content: filepath.Join(dst, "content"), Locales: distDirs.Locales, Templates: distDirs.Templates}
	file := filepath.Join(d.Results, "example-8b-dist", "study.yaml")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(data), "objective: latency\n", "objective: latency\nslo:\n  statistic: p99\n  ttft_ms: 200\n  tpot_ms: 40\n", 1)
	if err := os.WriteFile(file, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	_, files := buildRepo(t, d)
	md := string(files["en/example-8b-dist.md"])
	if !strings.Contains(md, "| Goodput at this budget (req/s) |") {
		t.Fatal("the latency budget has no goodput column")
	}
	cell := regexp.MustCompile(`\[(\d+\.\d\d)\]\([^)]*\) \((\d+) of (\d+) requests\)`)
	found := cell.FindAllStringSubmatch(md, -1)
	if len(found) == 0 {
		t.Fatal("no goodput cell with its count of requests")
	}
	for _, m := range found {
		good, _ := strconv.Atoi(m[2])
		total, _ := strconv.Atoi(m[3])
		if total == 0 || good > total {
			t.Errorf("goodput %s: %d good of %d requests", m[1], good, total)
		}
	}
	for lang, note := range map[string]string{"zh": "逐请求的数组", "ja": "リクエストごとの配列"} {
		if !strings.Contains(string(files[lang+"/example-8b-dist.md"]), note) {
			t.Errorf("%s: no note on how the goodput is counted", lang)
		}
	}
}
