package main

import (
	"os"
	"strings"
	"testing"
)

// TestAddStartsStudy: perflab add on a study that does not exist starts
// it from the run (study.yaml with every guess marked, prose stubs in the
// three languages, the run as baseline), and the site builds with it, a
// one-run report with a note and no empty sections.
func TestAddStartsStudy(t *testing.T) {
	flags := copyRepo(t)
	raw, err := os.ReadFile("results/qwen3-32b-a100/runs/vllm/random-4k.log")
	if err != nil {
		t.Fatal(err)
	}
	// Another duration, so that it is not a copy of the repository's log.
	log := "Namespace(model='Qwen/Qwen3-32B', dataset_name='random', random_input_len=4000, random_output_len=200, num_prompts=500, seed=42)\n" +
		strings.NewReplacer("1141.94", "1141.95", "1837.08", "1837.06").Replace(string(raw))
	if err := os.WriteFile("long.log", []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	// Prose someone already wrote is kept as it is.
	if err := os.WriteFile("content/ja/qwen3-32b-h100.md", []byte("---\nworkloads:\n  long: 長いプロンプト\n---\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, _, err := perflab(t, "add", "--study", "qwen3-32b-h100", "--run", "vllm", "--gpu", "NVIDIA H100 80GB HBM3", "long.log")
	addedWithGuesses(t, stdout, err)
	for _, want := range []string{
		"started the study results/qwen3-32b-h100/ with this run as its baseline",
		"  content/en/qwen3-32b-h100.md",
		"  content/zh/qwen3-32b-h100.md",
		"  engines.vllm.version: unknown",
		"added results/qwen3-32b-h100/runs/vllm/\n",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	if strings.Contains(stdout, "content/ja/") {
		t.Errorf("add claims to have written the existing content/ja file:\n%s", stdout)
	}
	yml, err := os.ReadFile("results/qwen3-32b-h100/study.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"model: Qwen/Qwen3-32B # guessed from the model ",
		"gpu: NVIDIA H100 80GB HBM3\n",
		"version: unknown # guessed from nothing",
		"dataset: random # guessed from dataset_name random in the Namespace(...) dump at long.log:1: check",
		"num_prompts: 500 # guessed from num_prompts in the Namespace(...) dump at long.log:1: check",
		"seed: 42 # guessed from seed in the Namespace(...) dump at long.log:1: check",
		"input_len: 4000 # guessed",
		"baseline: [vllm]\n", "recommended: [vllm]\n", "steps: []\n",
	} {
		if !strings.Contains(string(yml), want) {
			t.Errorf("study.yaml lacks %q:\n%s", want, yml)
		}
	}
	if ja, _ := os.ReadFile("content/ja/qwen3-32b-h100.md"); !strings.Contains(string(ja), "長いプロンプト") {
		t.Errorf("content/ja/qwen3-32b-h100.md was replaced:\n%s", ja)
	}
	out, stderr, err := perflab(t, append([]string{"build", "--out", "site"}, flags...)...)
	if err != nil {
		t.Fatalf("build with the new study: %v\n%s%s", err, out, stderr)
	}
	page, err := os.ReadFile("site/en/qwen3-32b-h100/index.html")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), "One run so far.") {
		t.Error("the one-run report does not say it compares nothing yet")
	}
	for _, empty := range []string{`id="steps"`, `id="summary"`} {
		if strings.Contains(string(page), empty) {
			t.Errorf("the one-run report has an empty section (%s)", empty)
		}
	}
}
