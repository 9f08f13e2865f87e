package benchlog

import (
	"strings"
)

// GenAI-Perf and AIPerf (docs/metrics.md, "Outputs perflab reads") print
// one row per metric, "<Name> (<unit>)", with one column per statistic
// (avg, min, max, p99 ... std, sum) or a single value. nvMetric maps a row to canonical keys.

// nvKind says how a row's statistics become keys.
type nvKind int

const (
	nvNone    nvKind = iota
	nvLatency        // <stat>_<base>_ms; avg -> mean, p50 -> also median
	nvLength         // mean_<base> for avg, <stat>_<base> otherwise, sum -> total_*
	nvPerUser        // <base> for avg, <stat>_<base> otherwise
	nvSingle         // only the avg (or Value) cell, as <base>
)

type nvRow struct {
	base string
	kind nvKind
	sum  string // key of the sum column (nvLength)
}

// nvRows maps lower-case row names without their unit.
var nvRows = map[string]nvRow{
	"time to first token":              {"ttft", nvLatency, ""},
	"time to second token":             {"ttst", nvLatency, ""},
	"time to first output token":       {"ttfot", nvLatency, ""},
	"request latency":                  {"e2el", nvLatency, ""},
	"inter token latency":              {"tpot", nvLatency, ""}, // (latency - TTFT)/(OSL - 1): vLLM's TPOT, not its ITL
	"output token throughput per user": {"output_throughput_per_user", nvPerUser, ""},
	"output sequence length":           {"output_len", nvLength, "total_output_tokens"},
	"input sequence length":            {"input_len", nvLength, "total_input_tokens"},
	"num output token":                 {"output_len", nvLength, "total_output_tokens"}, // Mar 2024
	"num input token":                  {"input_len", nvLength, "total_input_tokens"},
	"output token throughput":          {"output_throughput", nvSingle, ""},
	"request throughput":               {"request_throughput", nvSingle, ""},
	"request goodput":                  {"request_goodput", nvSingle, ""},
	"goodput":                          {"request_goodput", nvSingle, ""},
	"request count":                    {"completed", nvSingle, ""},
	"error request count":              {"failed", nvSingle, ""},
	"benchmark duration":               {"duration", nvSingle, ""},
	"total output sequence length":     {"total_output_tokens", nvSingle, ""},
	"total input sequence length":      {"total_input_tokens", nvSingle, ""},
}

// splitUnit splits "Time To First Token (ms)" into its lower-case name and
// unit; "Output Token Throughput (per sec)" has unit "per sec".
func splitUnit(label string) (name, unit string) {
	label = strings.TrimSpace(label)
	if strings.HasSuffix(label, ")") {
		if i := strings.LastIndexByte(label, '('); i > 0 {
			unit = strings.TrimSpace(label[i+1 : len(label)-1])
			label = label[:i]
		}
	}
	return normLabel([]byte(label)), strings.ToLower(unit)
}

// nvStat normalises a statistic's name, from a table column or a
// trtllm-bench key: avg, average -> mean; minimum, maximum -> min, max;
// 99% -> p99 (EvalScope's and vLLM's multi-turn columns); p99, min, max,
// std, sum, value kept; anything else (adj_p95) -> "".
func nvStat(col string) string {
	col = strings.ToLower(strings.TrimSpace(col))
	if p, ok := strings.CutSuffix(col, "%"); ok {
		col = "p" + p
	}
	switch col {
	case "avg", "mean", "average":
		return "mean"
	case "minimum":
		return "min"
	case "maximum":
		return "max"
	case "min", "max", "std", "sum", "median", "value":
		return col
	}
	if isPercentile(col) {
		return col
	}
	return ""
}

// nvKeys returns the canonical keys of one cell of a row and the key spec
// for its unit; none if the cell has no canonical key.
func nvKeys(name, unit, stat string) ([]string, keySpec) {
	row, ok := nvRows[name]
	if !ok || stat == "" {
		return nil, keySpec{}
	}
	return nvRowKeys(row, unit, stat)
}

// nvRowKeys is nvKeys for a known row.
func nvRowKeys(row nvRow, unit, stat string) ([]string, keySpec) {
	spec := keySpec{}
	switch unit {
	case "ns", "ms", "us":
		spec.unit, spec.from = "ms", unit
	case "sec", "s", "seconds":
		spec.unit, spec.from = "s", "s"
	}
	if stat == "value" {
		stat = "mean"
	}
	switch row.kind {
	case nvLatency:
		if spec.unit == "" {
			spec.unit, spec.from = "ms", "ms"
		}
		if stat == "sum" {
			return nil, spec
		}
		k := stat + "_" + row.base + "_ms"
		if stat == "p50" {
			return []string{k, "median_" + row.base + "_ms"}, spec
		}
		return []string{k}, spec
	case nvLength:
		switch stat {
		case "sum":
			return []string{row.sum}, spec
		case "p50":
			return []string{"p50_" + row.base, "median_" + row.base}, spec
		}
		return []string{stat + "_" + row.base}, spec
	case nvPerUser:
		if stat == "mean" {
			return []string{row.base}, spec
		}
		if stat == "sum" {
			return nil, spec
		}
		return []string{stat + "_" + row.base}, spec
	case nvSingle:
		if stat != "mean" {
			return nil, spec
		}
		if row.base == "duration" && spec.unit == "" {
			spec.unit, spec.from = "s", "s"
		}
		return []string{row.base}, spec
	}
	return nil, spec
}

// nvCell reads one printed cell: "1,146.31", "13,266,974", "N/A", "".
// Thousands separators are dropped.
func nvCell(cell string) (string, bool) {
	cell = strings.TrimSpace(cell)
	if nullValues[strings.ToLower(cell)] {
		return "", false
	}
	if strings.IndexByte(cell, ',') >= 0 {
		cell = strings.ReplaceAll(cell, ",", "")
	}
	return cell, true
}

// nvDefinitions marks the per-user throughput rows as per-request means.
func nvDefinitions(b *Block) {
	for k := range b.Metrics {
		if strings.HasSuffix(k, "output_throughput_per_user") {
			if b.Definitions == nil {
				b.Definitions = map[string]Definition{}
			}
			b.Definitions[k] = PerRequestMean
		}
	}
}

// addCell adds the metric of one cell to b; problems for cells that should
// be numbers and are not. It reports whether the row has a canonical key.
func addCell(b *Block, name, unit, stat, cell string, line int) bool {
	keys, spec := nvKeys(name, unit, stat)
	if len(keys) == 0 {
		_, known := nvRows[name]
		return known
	}
	num, ok := nvCell(cell)
	if !ok {
		return true
	}
	for _, k := range keys {
		spec.key = k
		m, ok := makeMetric(spec, num, line)
		if !ok {
			b.Problems = append(b.Problems, &SyntaxError{File: b.File, Line: line,
				Msg: "value " + quote(cell) + " is not a number; no " + k + " read"})
			return true
		}
		m.Raw = cell
		if _, dup := b.Metrics[k]; !dup {
			b.Metrics[k] = m
		}
	}
	return true
}

func quote(s string) string { return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"` }
