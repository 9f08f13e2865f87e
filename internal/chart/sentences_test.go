package chart

import (
	"fmt"
	"strings"
	"testing"
)

// joinT is a localizer with the "sentences" message of a language, which
// counts the bytes it is given.
func joinT(format string, bytes *int) func(id string, kv ...any) string {
	return func(id string, kv ...any) string {
		args := map[string]string{}
		for i := 0; i+1 < len(kv); i += 2 {
			args[kv[i].(string)] = kv[i+1].(string)
			*bytes += len(args[kv[i].(string)])
		}
		return strings.NewReplacer("{First}", args["First"], "{Next}", args["Next"]).Replace(format)
	}
}

func sentenceList(n int) []string {
	list := make([]string, n)
	for i := range list {
		list[i] = fmt.Sprintf("Run %d: 1234.5 tok/s.", i)
	}
	return list
}

// TestSentencesLinear: joining twice as many sentences hands the
// localizer about twice as many bytes, not four times.
func TestSentencesLinear(t *testing.T) {
	work := func(n int) int {
		bytes := 0
		chartText{T: joinT("{First} {Next}", &bytes)}.sentences(sentenceList(n))
		return bytes
	}
	small, large := work(1000), work(2000)
	if large > 2*small+small/10 { // the numbers grow a digit: a little more than twice
		t.Errorf("bytes given to the localizer: %d for 1,000 sentences, %d for 2,000: not linear", small, large)
	}
}

// TestSentencesAsMessage: the one-pass join gives what the message gives
// applied step by step, whatever it puts around its fields.
func TestSentencesAsMessage(t *testing.T) {
	for _, format := range []string{"{First} {Next}", "{First}{Next}", "<{First} / {Next}>", "{Next} {First}", "{First} {First} {Next}"} {
		for _, n := range []int{0, 1, 2, 3, 7} {
			list := sentenceList(n)
			var b1, b2 int
			got := chartText{T: joinT(format, &b1)}.sentences(list)
			want := ""
			if n > 0 {
				want = chartText{T: joinT(format, &b2)}.sentencesSlow(list)
			}
			if got != want {
				t.Errorf("%q, %d sentences: %q, want %q", format, n, got, want)
			}
		}
	}
}
