package render

import (
	"strings"

	"github.com/perflab/perflab/internal/report"
)

// unlike says why a change compares unlike things, in place of its
// percentage; empty when its sides are comparable, caveats and all.
func unlike(loc *localizer, ch *report.Change) rich {
	if l := ch.Likeness; l != nil && l.Verdict == report.NotComparable {
		return loc.R("comparability.not_comparable", "Reasons", likenessReasons(loc, l))
	}
	return rich{}
}

// caveats lists what differs between a caveated change's sides, written
// after its percentage; empty otherwise.
func caveats(loc *localizer, ch *report.Change) rich {
	if l := ch.Likeness; l != nil && l.Verdict == report.Caveated {
		return loc.R("comparability.caveated", "Reasons", likenessReasons(loc, l))
	}
	return rich{}
}

// likenessReasons lists what differs, each value as text: tool names and
// versions come from the logs.
func likenessReasons(loc *localizer, l *report.Likeness) rich {
	parts := make([]rich, len(l.Reasons))
	for i, r := range l.Reasons {
		parts[i] = loc.R("comparability.reason."+strings.ReplaceAll(r.Code, "-", "_"), "From", r.From, "To", r.To)
	}
	return richList(loc.R("list.separator"), parts...)
}
