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
