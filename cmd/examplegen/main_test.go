package main

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The committed example study is exactly what the generator writes: its
// logs are traceable to this program, and nothing in it was typed by hand.
func TestCommittedExampleIsGenerated(t *testing.T) {
	root := filepath.Join("..", "..", "results")
	files := generate()
	for name, want := range files {
		got, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(name)))
		if err != nil {
			t.Errorf("%s: %v (run go run ./cmd/examplegen)", name, err)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from what examplegen writes (run go run ./cmd/examplegen)", name)
		}
	}
	filepath.WalkDir(filepath.Join(root, studyID), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(root, p)
			if _, ok := files[filepath.ToSlash(rel)]; !ok {
				t.Errorf("%s is not written by examplegen: remove it, or generate it", rel)
			}
		}
		return nil
	})
}

// Two runs give the same bytes, and the generator writes into the folder
// it is given, and nowhere else.
func TestGenerateIsDeterministic(t *testing.T) {
	dir := t.TempDir()
	var out, errs strings.Builder
	if err := run(t.Context(), []string{"-results", dir}, &out, &errs); err != nil {
		t.Fatal(err, errs.String())
	}
	for name, want := range generate() {
		got, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: written file differs from a second generation (%v)", name, err)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 || entries[0].Name() != studyID {
		t.Errorf("the generator wrote %v into the results folder, want only %s", entries, studyID)
	}
}

// The simulated block keeps vLLM's arithmetic: each throughput is its
// tokens over the duration, as check recomputes it.
func TestSimulatedBlockIsConsistent(t *testing.T) {
	block := vllmBlock(result{load: load{prompts: 10, inputLen: 100, outputLen: 20, concurrency: 4}, duration: 2.5,
		inputTokens: 1000, outputTokens: 200, peakOutput: 150, peakConcurrent: 4})
	for _, want := range []string{
		"============ Serving Benchmark Result ============\n",
		"Successful requests:                     10        \n",
		"Maximum request concurrency:             4         \n",
		"Request throughput (req/s):              4.00      \n",
		"Output token throughput (tok/s):         80.00     \n",
		"Total Token throughput (tok/s):          480.00    \n",
		"---------------Time to First Token----------------\n",
		"-----Time per Output Token (excl. 1st token)------\n",
		"----------------End-to-end Latency----------------\n",
	} {
		if !strings.Contains(block, want) {
			t.Errorf("block lacks %q:\n%s", want, block)
		}
	}
}
