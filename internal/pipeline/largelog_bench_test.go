package pipeline

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/site"
	"github.com/perflab/perflab/internal/study"
)

// largeLogTree copies the repository's study qwen3-32b-a100 alone and
// puts in front of the blocks of three of its logs server noise up to
// just under the size cap (study.MaxLogSize): the logs of a pull request
// that checks but made the build slow (issue 42).
func largeLogTree(b *testing.B) Dirs {
	b.Helper()
	dst := b.TempDir()
	for _, dir := range []string{"results/qwen3-32b-a100", "content", "locales", "templates"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dst, dir)), 0o755); err != nil {
			b.Fatal(err)
		}
		if out, err := exec.Command("cp", "-r", filepath.Join("../..", dir), filepath.Join(dst, dir)).CombinedOutput(); err != nil {
			b.Fatalf("cp: %v %s", err, out)
		}
	}
	for _, lang := range study.Languages {
		for _, other := range []string{"qwen3-235b-a22b-a100", "example-qwen3-8b-l40s"} {
			os.Remove(filepath.Join(dst, "content", lang, other+".md"))
		}
	}
	for _, w := range []string{"random-128", "random-2k", "random-4k"} {
		file := filepath.Join(dst, "results/qwen3-32b-a100/runs/vllm", w+".log")
		tail, err := os.ReadFile(file)
		if err != nil {
			b.Fatal(err)
		}
		var noise strings.Builder
		for i := 0; noise.Len() < study.MaxLogSize-4096-len(tail); i++ {
			fmt.Fprintf(&noise, "INFO 12-06 10:%02d:%02d [loggers.py:116] Engine 000: Avg prompt throughput: %d.5 tokens/s, Avg generation throughput: 56.7 tokens/s, Running: 12 reqs, Waiting: 0 reqs, GPU KV cache usage: 45.6%%\n", i/60%60, i%60, i%9000)
		}
		if err := os.WriteFile(file, append([]byte(noise.String()), tail...), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return Dirs{Results: filepath.Join(dst, "results"), Content: filepath.Join(dst, "content"),
		Locales: filepath.Join(dst, "locales"), Templates: filepath.Join(dst, "templates")}
}

// BenchmarkLargeLogs builds, in memory, one study with three logs of
// almost 64 MiB each (docs/performance.md, "Large logs").
func BenchmarkLargeLogs(b *testing.B) {
	d := largeLogTree(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Build(d, &lockedFiles{files: site.Files{}}); err != nil {
			b.Fatal(err)
		}
	}
}
