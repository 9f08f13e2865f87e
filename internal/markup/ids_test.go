package markup

import (
	"regexp"
	"testing"
)

// The hand-written tests of ids agree with the patterns they stand for.
func FuzzIDTests(f *testing.F) {
	safe, part := regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]*$`), regexp.MustCompile(`^[A-Za-z0-9_-]+$`)
	for _, s := range []string{"", "a", "_a", "-", "run-1", "x y", "é", "a\n", "ab_9-Z"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if SafeID(s) != safe.MatchString(s) || SafeID([]byte(s)) != safe.MatchString(s) {
			t.Errorf("SafeID(%q) = %v", s, SafeID(s))
		}
		if IDPart(s) != part.MatchString(s) {
			t.Errorf("IDPart(%q) = %v", s, IDPart(s))
		}
	})
}
