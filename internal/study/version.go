package study

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Version is an engine version as engines print theirs: v0.11.0,
// 0.10.1.1, v0.5.5.post1, 1.2.0rc1, 0.11.1.dev0. It orders releases by
// their numbers, a missing number counting as zero (v0.11 = v0.11.0), and
// puts a release's pre-releases before it and its post-releases after it:
// dev < alpha (a) < beta (b) < rc < the release < post.
type Version struct {
	Raw     string
	Numbers [4]int
	Stage   int // stageDev ... stagePost, stageRelease for a release
	N       int // the pre- or post-release number: rc2 -> 2
}

// Release stages, in order.
const (
	stageDev = iota
	stageAlpha
	stageBeta
	stageRC
	stageRelease
	stagePost
)

var stages = map[string]int{"dev": stageDev, "a": stageAlpha, "alpha": stageAlpha, "b": stageBeta, "beta": stageBeta,
	"rc": stageRC, "post": stagePost}

// versionPattern: an optional v, one to four numbers, an optional stage
// (joined by nothing, '.' or '-') with an optional number, and optional
// build metadata after '+', which does not order.
var versionPattern = regexp.MustCompile(`^[vV]?(\d{1,9}(?:\.\d{1,9}){0,3})(?:[.-]?(dev|alpha|a|beta|b|rc|post)[.-]?(\d{0,9}))?(?:\+[0-9A-Za-z.-]+)?$`)

// VersionHelp says how to write a version perflab can order.
const VersionHelp = "write it as engines print theirs, such as v0.11.0, 0.10.1.1, v0.5.5.post1 or 1.2.0rc1"

// ParseVersion reads a version; an error says what to write instead.
func ParseVersion(s string) (Version, error) {
	m := versionPattern.FindStringSubmatch(s)
	if m == nil {
		return Version{}, fmt.Errorf("version %q cannot be ordered: %s", s, VersionHelp)
	}
	v := Version{Raw: s, Stage: stageRelease}
	for i, part := range strings.Split(m[1], ".") {
		v.Numbers[i], _ = strconv.Atoi(part) // at most nine digits: never fails
	}
	if m[2] != "" {
		v.Stage = stages[strings.ToLower(m[2])]
		v.N, _ = strconv.Atoi(m[3]) // "" is 0
	}
	return v, nil
}

// Compare returns -1, 0 or +1 as v is older than, the same as or newer
// than w.
func (v Version) Compare(w Version) int {
	for i := range v.Numbers {
		if c := cmpInt(v.Numbers[i], w.Numbers[i]); c != 0 {
			return c
		}
	}
	if c := cmpInt(v.Stage, w.Stage); c != 0 {
		return c
	}
	return cmpInt(v.N, w.N)
}

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
