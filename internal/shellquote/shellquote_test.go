package shellquote

import (
	"os/exec"
	"regexp"
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

// FuzzScans holds the byte scans to what they stand for: a pattern of the
// plain characters, and the runes Comment replaces.
func FuzzScans(f *testing.F) {
	for _, s := range []string{"", "a-b", "a b", "x\u2028", "\xe2\x80", "\xe2\xc2\x85", "\u2029", "\v", "é\u0085", "\xc2"} {
		f.Add(s)
	}
	plainPattern := regexp.MustCompile(`^[A-Za-z0-9_@%+=:,./-]+$`)
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := isPlain(s), plainPattern.MatchString(s); got != want {
			t.Errorf("isPlain(%q) = %v, the pattern says %v", s, got, want)
		}
		if got, want := hasLineBreak(s), strings.ContainsAny(s, "\n\r\v\f\u0085\u2028\u2029"); got != want {
			t.Errorf("hasLineBreak(%q) = %v, strings.ContainsAny says %v", s, got, want)
		}
	})
}
