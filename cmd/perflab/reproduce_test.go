package main

import (
	"os"
	"strings"
	"testing"
)

// TestReproductions submits two reruns of vllm-fp8 to a copy of the
// repository, as a pull request would: one within the noise, added from
// its log, and one 10.7 % slower, recorded on another engine version.
// The check warns about the second only, saying what differs, and the
// report counts both.
func TestReproductions(t *testing.T) {
	flags := copyRepo(t)
	orig, err := os.ReadFile("results/qwen3-32b-a100/runs/vllm-fp8/sharegpt.log")
	if err != nil {
		t.Fatal(err)
	}
	// Same tokens, other durations; the throughputs follow from them.
	agree := strings.NewReplacer("267.77", "268.00", "751.46", "750.81", "1563.33", "1561.98").Replace(string(orig))
	slower := strings.NewReplacer("267.77", "300.00", "3.73", "3.33", "751.46", "670.73", "1563.33", "1395.37").Replace(string(orig))
	if err := os.WriteFile("agree.log", []byte(agree), 0o644); err != nil {
		t.Fatal(err)
	}
	bench := fakeTools(t, []byte(slower)) // prints vLLM 0.10.1.1, then the block
	gate := "gate"
	os.WriteFile(gate, nil, 0o644)

	common := []string{"--study", "qwen3-32b-a100", "--reproduces", "vllm-fp8", "--command", "vllm serve Qwen/Qwen3-32B-FP8", "--gpus", "1", "--workload", "sharegpt"}
	out, _, err := perflab(t, append(append([]string{"add", "--run", "vllm-fp8-rerun-a", "--name", "Rerun A"}, common...), "agree.log")...)
	addedWithGuesses(t, out, err)
	out, _, err = perflab(t, append(append([]string{"record", "--run", "vllm-fp8-rerun-b", "--name", "Rerun B"}, common...), "--", "sh", bench, gate)...)
	addedWithGuesses(t, out, err)
	confirmGuesses(t, "results")

	out, _, err = perflab(t, append([]string{"check"}, flags...)...)
	if err != nil {
		t.Fatalf("check: %v\n%s", err, out)
	}
	for _, want := range []string{
		"warning: reproduction-disagrees: run vllm-fp8-rerun-b reproduces vllm-fp8, but on sharegpt it gives 1395.37 tok/s where vllm-fp8 gives 1563.33: a change of -10.7 %",
		"what differs: engine version v0.11.0 vs 0.10.1.1 (not recorded by both: the GPU model)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("check lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "run vllm-fp8-rerun-a reproduces") || strings.Contains(out, "unplaced-run: run vllm-fp8-rerun") {
		t.Errorf("check flags the rerun within the noise, or a rerun as unplaced:\n%s", out)
	}

	if _, errOut, err := perflab(t, append([]string{"build", "--out", "out"}, flags...)...); err != nil {
		t.Fatalf("build: %v\n%s", err, errOut)
	}
	page := func(lang string) string {
		b, err := os.ReadFile("out/" + lang + "/qwen3-32b-a100.md")
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	en := page("en")
	for _, want := range []string{
		"## Reproductions",
		"### vLLM FP8 (`vllm-fp8`)",
		"- ShareGPT: 2 reproductions, 1 within the noise. Beyond the noise: Rerun B.",
		"| no (v0.11.0 vs 0.10.1.1) | yes |",
		// The recorded run's recipe carries the command that was run.
		"sh " + bench + " gate",
	} {
		if !strings.Contains(en, want) {
			t.Errorf("en page lacks %q:\n%s", want, section(en, "## Reproductions"))
		}
	}
	for lang, want := range map[string]string{"zh": "共 2 次复现，其中 1 次在噪声范围内", "ja": "再現 2 件、うちノイズの範囲内 1 件"} {
		if !strings.Contains(page(lang), want) {
			t.Errorf("%s page lacks %q", lang, want)
		}
	}
}

// section is the page from a heading on, for messages.
func section(page, heading string) string {
	if i := strings.Index(page, heading); i >= 0 {
		page = page[i:]
	}
	if len(page) > 4000 {
		page = page[:4000]
	}
	return page
}
