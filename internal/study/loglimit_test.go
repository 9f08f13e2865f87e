package study_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/study"
)

// A log over MaxLogSize is a problem on its file and is not read: a build
// keeps each log whole, so this bounds what it holds.
func TestLogOverSizeLimit(t *testing.T) {
	root := t.TempDir()
	if err := os.CopyFS(root, os.DirFS("../../results/qwen3-32b-a100")); err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(root, "runs", "sglang", "sharegpt.log")
	if err := os.Truncate(log, study.MaxLogSize+1); err != nil { // sparse: no disk used
		t.Fatal(err)
	}
	_, probs, err := study.Load(os.DirFS(root), "results/qwen3-32b-a100", "qwen3-32b-a100")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range probs {
		if p.Pos.File == "results/qwen3-32b-a100/runs/sglang/sharegpt.log" && strings.Contains(p.Msg, "the limit is 67108864 (64 MiB)") {
			return
		}
	}
	t.Errorf("no size problem on the log among %v", probs)
}
