package claims

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/perflab/perflab/internal/report"
)

// summarySubject is the run a summary's direction word is about:
// "`vLLM` is faster by 19.83s".
var summarySubject = regexp.MustCompile("`([^`]+)`\\s+is (faster|slower|better|worse) by")

// summaryDirection checks the direction word of a summary line: "`A` is
// faster by" must name the better of the two runs, "is slower by" the
// worse. Figures whose printed roundings overlap are a tie, which either
// word may describe. aName and bName are the two runs as printed, xa and
// xb their figures.
func summaryDirection(printed, aName, bName string, xa, xb report.Interval, higherBetter bool) (bool, string) {
	m := summarySubject.FindStringSubmatch(printed)
	if m == nil {
		return true, ""
	}
	subject, other := aName, bName
	if strings.EqualFold(strings.TrimSpace(m[1]), strings.TrimSpace(bName)) {
		subject, other = bName, aName
		xa, xb = xb, xa
	}
	better := xa.Lo > xb.Hi
	worse := xa.Hi < xb.Lo
	if !higherBetter {
		better, worse = worse, better
	}
	says := m[2] == "faster" || m[2] == "better"
	if (says && worse) || (!says && better) {
		return false, fmt.Sprintf("`%s` is printed as %s than `%s`, but the logs give %s %s against %s", subject, m[2], other,
			subject, report.FormatNumber(xa.Mid(), 2), report.FormatNumber(xb.Mid(), 2))
	}
	return true, ""
}
