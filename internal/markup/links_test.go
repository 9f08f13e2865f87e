package markup

import (
	"reflect"
	"testing"

	"github.com/perflab/perflab/internal/check"
)

// The links of a content file are read as a page shows them: reference
// links resolved across sections, escapes and entities resolved in the
// text, code and emphasis kept, the front matter's lines counted.
func TestLinkReader(t *testing.T) {
	file := "---\nworkloads:\n  chat: \"[a.com](https://b.com)\"\n---\n" + // front matter: text, not Markdown
		"<!-- section: notes -->\n" +
		"See [https://docs.vllm.ai](https://evil.example/x) and [the docs](https://docs.vllm.ai).\n" + // 6
		"[**docs.vllm.ai**][ref] then [`docs.vllm.ai`](https://evil.example)\n" + // 7
		"[docs&#46;vllm.ai](https://evil.example) [docs\\.vllm.ai](https://evil.example)\n" + // 8
		"[![docs.vllm.ai](logo.png)](https://evil.example) <https://auto.example>\n" + // 9
		"<!-- section: objective -->\n" +
		"[ref]: https://evil.example/ref\n"
	got := NewLinkReader().Links([]byte(file))
	want := []check.ProseLink{
		{Text: "https://docs.vllm.ai", Target: "https://evil.example/x", Line: 6},
		{Text: "the docs", Target: "https://docs.vllm.ai", Line: 6},
		{Text: "docs.vllm.ai", Target: "https://evil.example/ref", Line: 7},
		{Text: "docs.vllm.ai", Target: "https://evil.example", Line: 7},
		{Text: "docs.vllm.ai", Target: "https://evil.example", Line: 8},
		{Text: "docs.vllm.ai", Target: "https://evil.example", Line: 8},
		{Text: "", Target: "https://evil.example", Line: 9},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("links\n%+v\nwant\n%+v", got, want)
	}
}
