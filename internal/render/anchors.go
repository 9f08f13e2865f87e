package render

import (
	"crypto/sha256"
	"encoding/hex"
	"net/url"
	"strings"

	"github.com/perflab/perflab/internal/markup"
)

// anchorID is a run, step or workload id as it stands in an anchor and in
// the links to it: the id itself when it is plain (markup.IDPart), else "_" and
// a hash of it, so that no id can end a heading attribute or a link early and make
// markup of the rest ("x) [a](//evil) ![b](//evil)" stays text).
func anchorID(id string) string {
	if markup.IDPart(id) {
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
