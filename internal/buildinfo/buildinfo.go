// Package buildinfo says which perflab made a file.
package buildinfo

import "runtime/debug"

// Version is the module version the binary was built as (go install
// ...@v1.2.0), else the commit it was built from (with "+modified" for a
// changed work tree); "" when it carries neither (go run, go test).
func Version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	if v := info.Main.Version; v != "" && v != "(devel)" {
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
	return rev
}
