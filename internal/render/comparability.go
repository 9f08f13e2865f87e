package render

import (
	"strings"

	"github.com/perflab/perflab/internal/report"
)

// unlike says why a change compares unlike things, in place of its
// percentage; "" when its sides are comparable, caveats and all.
func unlike(loc *localizer, ch *report.Change) string {
	if l := ch.Likeness; l != nil && l.Verdict == report.NotComparable {
		return loc.T("comparability.not_comparable", "Reasons", likenessReasons(loc, l))
	}
	return ""
}

// caveats lists what differs between a caveated change's sides, written
// after its percentage; "" otherwise.
func caveats(loc *localizer, ch *report.Change) string {
	if l := ch.Likeness; l != nil && l.Verdict == report.Caveated {
		return loc.T("comparability.caveated", "Reasons", likenessReasons(loc, l))
	}
	return ""
}

// likenessReasons lists what differs, each value escaped: tool names and
// versions come from the logs.
func likenessReasons(loc *localizer, l *report.Likeness) string {
	parts := make([]string, len(l.Reasons))
	for i, r := range l.Reasons {
		key := "comparability.reason." + strings.ReplaceAll(r.Code, "-", "_")
		parts[i] = loc.T(key, "From", esc(r.From), "To", esc(r.To))
	}
	return strings.Join(parts, loc.T("list.separator"))
}
