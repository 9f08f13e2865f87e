package claims

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/perflab/perflab/internal/benchlog"
	"github.com/perflab/perflab/internal/engine"
	"github.com/perflab/perflab/internal/report"
	"github.com/perflab/perflab/internal/study"
)

// This file checks the figures published reports print besides
// percentages: speed-up factors ("1.23x faster"), values printed for a
// configuration ("Total TPS: 3019.19x2", "Mean latency: 1.66s/req"),
// "- Summary:" lines comparing two runs, and success rates. Every check is
// Interval arithmetic: a printed figure holds when some true values inside
// the printed rounding of its inputs give it.

// number reads a printed number, thousands separators allowed.
func number(s string) (float64, int, bool) {
	s = strings.ReplaceAll(strings.TrimSpace(s), ",", "")
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, 0, false
	}
	dec := 0
	if i := strings.IndexByte(s, '.'); i >= 0 {
		dec = len(s) - i - 1
	}
	return v, dec, true
}

var speedupClaim = regexp.MustCompile(`^\(?\s*(\d+(?:\.\d+)?)\s*x\s+(faster|slower)\s*\)?$`)

// checkChange compares a printed change, a percentage or a speed-up
// factor, with a computed change.
func checkChange(printed string, c *report.Change, m report.Metric) (string, bool, string) {
	if _, _, _, ok := ParsePercent(printed); ok {
		if m.HigherBetter {
			return checkPercent(printed, c)
		}
		return checkLatencyPercent(printed, c, m)
	}
	sm := speedupClaim.FindStringSubmatch(strings.TrimSpace(printed))
	if sm == nil {
		return checkPercent(printed, c)
	}
	want, dec, _ := number(sm[1])
	from := report.PrintedInterval(c.From.Measured, c.From.Decimals).Scale(float64(c.From.Replicas))
	to := report.PrintedInterval(c.To.Measured, c.To.Decimals).Scale(float64(c.To.Replicas))
	ratio := from.Div(to) // lower is better: from/to is how many times faster
	if m.HigherBetter {
		ratio = to.Div(from)
	}
	if sm[2] == "slower" {
		ratio = ratio.Inverse()
	}
	got := c.From.Effective() / c.To.Effective()
	if m.HigherBetter {
		got = 1 / got
	}
	if sm[2] == "slower" {
		got = 1 / got
	}
	computed := fmt.Sprintf("%.*fx %s", dec, got, sm[2])
	if !ratio.Holds(want, dec) {
		return computed, false, fmt.Sprintf("published %s, but the logs give %s / %s = %s", printed, c.From.Expr(), c.To.Expr(), computed)
	}
	return computed, true, ""
}

// checkLatencyPercent checks a percentage of a lower-is-better metric in the
// convention the report used: the change new / old - 1 (negative when
// faster), a speed-up old / new - 1, or a reduction 1 - new / old (both
// positive when faster). The result names the convention.
func checkLatencyPercent(printed string, c *report.Change, m report.Metric) (string, bool, string) {
	computed, ok, detail := checkPercent(printed, c)
	if ok {
		return computed, true, ""
	}
	want, _, _, _ := ParsePercent(printed)
	if want <= 0 || !c.Better {
		return computed, false, detail
	}
	speedup := report.NewChange(m, c.To, c.From)
	if sc, ok, sd := checkPercent(printed, speedup); ok {
		return sc + " (speed-up, old / new - 1)", true, ""
	} else if reduced, ok := checkReduction(printed, c); ok {
		return reduced, true, ""
	} else {
		return sc + " (speed-up, old / new - 1)", false, sd + " (a latency speed-up, old / new - 1)"
	}
}

// checkReduction reads a positive percentage as how much lower the new
// value is: 1 - new / old.
func checkReduction(printed string, c *report.Change) (string, bool) {
	neg := "-" + strings.TrimLeft(strings.TrimSpace(printed), "+(")
	if strings.HasPrefix(strings.TrimSpace(printed), "(") {
		neg = "(" + neg
	}
	computed, ok, _ := checkPercent(neg, c)
	return strings.Replace(computed, "-", "+", 1) + " (reduction, 1 - new / old)", ok
}

// stepBest is the run a step's summary row shows: the best of the step's
// runs, which is the reference itself when the reference is one of them
// and ranks first.
func (r checker) stepBest(sr *report.StepResult) *report.RunResult {
	if sr.Reference != nil && sr.Reference.Comparable() && slices.Contains(sr.Step.Runs, sr.Step.Reference) &&
		len(sr.Ranking) > 1 && sr.Ranking[0].Run.ID == sr.Step.Reference {
		return sr.Reference
	}
	return sr.Best
}

// stepChange is the change a step's summary row shows: the best run other
// than the reference against the reference, except that a printed zero
// change ("+0.00%", "1.00x faster") says that the reference itself stayed
// the best, which holds when it ranks first among the step's runs.
func (r checker) stepChange(sr *report.StepResult, printed string) *report.Change {
	if b := r.stepBest(sr); b != nil && b == sr.Reference && printedZero(printed) {
		return report.NewChange(r.Headline, *sr.Reference.Headline, *sr.Reference.Headline)
	}
	return sr.Change
}

func printedZero(printed string) bool {
	if v, _, _, ok := ParsePercent(printed); ok {
		return v == 0
	}
	if m := speedupClaim.FindStringSubmatch(strings.TrimSpace(printed)); m != nil {
		v, _, _ := number(m[1])
		return v == 1
	}
	return false
}

var valueClaim = regexp.MustCompile(`^(?:(.*?)\s*[:=]\s*)?(\d[\d,]*(?:\.\d+)?)\s*(?:x\s*(\d+))?\s*(ms|s/req|s|tok/s)?\s*$`)

// printedValue is a figure such as "Total TPS: 3019.19x2" read into the
// metric it names and its value in that metric's unit.
type printedValue struct {
	key      string
	value    float64
	decimals int // in the metric's unit
	replicas int // 0 when not printed
	scale    float64
}

func (r checker) readValue(label, num, reps, unit string) (printedValue, bool) {
	v, dec, ok := number(num)
	if !ok {
		return printedValue{}, false
	}
	l := strings.ToLower(label)
	pv := printedValue{key: r.Headline.Key, scale: 1}
	switch {
	case strings.Contains(l, "tpot"):
		pv.key = report.MeanTPOT.Key
	case strings.Contains(l, "ttft"):
		pv.key = "mean_ttft_ms"
	case strings.Contains(l, "itl"):
		pv.key = "mean_itl_ms"
	case strings.Contains(l, "latency"):
		pv.key = report.MeanE2EL.Key
	case strings.Contains(l, "output"):
		pv.key = "output_throughput"
	case strings.Contains(l, "tps") || strings.Contains(l, "throughput"):
		pv.key = report.TotalThroughput.Key
	}
	if strings.HasSuffix(pv.key, "_ms") && (unit == "s" || unit == "s/req" || strings.Contains(l, "(s)")) {
		pv.scale = 1000
	}
	pv.value, pv.decimals = v*pv.scale, dec-int(math.Round(math.Log10(pv.scale)))
	if reps != "" {
		pv.replicas, _ = strconv.Atoi(reps)
	}
	return pv, true
}

// checkValue compares a printed value with a measured one.
func checkValue(printed string, pv printedValue, v report.Value) (string, bool, string) {
	dec := pv.decimals + int(math.Round(math.Log10(pv.scale)))
	computed := report.FormatNumber(v.Measured/pv.scale, dec)
	if pv.replicas > 0 {
		computed += fmt.Sprintf("x%d", v.Replicas)
	}
	if !report.PrintedInterval(v.Measured, v.Decimals).Holds(pv.value, pv.decimals) {
		return computed, false, fmt.Sprintf("published %s, but %s:%d gives %s", printed, v.Source.File, v.Source.Line, showValue(v))
	}
	if pv.replicas > 0 && pv.replicas != v.Replicas {
		return computed, false, fmt.Sprintf("published %s, but the run's %d GPUs fit %d times on the node", printed, v.GPUs, v.Replicas)
	}
	return computed, true, ""
}

// showValue prints a measured value as its log printed it: a latency
// printed in seconds (negative decimals in ms) in seconds.
func showValue(v report.Value) string {
	if v.Decimals < 0 && strings.HasSuffix(v.Metric, "_ms") {
		return report.FormatNumber(v.Measured/1000, v.Decimals+3) + " s"
	}
	return report.FormatNumber(v.Measured, max(v.Decimals, 0))
}

// derivedSlack is how far (a fraction) a published mean latency may sit
// from the one perflab works out from TTFT and TPOT before the mismatch is
// certain: the mean of products is not the product of means.
const derivedSlack = 0.02

// claimFamily checks the claim kinds of published reports.
func (r checker) claimFamily(c study.Claim, res *report.ClaimResult) {
	switch c.Kind {
	case study.ClaimAccuracy:
		r.checkAccuracy(c, res)
	case study.ClaimValue:
		m := valueClaim.FindStringSubmatch(strings.TrimSpace(c.Printed))
		if m == nil {
			res.Detail = fmt.Sprintf("%q is not a value perflab can read (expected a form such as \"Total TPS: 1234.56\" or \"Mean latency: 1.66s/req\")", c.Printed)
			return
		}
		pv, _ := r.readValue(m[1], m[2], m[3], m[4])
		var v *report.Value
		switch c.Config {
		case study.ConfigBaseline, study.ConfigRecommended:
			row := r.RowByWorkload(c.Workload)
			cell := (*report.Cell)(nil)
			if row != nil {
				cell = row.Optimized
				if c.Config == study.ConfigBaseline {
					cell = row.Baseline
				}
			}
			if cell != nil {
				if pv.key == report.MeanTPOT.Key && cell.TPOT != nil {
					v = cell.TPOT
				} else {
					v, _ = report.ValueOf(cell.Run, &cell.Headline, cell.Block, cell.LogFile, pv.key)
				}
			}
		default:
			sr := r.StepByID(c.Step)
			var rr *report.RunResult
			if sr != nil {
				rr = sr.Reference
				if c.Config == study.ConfigBest {
					rr = r.stepBest(sr)
				}
			}
			if rr != nil && rr.Comparable() {
				v, _ = report.ValueOf(rr.Run, rr.Headline, rr.Block, rr.LogFile, pv.key)
			}
		}
		if v == nil {
			res.Detail = fmt.Sprintf("no log gives the %s of the %s configuration", pv.key, c.Config)
			return
		}
		res.Checked = true
		res.Computed, res.Match, res.Detail = checkValue(c.Printed, pv, *v)
		if !res.Match && v.Derived && math.Abs(pv.value-v.Measured) <= derivedSlack*v.Measured {
			// The log prints no mean latency: the one perflab works out from
			// TTFT and TPOT is an approximation, so a near miss is suspect,
			// not certain.
			res.Suspect = true
			res.Detail += " (worked out from mean TTFT and TPOT, as the log prints no mean latency: an approximation)"
		}
	case study.ClaimSummary:
		sr := r.StepByID(c.Step)
		if sr == nil {
			res.Detail = fmt.Sprintf("the study has no step %s", c.Step)
			return
		}
		res.Checked, res.Match, res.Detail = r.checkSummary(c.Printed, sr)
		res.Checked = res.Checked || res.Match
	case study.ClaimSuccess:
		r.checkSuccess(c, res)
	case study.ClaimCommand:
		r.checkCommand(c, res)
	case study.ClaimTable:
		r.checkTable(c, res)
	case study.ClaimModel:
		res.Checked, res.Computed = true, r.Study.Model
		res.Match = engine.SameModel(c.Printed, r.Study.Model)
		if !res.Match {
			res.Detail = fmt.Sprintf("the report's setup names the model %s, but its title and serving commands are about %s", c.Printed, r.Study.Model)
		}
	}
}

// checkCommand: the published recommended serving command must run as the
// command of a run whose numbers the conclusion's optimized column shows.
// Commands are compared as their engine reads them: flag spellings, the
// model's organisation and flags that never change performance (--port,
// --reasoning-parser...) aside.
func (r checker) checkCommand(c study.Claim, res *report.ClaimResult) {
	want := engine.Parse(c.Printed)
	var shown []string
	var closest []string
	closestRun := ""
	for _, row := range r.Rows {
		if row.Optimized == nil {
			continue
		}
		run := row.Optimized.Run
		diff := want.Differences(engine.Parse(run.Command))
		if len(diff) == 0 || (run.CommandDerived && run.Parameters != "" && hasFlags(want, run.Parameters)) {
			res.Checked, res.Match, res.Computed = true, true, run.Command
			return
		}
		if !slices.Contains(shown, run.ID) {
			shown = append(shown, run.ID)
			if closestRun == "" || len(diff) < len(closest) {
				closest, closestRun = diff, run.ID
			}
		}
	}
	if len(shown) == 0 {
		res.Detail = "the conclusion shows no optimized result to compare the command with"
		return
	}
	res.Checked = true
	res.Computed = r.Study.Run(closestRun).Command
	res.Detail = fmt.Sprintf("the recommended command is not the command of any run whose numbers the conclusion shows (%s): against run %s it differs in %s",
		strings.Join(shown, ", "), closestRun, strings.Join(closest, ", "))
	// Leaving out flags of the measured run may be on purpose (the report
	// keeps a workload-dependent setting out of its default): a warning.
	res.Suspect = true
	for _, d := range closest {
		res.Suspect = res.Suspect && strings.HasSuffix(d, " only in the second")
	}
	if res.Suspect {
		res.Detail += "; the conclusion's optimized figures were measured with flags the recommended command leaves out"
	}
}

// hasFlags reports whether the command sets every flag of a rebuilt run's
// printed parameters as they say: a generated report prints only the flags.
func hasFlags(command engine.Command, params string) bool {
	p := engine.Parse(params)
	set := map[string]string{}
	for _, f := range command.Flags {
		set[f.Name] = f.Value
	}
	for _, f := range p.Flags {
		if v, ok := set[f.Name]; (!ok || v != f.Value) && !engine.Ignored(f.Name) {
			return false
		}
	}
	return true
}

// checkTable: a change printed in a table ("5653.4 (+46.1%)" against the
// BF16 row's 3869.3) must follow from the two printed figures, whatever
// true values their rounding allows. Latency and throughput alike are
// new / old - 1.
func (r checker) checkTable(c study.Claim, res *report.ClaimResult) {
	from, fd, ok1 := number(c.From)
	to, td, ok2 := number(c.To)
	if !ok1 || !ok2 || from == 0 {
		res.Detail = fmt.Sprintf("the figures %q and %q are not two numbers to compare", c.From, c.To)
		return
	}
	ch := report.NewChange(report.TotalThroughput, report.Value{Measured: from, Decimals: fd, Replicas: 1, GPUs: 1}, report.Value{Measured: to, Decimals: td, Replicas: 1, GPUs: 1})
	res.Checked = true
	res.Computed, res.Match, res.Detail = checkPercent(c.Printed, ch)
	if !res.Match {
		res.Detail = strings.Replace(res.Detail, "the logs give", "the table's own figures give", 1)
	}
}

var successClaim = regexp.MustCompile(`(?i)success rate:?\s*(\d+(?:\.\d+)?)\s*%`)

func (r checker) checkSuccess(c study.Claim, res *report.ClaimResult) {
	m := successClaim.FindStringSubmatch(c.Printed)
	run := r.Study.Run(c.Run)
	if m == nil || run == nil || r.Main == nil {
		res.Detail = fmt.Sprintf("%q is not a success rate of a run perflab knows", c.Printed)
		return
	}
	b := run.Result(r.Main.ID)
	done, ok := report.MetricOf(b, "completed")
	if !ok {
		res.Detail = fmt.Sprintf("run %s has no result on %s", c.Run, r.Main.ID)
		return
	}
	sent := 0.0
	if f, ok := b.Metrics["failed"]; ok {
		sent = done.Value + f.Value
	}
	if r.Main.NumPrompts > 0 {
		sent = float64(r.Main.NumPrompts)
	}
	if sent <= 0 {
		res.Detail = "neither the block nor the workload says how many requests were sent"
		return
	}
	want, dec, _ := number(m[1])
	got := done.Value / sent * 100
	res.Checked = true
	res.Computed = fmt.Sprintf("%.*f%%", dec, got)
	res.Match = report.Interval{Lo: got, Hi: got}.Holds(want, dec)
	if !res.Match {
		res.Detail = fmt.Sprintf("published %s, but %s:%d completed %s of the %.0f requests the workload sends = %s", c.Printed, b.File, done.Line, done.Raw, sent, res.Computed)
	}
}

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
	find := func(name string) *study.Run {
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
	a, b := find(entries[0][1]), find(entries[1][1])
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
		if v, dec, ok := number(d[2]); ok && !diff.Holds(v, dec) {
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
		if v, dec, ok := number(o[7]); ok && !diff.Holds(v, dec) {
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
		v, dec, _ := number(m[1])
		p := a.Sub(b).Abs().Div(b).Scale(100)
		if !p.Holds(v, dec) {
			return false, fmt.Sprintf("(%s) is printed, but the logs give %.*f%%", s, dec, p.Mid())
		}
		return true, ""
	}
	if m := relFactor.FindStringSubmatch(s); m != nil {
		v, dec, _ := number(m[1])
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

var rankUnit = regexp.MustCompile(`\d\s*(?:x\s*\d+\s*)?(ms|s|tok/s)\b`)

// sameFigure reports whether a ranking entry such as "(2054.21 tok/s)" is
// a headline as its log printed it, or "(1.66 s)" a rounding of one.
func (r checker) sameFigure(entry, num string, h *report.Value) bool {
	if report.FormatNumber(h.Measured, h.Decimals) == num {
		return true
	}
	// Printed with fewer decimals than the log: a rounding of it, either
	// way at the half (5634.45 printed as 5634.4 or 5634.5).
	if v, dec, ok := number(num); ok && dec < h.Decimals && report.PrintedInterval(h.Measured, h.Decimals).Holds(v, dec) {
		return true
	}
	// A figure in another unit than the log's (seconds for a latency
	// logged in ms, or derived) matches when it is a rounding of it.
	u := rankUnit.FindStringSubmatch(entry)
	if u == nil || u[1] != "s" || !strings.HasSuffix(h.Metric, "_ms") {
		return false
	}
	v, dec, ok := number(num)
	return ok && report.PrintedInterval(h.Measured, h.Decimals).Holds(v*1000, dec-3)
}

// checkAccuracy checks a published accuracy loss ("less than 1% accuracy
// drop") against the runs' accuracy files: the largest relative drop of a
// score the claimed run shares with the baseline configuration's first run
// must not pass it, within its printed rounding.
func (r checker) checkAccuracy(c study.Claim, res *report.ClaimResult) {
	limit, dec, _, ok := ParsePercent(c.Printed)
	if !ok {
		res.Detail = fmt.Sprintf("%q is not a percentage such as 1%%", c.Printed)
		return
	}
	run := r.Study.Run(c.Run)
	if c.Run == "" && len(r.Recommended) > 0 {
		run = r.Recommended[0]
	}
	var base *study.Run
	if len(r.Baseline) > 0 {
		base = r.Baseline[0]
	}
	if run == nil || base == nil || len(run.Accuracy) == 0 || len(base.Accuracy) == 0 {
		res.Detail = "no accuracy result to compare: add the lm-eval results (" + study.AccuracyFile + ") of the baseline and of the claimed run"
		return
	}
	worst, found := 0.0, false
	for _, q := range run.Accuracy {
		for _, b := range base.Accuracy {
			if q.Task == b.Task && q.Metric == b.Metric && b.Value != 0 {
				worst, found = max(worst, (b.Value-q.Value)/b.Value*100), true
			}
		}
	}
	if !found {
		res.Detail = fmt.Sprintf("runs %s and %s share no accuracy score to compare", base.ID, run.ID)
		return
	}
	res.Checked = true
	res.Computed = fmt.Sprintf("%.*f%%", max(dec, 1), worst)
	res.Match = worst <= math.Abs(limit)+report.HalfUnit(dec)
	if !res.Match {
		res.Detail = fmt.Sprintf("published at most %s accuracy lost, but %s scores up to %s lower than %s", c.Printed, run.ID, res.Computed, base.ID)
	}
}
