package render

import (
	"crypto/sha256"
	"encoding/hex"

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
