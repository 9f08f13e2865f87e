package check

import (
	"strings"
	"testing"
)

// The quick tests before the patterns of prose never skip a line that a
// pattern matches.
func FuzzProsePrefilters(f *testing.F) {
	for _, s := range []string{"1. TP4 on H100", " \t2) a", "12.x", "tp 8", "PP=2", "A100S", "xB200", "L40S", "", "- 3. b", "vLLM vs SGLang", "ſglang and TRT-LLM", "llama.cpp, MindIE"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		if got, want := dropListMarker(line), listMarker.ReplaceAllString(line, ""); got != want {
			t.Errorf("dropListMarker(%q) = %q, want %q", line, got, want)
		}
		if gpuWord.MatchString(line) && !mayNameGPU(line) {
			t.Errorf("mayNameGPU(%q) skips a GPU", line)
		}
		if len(engineName.FindAllStringIndex(line, -1)) >= 2 && !mayNameTwoEngines(line) {
			t.Errorf("mayNameTwoEngines(%q) skips two engines", line)
		}
		if parallelWord.MatchString(line) && !strings.ContainsAny(line, "pP") {
			t.Errorf("%q: a parallel size without p", line)
		}
	})
}

// blankCode is the codeSpan pattern, by hand.
func FuzzBlankCode(f *testing.F) {
	for _, s := range []string{"a `b` c", "[x](y) z", "see https://x.y/z and http:// no", "{{.A}} {{b}c}}", "``", "](", "https://", "{{}}", "模型 `代码` 。"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		want := codeSpan.ReplaceAllStringFunc(line, func(s string) string { return strings.Repeat("x", len(s)) })
		if got := blankCode(line); got != want {
			t.Errorf("blankCode(%q) = %q, want %q", line, got, want)
		}
	})
}
