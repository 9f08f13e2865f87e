package render

import (
	"crypto/sha256"
	"encoding/hex"
	"net/url"
	"strings"
)

// anchorID is a run, step or workload id as it stands in an anchor and in
// the links to it: the id itself when it is plain (isIDPart), else "_" and
// a hash of it, so that no id can end a heading attribute or a link early and make
// markup of the rest ("x) [a](//evil) ![b](//evil)" stays text).
func anchorID(id string) string {
	if isIDPart(id) {
		return id
	}
	sum := sha256.Sum256([]byte(id))
	return "_" + hex.EncodeToString(sum[:8])
}

// linkPath is a relative path from results/ (a study id, a chart's name)
// as a Markdown link destination: every byte outside a plain file name is
// percent-encoded, so the link names that file and nothing else.
var pathSpecials = strings.NewReplacer("(", "%28", ")", "%29", ":", "%3A", "!", "%21", "*", "%2A", "'", "%27")

func linkPath(p string) string {
	parts := strings.Split(p, "/")
	for i, s := range parts {
		// PathEscape keeps these; a colon could also start a scheme.
		parts[i] = pathSpecials.Replace(url.PathEscape(s))
	}
	return strings.Join(parts, "/")
}

// isSafeID reports whether id is the only attribute a report may give a
// heading, an anchor: a letter or digit, then letters, digits, '_' and '-'
// (^[A-Za-z0-9][A-Za-z0-9_-]*$, tested by hand: every heading of every
// page asks).
func isSafeID[T string | []byte](id T) bool {
	if len(id) == 0 || id[0] == '_' || id[0] == '-' {
		return false
	}
	return isIDPart(id)
}

// isIDPart reports whether id is letters, digits, '_' and '-', at least
// one (^[A-Za-z0-9_-]+$).
func isIDPart[T string | []byte](id T) bool {
	if len(id) == 0 {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}
