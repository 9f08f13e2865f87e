package benchlog

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// Where a tool prints a time without its unit, the unit comes from the
// tool's layout; unitIdentities cross-checks it against identities that
// hold in any unit system, and a latency that breaks one is reported on its
// line and not filed: a missing value is better than one 1000x off.
//
//   - per request e2e latency >= TTFT, so every statistic of the e2e
//     latency (mean, min, max, each percentile) is >= the same one of TTFT;
//   - within one latency: min <= mean <= max, and percentiles rise;
//   - output throughput x duration ~ mean output length x completed.

// latencyBases are the latency key bases the identities cover.
var latencyBases = []string{"ttft", "tpot", "itl", "e2el"}

// latencyStats returns b's statistics of one latency: stat -> metric key.
func latencyStats(b *Block, base string) map[string]string {
	out := map[string]string{}
	suffix := "_" + base + "_ms"
	for k := range b.Metrics {
		if stat, ok := strings.CutSuffix(k, suffix); ok && !strings.Contains(stat, "_") {
			out[stat] = k
		}
	}
	return out
}

// pctRank returns the percentile of a "pNN" stat, 0 for min, 100 for max;
// ok false for other stats.
func pctRank(stat string) (float64, bool) {
	switch stat {
	case "min":
		return 0, true
	case "max":
		return 100, true
	case "median":
		return 50, true
	}
	if len(stat) > 1 && stat[0] == 'p' {
		v, err := strconv.ParseFloat(stat[1:], 64)
		return v, err == nil && v >= 0 && v <= 100
	}
	return 0, false
}

// unitIdentities drops, with a problem on their lines, the latencies of b
// that break an identity.
func unitIdentities(b *Block, tool string) {
	bad := map[string]string{} // key -> why
	for _, base := range latencyBases {
		orderIdentity(b, latencyStats(b, base), bad)
	}
	ttft, e2el := latencyStats(b, "ttft"), latencyStats(b, "e2el")
	for stat, tk := range ttft {
		ek, ok := e2el[stat]
		if ok && b.Metrics[ek].Value < b.Metrics[tk].Value {
			why := fmt.Sprintf("%s e2e latency is below the %s TTFT", stat, stat)
			bad[ek], bad[tk] = why, why
		}
	}
	tokensIdentity(b, bad)
	for k, why := range bad {
		if base, ok := strings.CutPrefix(k, "p50_"); ok {
			bad["median_"+base] = why // the same value under its other name
		}
	}
	keys := make([]string, 0, len(bad))
	for k := range bad {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		m := b.Metrics[k]
		b.Problems = append(b.Problems, &SyntaxError{File: b.File, Line: m.Line,
			Msg: fmt.Sprintf("%s %s %s: %s, so the unit %s printed it in cannot be decided and it is not read; check the line against the run", tool, k, m.Raw, bad[k], tool)})
		delete(b.Metrics, k)
	}
}

// orderIdentity marks the statistics of one latency that are out of order.
func orderIdentity(b *Block, stats map[string]string, bad map[string]string) {
	type point struct {
		rank float64
		key  string
	}
	var pts []point
	for stat, k := range stats {
		if _, dup := stats["p50"]; dup && stat == "median" {
			continue
		}
		if r, ok := pctRank(stat); ok {
			pts = append(pts, point{r, k})
		}
	}
	sort.Slice(pts, func(i, j int) bool { return pts[i].rank < pts[j].rank })
	for i := 1; i < len(pts); i++ {
		lo, hi := b.Metrics[pts[i-1].key], b.Metrics[pts[i].key]
		if pts[i].rank > pts[i-1].rank && hi.Value < lo.Value {
			why := "its percentiles fall as they rise"
			bad[pts[i-1].key], bad[pts[i].key] = why, why
		}
	}
	mean, ok := stats["mean"]
	if !ok || len(pts) == 0 {
		return
	}
	v := b.Metrics[mean].Value
	if lo, ok := stats["min"]; ok && v < b.Metrics[lo].Value {
		bad[mean] = "the mean is below the minimum"
	}
	if hi, ok := stats["max"]; ok && v > b.Metrics[hi].Value {
		bad[mean] = "the mean is above the maximum"
	}
}

// tokensIdentity checks output throughput x duration against the output
// tokens of the completed requests (5 % for the rounding of the printed
// values).
func tokensIdentity(b *Block, bad map[string]string) {
	thr, ok1 := b.Metrics["output_throughput"]
	dur, ok2 := b.Metrics["duration"]
	n, ok3 := b.Metrics["completed"]
	mean, ok4 := b.Metrics["mean_output_len"]
	if !ok1 || !ok2 || !ok3 || !ok4 || n.Value <= 0 || mean.Value <= 0 {
		return
	}
	tokens := n.Value * mean.Value
	if math.Abs(thr.Value*dur.Value-tokens) > 0.05*tokens {
		bad["duration"] = "output throughput x duration is not the output tokens of the completed requests"
	}
}
