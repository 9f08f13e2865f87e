package buildinfo

import (
	"runtime/debug"
	"testing"
)

func TestVersion(t *testing.T) {
	vcs := func(rev, modified string) []debug.BuildSetting {
		return []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: modified}}
	}
	for _, tc := range []struct {
		name string
		info debug.BuildInfo
		want string
	}{
		{"go install @version", debug.BuildInfo{Main: debug.Module{Version: "v1.2.0"}}, "v1.2.0"},
		{"go build stamps a pseudo-version", debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261206144753-2613a8258675+dirty"}, Settings: vcs("2613a8258675be77", "true")}, "v0.0.0-20261206144753-2613a8258675+dirty"},
		{"older go build: commit only", debug.BuildInfo{Main: debug.Module{Version: Devel}, Settings: vcs("2613a8258675be77", "false")}, "2613a8258675be77"},
		{"changed work tree", debug.BuildInfo{Main: debug.Module{Version: Devel}, Settings: vcs("2613a8258675be77", "true")}, "2613a8258675be77+modified"},
		{"go run: no version control information", debug.BuildInfo{Main: debug.Module{Version: Devel}}, Devel},
		{"no main module", debug.BuildInfo{}, ""},
	} {
		if got := version(&tc.info); got != tc.want {
			t.Errorf("%s: version = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestVersionOfThisBinary: a test binary is built from source as go run
// builds one, and must say so rather than nothing.
func TestVersionOfThisBinary(t *testing.T) {
	if got := Version(); got == "" {
		t.Fatal("Version() is empty in a binary built from the module's source; want the module version, a commit or (devel)")
	}
}
