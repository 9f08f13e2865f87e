// Package buildinfo says which perflab made a file.
package buildinfo

import "runtime/debug"

// Devel is what Go records as the main module's version when the binary
// was built from source without version control information: go run, go
// test, go build -buildvcs=false. It says "a development build" and
// claims no commit.
const Devel = "(devel)"

// Version is the module version the binary was built as (go install
// ...@v1.2.0, or the pseudo-version go build stamps from the commit),
// else the commit it was built from (with "+modified" for a changed work
// tree), else Devel; "" only when the binary carries no build information.
func Version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	return version(info)
}

// version reads a binary's build information; never a made-up number:
// every value is one Go recorded.
func version(info *debug.BuildInfo) string {
	if v := info.Main.Version; v != "" && v != Devel {
		return v
	}
	rev, dirty := "", false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev != "" && dirty {
		rev += "+modified"
	}
	if rev == "" && info.Main.Version == Devel {
		return Devel
	}
	return rev
}
