package claims

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/perflab/perflab/internal/report"
	"github.com/perflab/perflab/internal/study"
)

// parseNumber reads a printed number, thousands separators allowed.
func parseNumber(s string) (float64, int, bool) {
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
	v, dec, ok := parseNumber(num)
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

// checkValueClaim checks a value printed for a configuration: "Total TPS:
// 3019.19x2" for the recommended one, "Mean latency: 1.66s/req" for a
// step's best.
func (r checker) checkValueClaim(c study.Claim, res *Result) {
	m := valueClaim.FindStringSubmatch(strings.TrimSpace(c.Printed))
	if m == nil {
		res.Detail = fmt.Sprintf("%q is not a value perflab can read (expected a form such as \"Total TPS: 1234.56\" or \"Mean latency: 1.66s/req\")", c.Printed)
		return
	}
	pv, _ := r.readValue(m[1], m[2], m[3], m[4])
	v := r.configValue(c, pv.key)
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
}

// configValue is the value of key in the configuration a value claim names:
// the baseline or recommended cell of its workload, or its step's
// reference or best run; nil when no log gives it.
func (r checker) configValue(c study.Claim, key string) (v *report.Value) {
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
			if key == report.MeanTPOT.Key && cell.TPOT != nil {
				v = cell.TPOT
			} else {
				v, _ = report.ValueOf(cell.Run, &cell.Headline, cell.Block, cell.LogFile, key)
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
			v, _ = report.ValueOf(rr.Run, rr.Headline, rr.Block, rr.LogFile, key)
		}
	}
	return v
}

// asShown widens a change's inputs to the precision the report prints its
// metric with elsewhere (a latency logged as 1685.23 ms and printed as
// 1.68 s), so a percentage worked out from the printed figures holds.
func (r checker) asShown(c *report.Change) *report.Change {
	dec, ok := r.shownDecimals(c.From.Metric)
	if !ok || dec >= c.From.Decimals && dec >= c.To.Decimals {
		return c
	}
	w := *c
	w.From.Decimals, w.To.Decimals = min(w.From.Decimals, dec), min(w.To.Decimals, dec)
	return &w
}

// shownDecimals is the fewest decimals, in the log's unit, that the
// report's value claims print a metric with.
func (r checker) shownDecimals(key string) (int, bool) {
	best, found := 0, false
	for _, cl := range r.Study.Claims {
		if cl.Kind != study.ClaimValue {
			continue
		}
		m := valueClaim.FindStringSubmatch(strings.TrimSpace(cl.Printed))
		if m == nil {
			continue
		}
		if pv, ok := r.readValue(m[1], m[2], m[3], m[4]); ok && pv.key == key && (!found || pv.decimals < best) {
			best, found = pv.decimals, true
		}
	}
	return best, found
}
