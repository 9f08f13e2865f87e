package render

import (
	"bytes"
	"fmt"
	"hash/fnv"
	"regexp"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/markup"

	"github.com/yuin/goldmark"
)

// TestBlocksAsGoldmark: a block's HTML holds the text goldmark gives of
// its Markdown, escaped the same way, line for line: code with a name for
// a screen reader; a log collapsed under its summary, its first lines
// numbered targets; odd text, empty blocks, fences in the text.
func TestBlocksAsGoldmark(t *testing.T) {
	stock := func(md string) string {
		var b bytes.Buffer
		if err := goldmark.New().Convert([]byte(md), &b); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	numbers := regexp.MustCompile(`<span class="ln" id="L[0-9a-f]{8}-\d+"><a href="#L[0-9a-f]{8}-\d+">\d+</a>|</span>`)
	texts := []string{"", "vllm serve Qwen/Qwen3-32B \\\n  --tp 4", "a <b> & \"c\" 'd'\n\n```x```\n\ttab", "line\n", "x\r\ny\x00z"}
	for _, text := range texts {
		f := richFence(text, "bash", "Code <x>")
		if got, want := string(f.HTML), strings.Replace(stock(f.MD), "<pre>", `<pre tabindex="0" aria-label="Code &lt;x&gt;">`, 1); got != want {
			t.Errorf("fence %q:\n got %q\nwant %q", text, got, want)
		}
		plainLog := string(richLog(text, "Raw <x>", logAnchors{}).HTML)
		for _, at := range []logAnchors{{}, {"Lf430bec9", 10, 2}, {"Lf430bec9", 1, 40}} {
			l := richLog(text, "Raw <x>", at)
			first := l.MD[:strings.IndexByte(l.MD, '\n')] // the fence and its info string
			md := strings.Replace(l.MD, first, first[:strings.Index(first, "log")+3], 1)
			block := strings.Replace(stock(md), "<pre>", `<pre tabindex="0" aria-label="Raw &lt;x&gt;">`, 1)
			want := `<details class="log"><summary>Raw &lt;x&gt;</summary>` + "\n" + block + "</details>\n"
			if got := numbers.ReplaceAllString(string(l.HTML), ""); got != want || at.count == 0 && string(l.HTML) != plainLog {
				t.Errorf("log %q %v:\n got %q\nwant %q", text, at, l.HTML, want)
			}
			if n := strings.Count(string(l.HTML), `class="ln"`); n != min(at.count, strings.Count(markup.NewFenced(text).Body, "\n")+1) {
				t.Errorf("log %q %v: %d numbered lines", text, at, n)
			}
		}
	}
}

// FuzzLineIDPrefix: the hand-written hash gives what hash/fnv and
// fmt give, "L" and FNV-1a in eight hex digits.
func FuzzLineIDPrefix(f *testing.F) {
	f.Add("results/qwen3-32b-a100/runs/vllm/sharegpt.log")
	f.Add("")
	f.Add("日本語/\x00\xff")
	f.Fuzz(func(t *testing.T, path string) {
		h := fnv.New32a()
		h.Write([]byte(path))
		if got, want := lineIDPrefix(path), fmt.Sprintf("L%08x", h.Sum32()); got != want {
			t.Fatalf("lineIDPrefix(%q) = %q, want %q", path, got, want)
		}
	})
}
