package check

import (
	"strconv"
	"strings"
	"testing"
)

func TestSpoofedLinks(t *testing.T) {
	refused := []ProseLink{
		{"https://docs.vllm.ai", "https://evil.example/docs", 3},
		{"docs.vllm.ai", "https://evil.example", 4},
		{"www.example.com/login", "https://example.com/other", 5},
		{"https://example.com", "http://example.com", 6},            // scheme written, another one opened
		{"example.com", "https://example.com@evil.example/", 7},     // user info: the host is evil.example
		{"exаmple.com", "https://example.com", 8},                   // Cyrillic а: not the host written
		{"example.com", "https://ex%D0%B0mple.com", 9},              // and the other way round
		{"https://example.com/a", "https://example.com/b", 10},      // another path
		{"example.com:8443", "https://example.com", 11},             // another port
		{"//example.com", "https://evil.example", 12},               // scheme-relative
		{"example.com\u200b", "https://evil.example", 13},           // zero-width space dropped
		{"EXAMPLE.COM", "https://evil.example", 14},                 // capitals
		{"例子.中国", "https://evil.example", 15},                       // a domain in another script
		{"ftp://files.example.org/x", "https://evil.example/x", 16}, // any scheme
	}
	passed := []ProseLink{
		{"https://docs.vllm.ai", "https://docs.vllm.ai", 1},
		{"https://docs.vllm.ai/", "https://docs.vllm.ai", 1},
		{"docs.vllm.ai", "https://docs.vllm.ai/en/latest/", 1},       // the host shown, a page on it
		{"example.com", "https://www.example.com", 1},                // www. or not
		{"Example.com", "https://example.com.", 1},                   // case, trailing dot
		{"the vLLM docs", "https://docs.vllm.ai", 1},                 // words
		{"vLLM", "https://evil.example", 1},                          // one word
		{"study.yaml", "https://github.com/org/repo/blob/main/x", 1}, // a file's name
		{"v0.11.0", "https://github.com/vllm-project/vllm", 1},       // a version
		{"3.5", "https://example.com", 1},                            // a number
		{"docs.vllm.ai", "#notes", 1},                                // inside the page
		{"docs.vllm.ai", "../en/x.md", 1},                            // inside the site
		{"https://example.com/a?b=1#c", "https://example.com/a?b=1#c", 1},
	}
	got := SpoofedLinks("content/en/s.md", refused)
	if len(got) != len(refused) {
		t.Errorf("%d of %d spoofed links refused", len(got), len(refused))
	}
	for i, d := range got {
		want := refused[i]
		if d.Rule != RuleLinkSpoof || d.Severity != Error || d.File != "content/en/s.md" || d.Line != want.Line ||
			!strings.Contains(d.Message, strconv.Quote(want.Text)) || !strings.Contains(d.Message, strconv.Quote(want.Target)) || !strings.Contains(d.Message, "make the text") {
			t.Errorf("%+v: want an error at line %d naming %q and %q and what to do", d, want.Line, want.Text, want.Target)
		}
	}
	for _, l := range passed {
		if d := SpoofedLinks("content/en/s.md", []ProseLink{l}); len(d) > 0 {
			t.Errorf("[%s](%s) refused: %s", l.Text, l.Target, d[0].Message)
		}
	}
}

// FuzzSpoofedLinks: a link whose target is the address its text shows
// (a scheme put in front when the text has none) always passes, and
// nothing panics.
func FuzzSpoofedLinks(f *testing.F) {
	for _, s := range []string{"https://docs.vllm.ai", "docs.vllm.ai/a?b#c", "例子.中国", "//x.org", "EXAMPLE.com:80/", "a.b@c.d"} {
		f.Add(s, "https://evil.example")
	}
	f.Fuzz(func(t *testing.T, text, target string) {
		SpoofedLinks("f.md", []ProseLink{{Text: text, Target: target, Line: 1}})
		shown, ok := addressIn(text)
		if !ok {
			return
		}
		same := shown.u.String()
		if d := SpoofedLinks("f.md", []ProseLink{{Text: text, Target: same, Line: 1}}); len(d) > 0 {
			t.Errorf("[%s](%s) refused: %s", text, same, d[0].Message)
		}
	})
}
