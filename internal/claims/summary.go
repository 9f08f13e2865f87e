package claims

import (
	"fmt"
	"math"
	"regexp"
	"strings"

	"github.com/perflab/perflab/internal/benchlog"
	"github.com/perflab/perflab/internal/report"
	"github.com/perflab/perflab/internal/study"
)

var (
	summaryEntry = regexp.MustCompile("`([^`]+)`\\s+([A-Za-z][A-Za-z ()/]*?)\\s*=\\s*(\\d[\\d,]*(?:\\.\\d+)?)\\s*(tok/s|ms|s)?")
	summaryDiff  = regexp.MustCompile(`is (faster|slower|better|worse) by (\d[\d,]*(?:\.\d+)?)\s*(tok/s|ms|s)?\s*\(([^)]*)\)`)
	summaryOther = regexp.MustCompile(`([A-Za-z][A-Za-z ]*?)\s*=\s*(\d[\d,]*(?:\.\d+)?)\s*(ms|s)?\s+vs\s+(\d[\d,]*(?:\.\d+)?)\s*(ms|s)?\s*,\s*(reduced|increased) by (\d[\d,]*(?:\.\d+)?)\s*(ms|s)?\s*\(([^)]*)\)`)
	relPercent   = regexp.MustCompile(`^\s*(\d+(?:\.\d+)?)\s*%\s*(slower|faster)?\s*$`)
	relFactor    = regexp.MustCompile(`^\s*(\d+(?:\.\d+)?)\s*x\s*(faster|slower)\s*$`)
)

// checkSummary checks a "- Summary:" line: "`A` Total TPS = x, `B` Total TPS
// = y. `A` is faster by d tok/s (p%); Mean TPOT = a ms vs b ms, reduced by
// c ms (q%)." and its latency form with "(n.nnx faster)".
func (r checker) checkSummary(printed string, sr *report.StepResult) (checked, match bool, detail string) {
	entries := summaryEntry.FindAllStringSubmatch(printed, 2)
	if len(entries) < 2 {
		return false, false, fmt.Sprintf("%q names no two runs with their values", printed)
	}
	a, b := r.summaryRun(sr, entries[0][1]), r.summaryRun(sr, entries[1][1])
	if a == nil || b == nil || r.Main == nil {
		return false, false, fmt.Sprintf("the runs %q and %q are not runs of step %s", entries[0][1], entries[1][1], sr.Step.ID)
	}
	blockA, blockB := a.Result(r.Main.ID), b.Result(r.Main.ID)
	get := func(blk *benchlog.Block, label, num, unit string) (report.Interval, printedValue, bool) {
		pv, ok := r.readValue(label, num, "", unit)
		if !ok {
			return report.Interval{}, pv, false
		}
		m, ok := report.MetricOf(blk, pv.key)
		if !ok {
			return report.Interval{}, pv, false
		}
		return report.PrintedInterval(m.Value, m.Decimals), pv, true
	}
	xa, pa, ok1 := get(blockA, entries[0][2], entries[0][3], entries[0][4])
	xb, pb, ok2 := get(blockB, entries[1][2], entries[1][3], entries[1][4])
	if !ok1 || !ok2 {
		return false, false, fmt.Sprintf("the logs of %s and %s do not give the figures of %q", a.ID, b.ID, printed)
	}
	if !xa.Holds(pa.value, pa.decimals) {
		return true, false, fmt.Sprintf("%s is printed as %s, but its log gives %s", a.Name, entries[0][3], report.FormatNumber(xa.Mid()/pa.scale, pa.decimals+int(math.Log10(pa.scale))))
	}
	if !xb.Holds(pb.value, pb.decimals) {
		return true, false, fmt.Sprintf("%s is printed as %s, but its log gives %s", b.Name, entries[1][3], report.FormatNumber(xb.Mid()/pb.scale, pb.decimals+int(math.Log10(pb.scale))))
	}
	higher := pa.key != report.MeanE2EL.Key && !strings.HasSuffix(pa.key, "_ms")
	if d := summaryDiff.FindStringSubmatch(printed); d != nil {
		if ok, why := summaryDirection(printed, entries[0][1], entries[1][1], xa, xb, higher); !ok {
			return true, false, why
		}
		diff := xa.Sub(xb).Abs().Scale(1 / pa.scale)
		if v, dec, ok := parseNumber(d[2]); ok && !diff.Holds(v, dec) {
			return true, false, fmt.Sprintf("the difference is printed as %s, but the logs give %.*f", d[2], dec, diff.Mid())
		}
		if ok, why := relCheck(d[4], xa, xb, higher); !ok {
			return true, false, why
		}
	}
	for _, o := range summaryOther.FindAllStringSubmatch(printed, -1) {
		ma, pma, ok1 := get(blockA, o[1], o[2], o[3])
		mb, pmb, ok2 := get(blockB, o[1], o[4], o[5])
		if !ok1 || !ok2 {
			return true, false, fmt.Sprintf("the logs give no %s for %s and %s", o[1], a.ID, b.ID)
		}
		if !ma.Holds(pma.value, pma.decimals) || !mb.Holds(pmb.value, pmb.decimals) {
			return true, false, fmt.Sprintf("%s is printed as %s vs %s, but the logs give %s vs %s", o[1], o[2], o[4],
				report.FormatNumber(ma.Mid()/pma.scale, pma.decimals+int(math.Log10(pma.scale))), report.FormatNumber(mb.Mid()/pmb.scale, pmb.decimals+int(math.Log10(pmb.scale))))
		}
		diff := ma.Sub(mb).Abs().Scale(1 / pma.scale)
		if v, dec, ok := parseNumber(o[7]); ok && !diff.Holds(v, dec) {
			return true, false, fmt.Sprintf("the %s difference is printed as %s, but the logs give %.*f", o[1], o[7], dec, diff.Mid())
		}
		if (o[6] == "reduced") != (ma.Mid() <= mb.Mid()) && !ma.Holds(mb.Mid(), 2) {
			return true, false, fmt.Sprintf("%s is printed as %s, but the logs say the opposite", o[1], o[6])
		}
		if ok, why := relCheck(o[9], ma, mb, false); !ok {
			return true, false, why
		}
	}
	return true, true, ""
}

// relCheck checks a relative change "(p%)", "(p% slower)" or "(fx faster)"
// of a against b: percentages are |a-b| / b, factors worse / better.
func relCheck(s string, a, b report.Interval, higherBetter bool) (bool, string) {
	if m := relPercent.FindStringSubmatch(s); m != nil {
		v, dec, _ := parseNumber(m[1])
		p := a.Sub(b).Abs().Div(b).Scale(100)
		if !p.Holds(v, dec) {
			return false, fmt.Sprintf("(%s) is printed, but the logs give %.*f%%", s, dec, p.Mid())
		}
		return true, ""
	}
	if m := relFactor.FindStringSubmatch(s); m != nil {
		v, dec, _ := parseNumber(m[1])
		f := b.Div(a) // lower is better: a is faster b/a times
		if higherBetter {
			f = a.Div(b)
		}
		if m[2] == "slower" {
			f = f.Inverse()
		}
		if !f.Holds(v, dec) {
			return false, fmt.Sprintf("(%s) is printed, but the logs give %.*fx", s, dec, f.Mid())
		}
	}
	return true, ""
}

// summaryRun is the run a summary line names: one of the step's by
// preference, else any of the study's.
func (r checker) summaryRun(sr *report.StepResult, name string) *study.Run {
	for _, id := range append(append([]string(nil), sr.Step.Runs...), sr.Step.Reference) {
		if run := r.Study.Run(id); run != nil && strings.EqualFold(strings.TrimSpace(run.Name), strings.TrimSpace(name)) {
			return run
		}
	}
	for _, run := range r.Study.Runs {
		if strings.EqualFold(run.Name, name) {
			return run
		}
	}
	return nil
}
