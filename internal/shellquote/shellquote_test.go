package shellquote

import (
	"os/exec"
	"strings"
	"testing"
)

// FuzzQuote: what sh reads back from a quoted word is the word.
func FuzzQuote(f *testing.F) {
	for _, s := range []string{"", "a b", "it's", "$(rm -rf /)", "`x`", "a\nb", "--x=1", "\\", "\"", "é"} {
		f.Add(s)
	}
	sh, err := exec.LookPath("sh")
	if err != nil {
		f.Skip("no sh")
	}
	f.Fuzz(func(t *testing.T, s string) {
		if strings.ContainsRune(s, 0) {
			return // no argument of a process holds NUL
		}
		out, err := exec.Command(sh, "-c", "printf %s "+Quote(s)).Output()
		if err != nil {
			t.Fatalf("sh on %q: %v", Quote(s), err)
		}
		if string(out) != s {
			t.Errorf("Quote(%q) = %s reads back as %q", s, Quote(s), out)
		}
	})
}

func TestJoinAndComment(t *testing.T) {
	if got, want := Join([]string{"vllm", "bench", "--model", "a b"}), "vllm bench --model 'a b'"; got != want {
		t.Errorf("Join = %q, want %q", got, want)
	}
	if got := Comment("a\nrm -rf /\r\u2028b"); strings.ContainsAny(got, "\n\r\u2028") {
		t.Errorf("Comment kept a line break: %q", got)
	}
}
