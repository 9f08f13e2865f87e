package serving

import (
	"regexp"
	"testing"
)

// A command parsed again is read the same, whatever the first caller did
// with its copy.
func TestParseRemembersUnchanged(t *testing.T) {
	const cmd = "vllm serve org/m --tensor-parallel-size 4 --max-num-seqs 256"
	for range 2 { // the first parse and one remembered
		c := Parse(cmd)
		c.Flags[0].Value = "8"
		c.Flags = append(c.Flags, Flag{Name: "x"})
	}
	again := Parse(cmd)
	if again.Model != "org/m" || len(again.Flags) != 2 || again.Flags[0].Value != "4" {
		t.Errorf("parsed again: %+v", again)
	}
}

// FuzzBaseModel holds BaseModel's scan to the pattern it replaces.
func FuzzBaseModel(f *testing.F) {
	for _, s := range []string{"Qwen/Qwen3-8B-FP8", "qwen3-8b-fp8-dynamic", "Qwen3-14B", "x-AWQ-int4", "-fp8", "fp8", "a--fp8", "a-fp8-", "m-ſfp8", "m-4BIT/", "K-w8a8"} {
		f.Add(s)
	}
	pattern := regexp.MustCompile(`(?i)(-(fp8|fp4|nvfp4|mxfp4|awq|gptq|int4|int8|w8a8|w4a16|w8a16|w4a8|bf16|fp16|dynamic|quantized|gguf|mlx|bnb|4bit|8bit))+$`)
	f.Fuzz(func(t *testing.T, id string) {
		if got, want := BaseModel(id), pattern.ReplaceAllString(ModelKey(id), ""); got != want {
			t.Errorf("BaseModel(%q) = %q, the pattern gives %q", id, got, want)
		}
	})
}
