package downloads

import (
	"bytes"
	"encoding/json"
	"path"
	"strconv"
	"strings"

	"github.com/perflab/perflab/internal/benchlog"
	"github.com/perflab/perflab/internal/check"
	"github.com/perflab/perflab/internal/study"
)

// Every result block of a study is also written as an llm-d Benchmark
// Report v0.2.1 (docs/downloads.md): data/<study>/reports/<run>/<log>.json,
// one per (run, workload, load, repeat), that is one per log, or one per
// block (<log>.block-<n>.json) for a log of a tool that prints several. The
// schema forbids keys it does not declare everywhere but under
// results.observability, so perflab's own data (where each figure comes
// from, the checks, the claims and the intervals) is written there, under
// "metadata".

// brVersion is the schema version written.
const brVersion = "0.2.1"

// brStat is a Benchmark Report statistics object; only set fields are
// written.
type brStat struct {
	Units  string   `json:"units"`
	Mean   float64  `json:"mean"`
	Stddev *float64 `json:"stddev,omitempty"`
	Min    *float64 `json:"min,omitempty"`
	P0p1   *float64 `json:"p0p1,omitempty"`
	P1     *float64 `json:"p1,omitempty"`
	P5     *float64 `json:"p5,omitempty"`
	P10    *float64 `json:"p10,omitempty"`
	P25    *float64 `json:"p25,omitempty"`
	P50    *float64 `json:"p50,omitempty"`
	P75    *float64 `json:"p75,omitempty"`
	P90    *float64 `json:"p90,omitempty"`
	P95    *float64 `json:"p95,omitempty"`
	P99    *float64 `json:"p99,omitempty"`
	P99p9  *float64 `json:"p99p9,omitempty"`
	Max    *float64 `json:"max,omitempty"`
}

// latencyStat builds the statistics of one latency from a block's
// <stat>_<base>_ms keys; nil without a mean (the schema requires it).
func latencyStat(b *benchlog.Block, base, units string) *brStat {
	v := func(stat string) *float64 {
		if m, ok := b.Metrics[stat+"_"+base+"_ms"]; ok {
			x := m.Value
			return &x
		}
		return nil
	}
	mean := v("mean")
	if mean == nil {
		return nil
	}
	s := &brStat{Units: units, Mean: *mean, Stddev: v("std"), Min: v("min"), P0p1: v("p0.1"), P1: v("p1"),
		P5: v("p5"), P10: v("p10"), P25: v("p25"), P50: v("median"), P75: v("p75"), P90: v("p90"),
		P95: v("p95"), P99: v("p99"), P99p9: v("p99.9"), Max: v("max")}
	if s.P50 == nil {
		s.P50 = v("p50")
	}
	return s
}

// meanStat is a statistics object of one mean; nil when the block has no
// value for key.
func meanStat(b *benchlog.Block, key, units string) *brStat {
	if m, ok := b.Metrics[key]; ok {
		return &brStat{Units: units, Mean: m.Value}
	}
	return nil
}

// brAggregate builds results.request_performance.aggregate of a block;
// nil when the block has none of its figures. Latencies are in
// perflab's ms (per token for TPOT and ITL); each throughput is a
// statistics object with its mean only.
func brAggregate(b *benchlog.Block) *brAggregateDoc {
	agg := &brAggregateDoc{Requests: brRequests(b)}
	lat := brLatency{
		TimeToFirstToken:   latencyStat(b, "ttft", "ms"),
		TimePerOutputToken: latencyStat(b, "tpot", "ms/token"),
		InterTokenLatency:  latencyStat(b, "itl", "ms/token"),
		RequestLatency:     latencyStat(b, "e2el", "ms"),
	}
	if lat != (brLatency{}) {
		agg.Latency = &lat
	}
	tp := brThroughput{
		InputTokenRate:  meanStat(b, "input_throughput", "tokens/s"),
		OutputTokenRate: meanStat(b, "output_throughput", "tokens/s"),
		TotalTokenRate:  meanStat(b, "total_token_throughput", "tokens/s"),
		RequestRate:     meanStat(b, "request_throughput", "queries/s"),
	}
	if tp != (brThroughput{}) {
		agg.Throughput = &tp
	}
	if agg.Latency == nil && agg.Throughput == nil && agg.Requests == nil {
		return nil
	}
	return agg
}

// brRequests builds the request counts: total is what was sent (the
// requests asked for, else completed and failed together); none when the
// block does not tell how many were sent.
func brRequests(b *benchlog.Block) *brRequestsDoc {
	total, ok := b.Metrics["num_prompts"]
	failed, hasFailed := b.Metrics["failed"]
	if !ok {
		done, okDone := b.Metrics["completed"]
		if !okDone || !hasFailed {
			return nil
		}
		total = benchlog.Metric{Value: done.Value + failed.Value}
	}
	req := &brRequestsDoc{Total: int64(total.Value), InputLength: meanStat(b, "mean_input_len", "count"),
		OutputLength: meanStat(b, "mean_output_len", "count")}
	if hasFailed {
		n := int64(failed.Value)
		req.Failures = &n
	}
	return req
}

// isoDuration writes seconds as an ISO-8601 duration ("PT90.5S").
func isoDuration(sec float64) string {
	return "PT" + strconv.FormatFloat(sec, 'f', -1, 64) + "S"
}

// marshalReport writes a report as one line of JSON with a final newline,
// without HTML escaping (the texts are data, read by programs). Indenting
// took a third of the reports' time.
func marshalReport(doc any) ([]byte, error) {
	var buf bytes.Buffer
	buf.Grow(8 << 10)
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// BenchReportName is the download path of the report of block bi of a log:
// data/<study>/reports/<run>/<log stem>.json, with .block-<bi+1> before
// .json when the log has more than one block; "" for a name it cannot use.
func BenchReportName(studyID, runID string, lg *study.Log, bi int) string {
	base := path.Base(lg.File)
	stem := strings.TrimSuffix(base, path.Ext(base))
	for _, part := range []string{studyID, runID, stem} {
		if part == "" || strings.HasPrefix(part, ".") || strings.ContainsAny(part, `/\`) {
			return ""
		}
	}
	if len(lg.Blocks) > 1 {
		stem += ".block-" + strconv.Itoa(bi+1)
	}
	return "data/" + studyID + "/reports/" + runID + "/" + stem + ".json"
}

// AddBenchReports adds the Benchmark Reports of a checked study.
func AddBenchReports(files Output, res check.Result, root string) error {
	s := res.Study
	for _, run := range s.Runs {
		for li := range run.Logs {
			lg := &run.Logs[li]
			for bi := range lg.Blocks {
				b := &lg.Blocks[bi]
				name := BenchReportName(s.ID, run.ID, lg, bi)
				if name == "" || b.Format == benchlog.FormatError {
					continue
				}
				data, err := marshalReport(benchReport(res, run, lg, bi, root))
				if err != nil {
					return err
				}
				if err := files.Add(name, data); err != nil {
					return err
				}
			}
		}
	}
	return nil
}
