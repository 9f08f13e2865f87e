package study_test

import (
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/study"
)

// TestVersionOrder: each version is older than the next.
func TestVersionOrder(t *testing.T) {
	ordered := []string{
		"0.9", "v0.10.0", "v0.10.1", "0.10.1.1", "v0.10.2",
		"0.11.0.dev0", "0.11.0.dev12", "v0.11.0a1", "v0.11.0b1", "v0.11.0rc1", "v0.11.0rc2", "v0.11.0",
		"v0.11.0.post1", "v0.11.0.post2", "v0.11.1", "1.0.0rc5", "1.0.0", "10.0.0",
	}
	parsed := make([]study.Version, len(ordered))
	for i, s := range ordered {
		v, err := study.ParseVersion(s)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		parsed[i] = v
	}
	for i := range parsed {
		for j := range parsed {
			want := 0
			if i < j {
				want = -1
			} else if i > j {
				want = 1
			}
			if got := parsed[i].Compare(parsed[j]); got != want {
				t.Errorf("Compare(%s, %s) = %d, want %d", ordered[i], ordered[j], got, want)
			}
		}
	}
}

func TestVersionEqual(t *testing.T) {
	for _, pair := range [][2]string{{"v0.11", "0.11.0"}, {"v0.11.0", "V0.11.0"}, {"1.2.0rc1", "1.2.0-rc.1"},
		{"0.5.5.post1", "v0.5.5-post1"}, {"v0.11.0+cu128", "v0.11.0"}} {
		a, err1 := study.ParseVersion(pair[0])
		b, err2 := study.ParseVersion(pair[1])
		if err1 != nil || err2 != nil {
			t.Fatalf("%v %v", err1, err2)
		}
		if a.Compare(b) != 0 {
			t.Errorf("%s and %s should be the same version", pair[0], pair[1])
		}
	}
}

func TestVersionUnparseable(t *testing.T) {
	for _, s := range []string{"", "latest", "main@abc123", "v0.11.0-beta-2x", "1.2.3.4.5", "v", "0.11.0 (nightly)", "1234567890.0"} {
		_, err := study.ParseVersion(s)
		if err == nil {
			t.Errorf("%q: parsed, want an error", s)
			continue
		}
		if !strings.Contains(err.Error(), "v0.11.0") {
			t.Errorf("%q: the error %q does not say what to write", s, err)
		}
	}
}

// FuzzParseVersion: a version that parses orders like itself and as its
// spelling with a leading v, and anything else is an error, not a panic.
func FuzzParseVersion(f *testing.F) {
	for _, s := range []string{"v0.11.0", "0.10.1.1", "v0.5.5.post1", "1.2.0rc1", "0.11.0.dev0", "latest", "v", "1.2.3.4.5", "v0.11.0+cu128"} {
		f.Add(s, "v0.10.1")
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		va, errA := study.ParseVersion(a)
		vb, errB := study.ParseVersion(b)
		if errA != nil || errB != nil {
			return
		}
		if va.Compare(va) != 0 || va.Compare(vb) != -vb.Compare(va) {
			t.Errorf("%q and %q do not order consistently", a, b)
		}
		if !strings.HasPrefix(a, "v") && !strings.HasPrefix(a, "V") {
			if w, err := study.ParseVersion("v" + a); err != nil || w.Compare(va) != 0 {
				t.Errorf("v%s is not %s", a, a)
			}
		}
	})
}
