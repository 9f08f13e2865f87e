package pipeline

import (
	"strings"
	"testing"
)

// TestConclusionSaysWhatItCompares: the conclusion names the baseline and
// its command, marks a figure measured with another serving command than
// its configuration's (and gives that command), puts each trade-off's
// reason in the conclusion, by its row, and the summary marks the options
// carried forward and credits each step with its own change.
func TestConclusionSaysWhatItCompares(t *testing.T) {
	t.Parallel()
	_, files := buildRepo(t, repoDirs)
	md := string(files["en/qwen3-32b-a100.md"])
	start := strings.Index(md, "## Conclusion")
	end := strings.Index(md[start+1:], "\n## ")
	if start < 0 || end < 0 {
		t.Fatal("no conclusion section followed by another")
	}
	first := md[start : start+1+end]
	for _, want := range []string{
		"The baseline is vLLM, served with `vllm serve Qwen/Qwen3-32B`.",
		// ShareGPT's figures come from the configurations' second runs.
		`sharegpt.log:10")¹ |`,
		"¹ Measured with another serving command than the configuration's, that of vLLM: `vllm serve Qwen/Qwen3-32B --max-model-len 32768`",
		`trtllm/sharegpt.log:10")² |`,
		"Trade-off on Short prompt: Maintainers' note: On short prompts",
	} {
		if !strings.Contains(first, want) {
			t.Errorf("the conclusion lacks %q:\n%s", want, first)
		}
	}
	// A row measured with the configuration's own command has no mark.
	if strings.Contains(first, `random-2k.log:10")¹`) {
		t.Error("a figure measured with its configuration's command is marked")
	}
	summary := string(files["en/qwen3-235b-a22b-a100.md"])
	summary = strings.ReplaceAll(summary[strings.Index(summary, "| Option |"):], "\u00a0", " ") // figures kept whole
	if !strings.Contains(summary, "| TP4 (adopted)") || !strings.Contains(summary, "| vLLM FP8 (adopted) |") || strings.Contains(summary, "SGLang (adopted)") {
		t.Errorf("the summary marks the wrong options adopted:\n%s", summary)
	}
	// Parallelism is credited with its own change, from FP8; the path
	// gives each step's share of the whole +59.2 %.
	for _, want := range []string{"| TP4 (adopted) ≈ TP4 EP4 | vLLM FP8 | [▲ +61.4 %", "vLLM → vLLM FP8 ([≈ -1.4 %]", ") → TP4 ([▲ +61.4 %]", "to [▲ +59.2 %]"} {
		if !strings.Contains(summary, want) {
			t.Errorf("the summary lacks %q:\n%s", want, summary)
		}
	}
}
