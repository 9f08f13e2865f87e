package render

import (
	"fmt"
	"hash/fnv"
	"testing"
)

// FuzzLineIDPrefix: the hand-written hash gives what hash/fnv and
// fmt give, "L" and FNV-1a in eight hex digits.
func FuzzLineIDPrefix(f *testing.F) {
	f.Add("results/qwen3-32b-a100/runs/vllm/sharegpt.log")
	f.Add("")
	f.Add("日本語/\x00\xff")
	f.Fuzz(func(t *testing.T, path string) {
		h := fnv.New32a()
		h.Write([]byte(path))
		if got, want := lineIDPrefix(path), fmt.Sprintf("L%08x", h.Sum32()); got != want {
			t.Fatalf("lineIDPrefix(%q) = %q, want %q", path, got, want)
		}
	})
}
