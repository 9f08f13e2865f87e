package benchlog

import (
	"bytes"
	"strings"
)

// vllm-omni (vllm-project/vllm-omni, vllm_omni/benchmarks/metrics/metrics.py
// print_metrics) prints vLLM's "Serving Benchmark Result" table split by
// sub-banners centred in '=' like the banner: the run's lines (requests,
// duration, request throughput, peak concurrent requests, E2EL), then
// " Text Result " (Total input tokens, Total generated tokens, token
// throughputs, Peak concurrent requests again, TTFT / TPOT / ITL
// sections), " Audio Result ", " Image Result ", " Video Result " (their
// totals, throughputs and AUDIO_TTFP / RTF / ... sections, kept as labels),
// and with --print-stage " Stage Benchmark Result " and " Stage N (name) "
// sections that repeat the labels for one pipeline stage: those are kept as
// labels only, never as the run's metrics. One closing rule of '=' ends the
// whole table. FormatVLLMOmni: a block with such a sub-banner.

// subBanner reads a sub-banner line of a banner block ("======= Text Result
// ========"); false if text is not one.
func (s *Scanner) subBanner(text []byte) bool {
	if len(text) < 8 || text[0] != '=' || text[len(text)-1] != '=' {
		return false
	}
	t := bytes.TrimRight(bytes.TrimLeft(text, "="), "=")
	if len(text)-len(bytes.TrimLeft(text, "=")) < 3 || len(text)-len(bytes.TrimRight(text, "=")) < 3 {
		return false
	}
	title := string(bytes.TrimSpace(t))
	if !strings.HasSuffix(title, " Result") && !strings.HasPrefix(title, "Stage ") || strings.IndexByte(title, '=') >= 0 {
		return false // only vllm-omni's titles, not "!FAILED REQUESTS!"
	}
	s.cur.EndLine = s.line
	s.marks.omni, s.marks.headered = true, true
	s.decodeSec = false
	if strings.HasPrefix(title, "Stage ") {
		s.omniStage = true
	}
	return true
}
