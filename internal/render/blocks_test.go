package render

import (
	"bytes"
	"testing"

	"github.com/yuin/goldmark/parser"
)

// TestBlocksAsGoldmark: a block written from its view gives the HTML that
// goldmark gives of its Markdown, so a page reads the same whichever
// wrote a block: code, numbered logs with odd text, empty blocks.
func TestBlocksAsGoldmark(t *testing.T) {
	r, err := chartRenderer()
	if err != nil {
		t.Fatal(err)
	}
	convert := func(md string, label string) string {
		pc := parser.NewContext()
		pc.Set(readerKey, &readerAttrs{codeLabel: label})
		var b bytes.Buffer
		if err := r.md.Convert([]byte(md), &b, parser.WithContext(pc)); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	texts := []string{"", "vllm serve Qwen/Qwen3-32B \\\n  --tp 4", "a <b> & \"c\" 'd'\n\n```x```\n\ttab", "line\n", "x\r\ny\x00z"}
	for _, text := range texts {
		f := richFence(text, "bash", "Code")
		if got, want := string(f.html), convert(f.md, "Code"); got != want {
			t.Errorf("fence %q:\n got %q\nwant %q", text, got, want)
		}
		for _, at := range []logAnchors{{}, {"Lf430bec9", 10, 2}, {"Lf430bec9", 1, 40}} {
			l := richLog(text, "Raw result <x>", at)
			if got, want := string(l.html), convert(l.md, "Code"); got != want {
				t.Errorf("log %q %v:\n got %q\nwant %q", text, at, got, want)
			}
		}
	}
}
