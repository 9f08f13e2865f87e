package render

import (
	"strconv"
	"strings"

	"github.com/perflab/perflab/internal/report"
	"github.com/perflab/perflab/internal/stats"
)

// changeStats writes what a change's verdict rests on, after its
// percentage: "[+1.3, +6.9] (p = 0.009, n = 5 + 5)" when a test decided,
// "(n = 1 + 3, noise band 1.0 %)" when the band alone did.
func changeStats(loc *localizer, ch *report.Change) string {
	n := strconv.Itoa(ch.NFrom) + " + " + strconv.Itoa(ch.NTo)
	if !ch.Tested() {
		return loc.T("change.band", "N", n, "Band", bandText(ch.Band))
	}
	return loc.T("change.test", "Lo", signed(ch.Lo), "Hi", signed(ch.Hi), "P", PText(ch.P), "N", n)
}

// signed writes a percentage without its unit, "+1.3".
func signed(p float64) string {
	s := report.FormatPercent(p)
	return s[:len(s)-len(" %")]
}

// PText writes a p-value as "p = 0.009" (report.FormatP).
func PText(p float64) string { return report.FormatP(p) }

// bandText writes a noise band, "1.0 %".
func bandText(b float64) string { return report.FormatNumber(b, 1) + " %" }

// verdictNote says how the page's changes were judged and where the
// headline's noise band comes from, and what a single run can show.
func verdictNote(loc *localizer, rep *report.Report, metric string) string {
	b := rep.BandOf(rep.Headline.Key)
	var source string
	switch {
	case b.DF == 0:
		source = loc.T("verdict.band_floor", "Floor", bandText(report.BandFloor))
	case b.Floored():
		source = loc.T("verdict.band_below_floor", "CV", bandText(b.CV), "Floor", bandText(report.BandFloor), "Groups", b.Groups, "DF", b.DF)
	default:
		source = loc.T("verdict.band_measured", "Groups", b.Groups, "DF", b.DF)
	}
	alpha := strconv.FormatFloat(stats.Alpha, 'f', -1, 64)
	return loc.T("verdict.note", "Alpha", alpha, "Metric", metric, "Band", bandText(b.Percent), "Source", source, "MinN", stats.UTestMinN)
}

// tiedNames lists the runs tied with the best, each name escaped.
func tiedNames(loc *localizer, runs []*report.SLORun) string {
	names := make([]string, len(runs))
	for i, sr := range runs {
		names[i] = esc(sr.Run.Name)
	}
	return strings.Join(names, loc.T("list.separator"))
}
