package render

import (
	"bytes"
	"testing"
)

// A link to lines in the repository names the file and nothing else,
// whatever its name holds.
func TestRepoLines(t *testing.T) {
	for _, c := range []struct {
		file     string
		from, to int
		want     string
	}{
		{"results/s/runs/r/chat.log", 12, 0, "https://x.test/o/r/blob/HEAD/results/s/runs/r/chat.log#L12"},
		{"results/s/runs/r/chat.log", 1, 23, "https://x.test/o/r/blob/HEAD/results/s/runs/r/chat.log#L1-L23"},
		{"results/s/runs/r/a (b) \"c\".log", 3, 3, "https://x.test/o/r/blob/HEAD/results/s/runs/r/a%20%28b%29%20%22c%22.log#L3"},
	} {
		if got := repoLines("https://x.test/o/r", c.file, c.from, c.to); got != c.want {
			t.Errorf("repoLines(%q, %d, %d) = %q, want %q", c.file, c.from, c.to, got, c.want)
		}
	}
}

// markdownToHTML renders Markdown as goldmark renders prose, for the
// tests of prose's extensions.
func (r *Renderer) markdownToHTML(md []byte) ([]byte, error) {
	var buf bytes.Buffer
	err := r.proseHTML["en"].Convert(md, &buf)
	return buf.Bytes(), err
}
