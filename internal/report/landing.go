package report

import (
	"strconv"
	"strings"
)

// MainFigure is what the landing page may set beside other studies'
// figures: the recommended configuration's headline on the main workload,
// per GPU for a throughput, and the workload as measured. Gains against a
// study's own baseline are never compared across studies.
type MainFigure struct {
	Metric Metric
	// Figure is the headline per GPU (a throughput) or as measured (a
	// latency, per request); Decimals as its log printed it.
	Figure   float64
	Decimals int
	PerGPU   bool
	Run      string // the recommended configuration's name
	// The workload as measured: its dataset and lengths, and the load the
	// recommended configuration's log prints (LoadKey "" when none).
	Dataset             string
	InputLen, OutputLen int
	LoadKey, Load       string
}

// MainFigure gives the recommended configuration's figure on the main
// workload; nil without one.
func (r *Report) MainFigure() *MainFigure {
	if r.Main == nil || len(r.Recommended) == 0 {
		return nil
	}
	row := r.RowByWorkload(r.Main.ID)
	if row == nil || row.Optimized == nil {
		return nil
	}
	v := row.Optimized.Headline
	m := &MainFigure{Metric: r.Headline, Figure: v.Measured, Decimals: v.Decimals, Run: row.Optimized.Run.Name,
		Dataset: r.Main.Dataset, InputLen: r.Main.InputLen, OutputLen: r.Main.OutputLen}
	if r.Headline.HigherBetter && v.GPUs > 0 {
		m.Figure, m.PerGPU = v.PerGPU(), true
	}
	for _, key := range []string{"max_concurrency", "request_rate"} {
		if text, ok := metricText(row.Optimized.Block, key); ok {
			m.LoadKey, m.Load = key, text
			break
		}
	}
	if m.LoadKey == "" && r.Main.MaxConcurrency != nil {
		m.LoadKey, m.Load = "max_concurrency", strconv.Itoa(*r.Main.MaxConcurrency)
	}
	return m
}

// Matches is the key two studies' figures must share to be set side by
// side: the GPU model, the metric and the workload as measured.
func (m *MainFigure) Matches(gpu string) string {
	return strings.Join([]string{gpu, m.Metric.Key, m.Dataset, strconv.Itoa(m.InputLen), strconv.Itoa(m.OutputLen), m.LoadKey, m.Load}, "\x00")
}
