package check

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The quick tests before the patterns of prose never skip a line that a
// pattern matches.
func FuzzProsePrefilters(f *testing.F) {
	for _, s := range []string{"1. TP4 on H100", " \t2) a", "12.x", "tp 8", "PP=2", "A100S", "xB200", "L40S", "", "- 3. b", "vLLM vs SGLang", "ſglang and TRT-LLM", "llama.cpp, MindIE", "We ſuggest vLLM", "RECOMMEND", "推奨", "FP8 and w4a16", "AWQ", "GPTQ-int4", "tp=8", "EP-2", "dp 4", "PP16", "aTP4"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		if got, want := dropListMarker(line), listMarker.ReplaceAllString(line, ""); got != want {
			t.Errorf("dropListMarker(%q) = %q, want %q", line, got, want)
		}
		if gpuWord.MatchString(line) && !mayNameGPU(line) {
			t.Errorf("mayNameGPU(%q) skips a GPU", line)
		}
		if engineName.MatchString(line) && !mayNameEngine(line) {
			t.Errorf("mayNameEngine(%q) skips an engine", line)
		}
		if len(engineName.FindAllStringIndex(line, -1)) >= 2 && !mayNameTwoEngines(line) {
			t.Errorf("mayNameTwoEngines(%q) skips two engines", line)
		}
		if parallelWord.MatchString(line) && !strings.ContainsAny(line, "pP") {
			t.Errorf("%q: a parallel size without p", line)
		}
		if precisionWord.MatchString(line) && !mayNamePrecision(line) {
			t.Errorf("mayNamePrecision(%q) skips a precision", line)
		}
		if parallelWord.MatchString(line) && !mayNameParallel(line) {
			t.Errorf("mayNameParallel(%q) skips a parallel size", line)
		}
		if recommendWord.MatchString(line) && !mayRecommend(line) {
			t.Errorf("mayRecommend(%q) skips a recommendation", line)
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

// FuzzFigureSpans: figureSpans and dropLinkTargets do what the patterns
// they replace do.
func FuzzFigureSpans(f *testing.F) {
	for _, s := range []string{"", "+59.2 %", "3,019.19 x 2 vs 3792.50 = +59.2%", "−12.1 ％ and -13.8\t%", "v0.11.0 FP8 A100 1.2.3.", "+-5 −x −5 ++1 5,", "1 \n%", "see [a](#b) and [c](d(e)) ](", "]( no close", "x](a)](b)", "\xe2\x88", "1\u00a0%"} {
		f.Add(s)
	}
	figureWord := regexp.MustCompile(`[+\-−]?\d+(?:[.,]\d+)*(?:\s?[%％])?`)
	linkTarget := regexp.MustCompile(`\]\([^)]*\)`)
	f.Fuzz(func(t *testing.T, s string) {
		var want [][2]int
		for _, loc := range figureWord.FindAllStringIndex(s, -1) {
			want = append(want, [2]int{loc[0], loc[1]})
		}
		if got := figureSpans(s); !slices.Equal(got, want) {
			t.Errorf("figureSpans(%q) = %v, want %v", s, got, want)
		}
		if got, want := dropLinkTargets(s), linkTarget.ReplaceAllString(s, "]"); got != want {
			t.Errorf("dropLinkTargets(%q) = %q, want %q", s, got, want)
		}
	})
}

// FuzzEnginesIn: enginesIn names what it named when it lowered every
// rune of the line with strings.ToLower.
func FuzzEnginesIn(f *testing.F) {
	for _, s := range []string{"vLLM vs SGLang", "TensorRT-LLM 与 vLLM 相比", "TGI", "xtgi", "TG\u0130", "\u212atgi", "Llama.CPP", "MINDIE と LMDeploy", "trt llm", "", "\xff TGI \xc4"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		if got, want := enginesIn(line), enginesInLower(strings.ToLower(line)); !slices.Equal(got, want) {
			t.Errorf("enginesIn(%q) = %v, want %v", line, got, want)
		}
	})
}
