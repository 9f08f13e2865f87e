package check

import (
	"fmt"
	"io/fs"
	"os"
	"sort"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/perflab/perflab/internal/study"
)

// A value perflab add marked as guessed is an error at its line until the
// comment is gone; so are placeholders; a "captured" comment is not.
func TestGuessRules(t *testing.T) {
	base := os.DirFS("../../results/qwen3-32b-a100")
	files := fstest.MapFS{}
	err := fs.WalkDir(base, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(base, name)
		files[name] = &fstest.MapFile{Data: data}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	edit := func(name, old, new string) {
		s := string(files[name].Data)
		if !strings.Contains(s, old) {
			t.Fatalf("%s has no %q", name, old)
		}
		files[name] = &fstest.MapFile{Data: []byte(strings.Replace(s, old, new, 1))}
	}
	severity := Error
	rules := func() (lines []string) {
		s, probs, err := study.Load(files, "results/qwen3-32b-a100", "qwen3-32b-a100")
		if err != nil || len(probs) > 0 {
			t.Fatalf("load: %v %v", err, probs)
		}
		if severity == Warning {
			s.Source = &study.Source{Title: "a published report"}
		}
		guessRules(s, func(d Diagnostic) {
			if d.Severity != severity || d.Subject != "" {
				t.Errorf("%+v: want a %s that cannot be acknowledged", d, severity)
			}
			lines = append(lines, fmt.Sprintf("%s:%d", strings.TrimPrefix(d.File, "results/qwen3-32b-a100/"), d.Line))
		})
		sort.Strings(lines)
		return lines
	}
	if got := rules(); len(got) != 0 {
		t.Fatalf("the study as published: %q", got)
	}
	edit("runs/vllm/run.yaml", "engine: vllm\n", "engine: vllm # guessed from the serving command (--command): check\n")
	edit("runs/sglang/run.yaml", "engine: sglang\n", "engine: sglang # captured: printed at sharegpt.log:2\n")
	edit("study.yaml", "version: v0.11.0", "version: unknown")
	if got, want := strings.Join(rules(), " "), "runs/vllm/run.yaml:2 study.yaml:10"; got != want {
		t.Errorf("diagnostics at %s, want %s", got, want)
	}
	// Several guesses of a file are one problem, naming each; what was
	// guessed from nothing is one at its line.
	edit("runs/vllm/run.yaml", "gpus: 1\n", "gpus: 1 # guessed from the command's parallel sizes: check\n")
	edit("study.yaml", "version: unknown", "version: unknown # guessed from nothing (the logs do not print it): check")
	if got, want := strings.Join(rules(), " "), "runs/vllm/run.yaml:2 study.yaml:10"; got != want {
		t.Errorf("diagnostics at %s, want %s", got, want)
	}
	// A study imported from a document is held to what the document
	// states: what it leaves unsaid is a warning.
	severity = Warning
	if got := rules(); len(got) != 2 {
		t.Errorf("imported: %q", got)
	}
}
