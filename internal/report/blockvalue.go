package report

import (
	"fmt"

	"github.com/perflab/perflab/internal/benchlog"
	"github.com/perflab/perflab/internal/study"
)

// DerivedMeanLatency is a block's mean request latency when it prints no
// end-to-end latency: mean TTFT + mean TPOT x (generated tokens / requests
// - 1), in ms, with the decimals of the coarser of TTFT and TPOT.
func DerivedMeanLatency(b *benchlog.Block) (benchlog.Metric, bool) {
	ttft, ok1 := b.Metrics["mean_ttft_ms"]
	tpot, ok2 := b.Metrics["mean_tpot_ms"]
	out, ok3 := b.Metrics["total_output_tokens"]
	n, ok4 := b.Metrics["completed"]
	if !ok1 || !ok2 || !ok3 || !ok4 || n.Value <= 0 {
		return benchlog.Metric{}, false
	}
	v := ttft.Value + tpot.Value*(out.Value/n.Value-1)
	dec := min(ttft.Decimals, tpot.Decimals)
	// TPOT's rounding is multiplied by the tokens per request.
	for HalfUnit(dec) < HalfUnit(tpot.Decimals)*(out.Value/n.Value-1)+HalfUnit(ttft.Decimals) && dec > -6 {
		dec--
	}
	return benchlog.Metric{Value: v, Decimals: dec, Line: ttft.Line,
		Raw: fmt.Sprintf("%s + %s x (%s / %s - 1)", ttft.Raw, tpot.Raw, out.Raw, n.Raw)}, true
}

// MetricOf is a block's metric, the mean latency derived when not printed.
func MetricOf(b *benchlog.Block, key string) (benchlog.Metric, bool) {
	if b == nil {
		return benchlog.Metric{}, false
	}
	if m, ok := b.Metrics[key]; ok {
		return m, true
	}
	if key == MeanE2EL.Key {
		return DerivedMeanLatency(b)
	}
	return benchlog.Metric{}, false
}

// ValueOf reads a metric of a run result as a Value: the headline when
// key is its metric.
func ValueOf(run *study.Run, headline *Value, block *benchlog.Block, file, key string) (*Value, bool) {
	if headline != nil && key == headline.Metric {
		return headline, true
	}
	m, ok := MetricOf(block, key)
	if !ok || run == nil {
		return nil, false
	}
	return &Value{Run: run.ID, Metric: key, Measured: m.Value, Decimals: m.Decimals, Replicas: 1, GPUs: run.GPUs,
		Source: Source{File: file, Line: m.Line}, Derived: derived(block, key)}, true
}
