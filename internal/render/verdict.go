package render

import (
	"strconv"

	"github.com/perflab/perflab/internal/report"
	"github.com/perflab/perflab/internal/stats"
)

// changeStats writes what a change's verdict rests on, after its
// percentage: "[+1.3, +6.9] (p = 0.009, n = 5 + 5)" when repeats were
// tested, "[-2.1, +8.3] (t = 1.80, df 2, p = 0.21, n = 1 + 3)" for one run
// against repeats, "(p = 0.003, n = 1 + 1, against an assumed run-to-run
// variation of 2.5 %)" when the assumed variation decided; with the
// Holm-adjusted p when the change is one of a family.
func changeStats(loc *localizer, ch *report.Change) rich {
	n := richFigure(strconv.Itoa(ch.NFrom) + " + " + strconv.Itoa(ch.NTo))
	holm := ""
	if ch.Corrected() {
		holm = "_holm"
	}
	args := []any{"Lo", richFigure(signed(ch.Lo)), "Hi", richFigure(signed(ch.Hi)), "P", richFigure(report.FormatP(ch.P)), "PHolm", richFigure(report.FormatP(ch.PAdjusted)), "N", n}
	switch ch.Test {
	case report.TestAssumed:
		return loc.R("change.assumed"+holm, append(args, "Sigma", richFigure(report.FormatBand(ch.Sigma)))...)
	case report.TestPrediction:
		return loc.R("change.prediction"+holm, append(args, "T", richFigure(report.FormatNumber(ch.T, 2)), "DF", richFigure(report.FormatNumber(ch.DF, 0)))...)
	}
	return loc.R("change.test"+holm, args...)
}

// noiseStats writes why a change is no measurable difference, after its
// percentage: with nothing measured but the assumed variation, the
// smallest change these runs could have told from noise.
func noiseStats(loc *localizer, ch *report.Change) rich {
	if ch.Tested() {
		return richJoin(changeStats(loc, ch), loc.R("change.noise"))
	}
	x := richFigure(report.FormatBand(ch.Threshold()))
	if ch.NFrom == 1 && ch.NTo == 1 {
		return loc.R("change.one_run_each", "Threshold", x)
	}
	return loc.R("change.no_spread", "N", richFigure(strconv.Itoa(ch.NFrom)+" + "+strconv.Itoa(ch.NTo)), "Threshold", x)
}

// signed writes a percentage without its unit, "+1.3".
func signed(p float64) string {
	s := report.FormatPercent(p)
	return s[:len(s)-len(" %")]
}

// verdictNote says how the page's changes were judged: the tests, where
// the headline's noise band and assumed variation come from, the
// smallest change one run a side can show, and the correction within a
// family of comparisons.
func verdictNote(loc *localizer, rep *report.Report) rich {
	b := rep.BandOf(rep.Headline.Key)
	var source rich
	switch {
	case b.DF == 0:
		source = loc.R("verdict.band_floor", "Floor", richFigure(report.FormatBand(report.BandFloor)))
	case b.Floored():
		source = loc.R("verdict.band_below_floor", "CV", richFigure(report.FormatBand(b.CV)), "Floor", richFigure(report.FormatBand(report.BandFloor)), "Groups", b.Groups, "DF", b.DF)
	default:
		source = loc.R("verdict.band_measured", "Groups", b.Groups, "DF", b.DF)
	}
	class := loc.R("metric_class." + b.Class)
	var sigma rich
	switch {
	case b.SigmaDefault && b.DF == 0:
		sigma = loc.R("verdict.sigma_default_unrepeated", "Class", class)
	case b.SigmaDefault:
		sigma = loc.R("verdict.sigma_default", "Class", class, "DF", b.DF, "MinDF", report.MinMeasuredDF)
	case b.SigmaDF == 0:
		sigma = loc.R("verdict.sigma_measured_few", "Class", class, "Groups", b.Groups, "DF", b.DF, "Default", richFigure(report.FormatBand(report.DefaultVariation[b.Class])))
	default:
		sigma = loc.R("verdict.sigma_measured", "Groups", b.Groups, "DF", b.DF, "Floor", richFigure(report.FormatBand(report.BandFloor)))
	}
	alpha := richFigure(strconv.FormatFloat(stats.Alpha, 'f', -1, 64))
	threshold := richFigure(report.FormatBand(stats.AssumedThreshold(1, 1, b.Sigma, b.SigmaDF, stats.Alpha)))
	return loc.R("verdict.note", "Alpha", alpha, "Metric", loc.R("metric."+rep.Headline.Key), "Band", richFigure(report.FormatBand(b.Percent)), "Source", source, "MinN", stats.UTestMinN,
		"Sigma", richFigure(report.FormatBand(b.Sigma)), "SigmaSource", sigma, "Threshold", threshold, "Q", richFigure(report.FormatNumber(stats.Quantile(0.975, b.SigmaDF), 2)), "Holm", loc.R("verdict.holm", "Alpha", alpha))
}

// tiedNames lists the runs tied with the best.
func tiedNames(loc *localizer, runs []*report.SLORun) rich {
	names := make([]rich, len(runs))
	for i, sr := range runs {
		names[i] = richText(sr.Run.Name)
	}
	return richList(loc.R("list.separator"), names...)
}
