package render

import (
	htmltemplate "html/template"
	"strconv"
	"strings"

	"github.com/perflab/perflab/internal/report"
)

// addLikeness gives the table a sentence for each pair of its columns not
// measured like for like (data-like-A-B), which the page shows when the
// two are chosen, and each row the pairs it prints no change for.
func (c *compareView) addLikeness(pairs []report.PairLikeness, v *allRunsView, loc *localizer) {
	for _, p := range pairs {
		pair := strconv.Itoa(p.A) + "-" + strconv.Itoa(p.B)
		key := "allruns.caveated"
		if p.Likeness.Verdict == report.NotComparable {
			key = "allruns.not_comparable"
		}
		// An attribute whose name html/template cannot write from data:
		// made here, its value escaped.
		attr := "data-like-" + pair + `="` + htmltemplate.HTMLEscapeString(loc.T(key, "Reasons", reasonsText(loc, &p.Likeness))) + `"`
		c.Likeness = append(c.Likeness, htmltemplate.HTMLAttr(attr))
		for _, i := range p.Rows {
			v.Rows[i].Unlike = strings.TrimSpace(v.Rows[i].Unlike + " " + pair)
		}
	}
}

// reasonsText lists what differs as plain text, for an attribute (which
// the HTML renderer escapes).
func reasonsText(loc *localizer, l *report.Likeness) string {
	parts := make([]string, len(l.Reasons))
	for i, r := range l.Reasons {
		key := "comparability.reason." + strings.ReplaceAll(r.Code, "-", "_")
		parts[i] = loc.T(key, "From", r.From, "To", r.To)
	}
	return strings.Join(parts, loc.T("list.separator"))
}
