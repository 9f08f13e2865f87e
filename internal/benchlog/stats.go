package benchlog

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
)

// recompute fills a JSON block's latency statistics from its per-request
// arrays (docs/metrics.md, "Definitions by tool"): successful requests
// only (errors == ""), seconds -> ms, itls flattened; numpy's mean,
// population std and linear percentiles. A statistic the JSON has is kept as written and, for vLLM,
// compared with the recomputed one: a difference is a problem (the file was
// edited or mixes runs). A statistic it lacks is added with the definition
// Recomputed. The samples are kept in Block.Requests.
func (s *Scanner) recompute(b *Block, o *jsonObj) {
	ttfts, ok := o.floats["ttfts"]
	if !ok {
		return
	}
	n := len(ttfts)
	ok = func() bool {
		for _, k := range []string{"input_lens", "output_lens", "latencies", "e2els"} {
			if v, has := o.floats[k]; has && len(v) != n {
				b.Problems = append(b.Problems, &SyntaxError{File: s.name, Line: o.floatLine[k],
					Msg: fmt.Sprintf("%s has %d entries but ttfts has %d; nothing recomputed from the per-request arrays", k, len(v), n)})
				return false
			}
		}
		if o.itls != nil && len(o.itls) != n || o.errs != nil && len(o.errs) != n {
			b.Problems = append(b.Problems, &SyntaxError{File: s.name, Line: o.floatLine["ttfts"],
				Msg: "itls or errors do not have one entry per request; nothing recomputed from the per-request arrays"})
			return false
		}
		return true
	}()
	if !ok {
		return
	}
	lat := o.floats["latencies"]
	if lat == nil {
		lat = o.floats["e2els"]
	}
	outs := o.floats["output_lens"]
	ins := o.floats["input_lens"]
	rd := &RequestData{Count: n, TTFT: make([]float64, 0, n)}
	if lat != nil || o.itls != nil {
		rd.E2EL = make([]float64, 0, n)
	}
	if outs != nil {
		rd.OutputLens, rd.TPOT = make([]int, 0, n), make([]float64, 0, n)
	}
	if ins != nil {
		rd.InputLens = make([]int, 0, n)
	}
	gaps := 0
	for _, g := range o.itls {
		gaps += len(g)
	}
	itl := make([]float64, 0, gaps)
	e2elOK := lat != nil || o.itls != nil
	for i := 0; i < n; i++ {
		if o.errs != nil && o.errs[i] != nil && *o.errs[i] != "" {
			rd.Failed++
			continue
		}
		ttft := ttfts[i] * 1000
		rd.TTFT = append(rd.TTFT, ttft)
		var e2el float64
		switch {
		case lat != nil:
			e2el = lat[i] * 1000
		case o.itls != nil && (len(o.itls[i]) > 0 || outs == nil || outs[i] <= 1):
			sum := ttfts[i]
			for _, g := range o.itls[i] {
				sum += g
			}
			e2el = sum * 1000
		default:
			e2elOK = false
		}
		if e2elOK {
			rd.E2EL = append(rd.E2EL, e2el)
		}
		if outs != nil {
			rd.OutputLens = append(rd.OutputLens, int(outs[i]))
			if outs[i] > 1 && e2elOK {
				rd.TPOT = append(rd.TPOT, (e2el-ttft)/(outs[i]-1))
			}
		}
		if ins != nil {
			rd.InputLens = append(rd.InputLens, int(ins[i]))
		}
		if o.itls != nil {
			for _, g := range o.itls[i] {
				itl = append(itl, g*1000)
			}
		}
	}
	if !e2elOK {
		rd.E2EL, rd.TPOT = nil, nil
	}
	rd.ITLs = len(itl)
	b.Requests = rd
	check := b.Tool == ToolVLLM && o.errs != nil
	s.fillStats(b, "ttft", rd.TTFT, o.floatLine["ttfts"], check)
	if outs != nil && e2elOK {
		s.fillStats(b, "tpot", rd.TPOT, o.floatLine["output_lens"], check)
	}
	if e2elOK {
		line := o.floatLine["latencies"]
		if line == 0 {
			line = o.floatLine["e2els"]
		}
		if line == 0 {
			line = o.floatLine["itls"]
		}
		s.fillStats(b, "e2el", rd.E2EL, line, check)
	}
	if o.itls != nil {
		s.fillStats(b, "itl", itl, o.floatLine["itls"], check)
	}
}

// fillStats adds or checks the statistics of one metric.
func (s *Scanner) fillStats(b *Block, name string, x []float64, line int, check bool) {
	if len(x) == 0 {
		return
	}
	sorted := slices.Clone(x)
	slices.Sort(sorted)
	mean, std := meanStd(x)
	stats := map[string]float64{
		"mean": mean, "std": std, "median": percentile(sorted, 50),
		"min": sorted[0], "max": sorted[len(sorted)-1],
	}
	for _, p := range []float64{25, 50, 75, 90, 95, 99, 99.9} {
		stats["p"+strconv.FormatFloat(p, 'f', -1, 64)] = percentile(sorted, p)
	}
	// Percentiles the JSON has that are not in the list above.
	suffix := "_" + name + "_ms"
	for k := range b.Metrics {
		if strings.HasSuffix(k, suffix) && strings.HasPrefix(k, "p") {
			q := strings.TrimSuffix(k, suffix)
			if f, err := strconv.ParseFloat(q[1:], 64); err == nil && f >= 0 && f <= 100 {
				stats[q] = percentile(sorted, f)
			}
		}
	}
	for _, st := range slices.Sorted(maps.Keys(stats)) {
		v := stats[st]
		if math.IsNaN(v) || math.IsInf(v, 0) {
			continue // samples out of range (1e308 s)
		}
		key := st + suffix
		if m, ok := b.Metrics[key]; ok {
			tol := 0.5*math.Pow10(-m.Decimals) + 1e-6*math.Abs(v) + 1e-9
			if check && math.Abs(m.Value-v) > tol {
				b.Problems = append(b.Problems, &SyntaxError{File: s.name, Line: m.Line,
					Msg: fmt.Sprintf("%s is %s in the JSON but %.6f from the per-request arrays of line %d: the file was edited or mixes two runs", key, m.Raw, v, line)})
			}
			continue
		}
		switch st {
		case "mean", "std", "median", "min", "max", "p90", "p95", "p99":
		default:
			continue // other percentiles only when the JSON has them
		}
		b.Metrics[key] = Metric{Value: v, Decimals: 6, Line: line, Raw: strconv.FormatFloat(v, 'f', 6, 64)}
		setDefinition(b, key, Recomputed)
	}
}

// meanStd returns the mean and the population standard deviation (numpy's
// np.mean, np.std).
func meanStd(x []float64) (mean, std float64) {
	for _, v := range x {
		mean += v
	}
	mean /= float64(len(x))
	var ss float64
	for _, v := range x {
		d := v - mean
		ss += d * d
	}
	return mean, math.Sqrt(ss / float64(len(x)))
}

// percentile is numpy's default (linear) percentile of sorted data.
func percentile(sorted []float64, p float64) float64 {
	n := len(sorted)
	if n == 1 {
		return sorted[0]
	}
	h := p / 100 * float64(n-1)
	lo := int(math.Floor(h))
	if lo >= n-1 {
		return sorted[n-1]
	}
	if lo < 0 {
		return sorted[0]
	}
	t := h - float64(lo)
	a, c := sorted[lo], sorted[lo+1]
	if t >= 0.5 {
		return c - (c-a)*(1-t)
	}
	return a + (c-a)*t
}
