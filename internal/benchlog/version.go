package benchlog

import "strings"

// An era is a release (or period) from which on a label is printed.
type era struct {
	label   string // normalised label, or a key prefix after "key:"
	version string
}

// vllmEras are in release order; a block is dated by the latest it shows
// (docs/metrics.md, "Outputs perflab reads": every release since v0.4).
var vllmEras = []era{
	{"key:mean_e2el_ms", "v0.5.5+ (E2EL section)"},
	{"Total Token throughput (tok/s)", "v0.6.0+ (Total Token throughput)"},
	{"request goodput (req/s)", "v0.6.4+ (goodput)"},
	{"maximum request concurrency", "v0.10.0+ (concurrency in the table)"},
	{"peak output token throughput (tok/s)", "v0.10.2+ (peak metrics)"},
	{"failed requests", "v0.11.1+ (Failed requests)"},
	{"Total token throughput (tok/s)", "v0.13+ (Total token throughput)"},
	{"acceptance rate (%)", "2026 (speculative decoding section)"},
	{"probe requests completed", "2026 (probe section)"},
	{"committed throughput (tok/s)", "2026 (diffusion decoding section)"},
}

var sglangEras = []era{
	{"total throughput (tok/s)", "mid-2024 (Total throughput)"},
	{"max reqeuest concurrency", "v0.4.0-v0.4.1 (Max reqeuest concurrency)"},
	{"total token throughput (tok/s)", "late 2024+ (Total token throughput)"},
	{"concurrency", "2025+ (Concurrency)"},
	{"total input text tokens", "Aug 2025+ (multimodal token counts)"},
	{"peak output token throughput (tok/s)", "Dec 2025+ (peak metrics)"},
}

// dated returns the version of the latest era the block shows: whose label
// it prints (seen, bits of eras) or whose key it has.
func dated(b *Block, eras []era, seen uint32, base string) string {
	v := base
	for i, e := range eras {
		if k, ok := strings.CutPrefix(e.label, "key:"); ok {
			if _, has := b.Metrics[k]; has {
				v = e.version
			}
			continue
		}
		if seen&(1<<i) != 0 {
			v = e.version
		}
	}
	return v
}

// textVersion sets the tool, version and per-metric definitions of a block
// of the serving-table family; seen are the eras its labels show.
func textVersion(b *Block, m marks, seen eraSeen) {
	switch b.Format {
	case FormatVLLMPlain:
		b.Tool, b.Version = ToolVLLM, "v0.3.1-v0.3.3 (plain lines)"
		if m.y2023 {
			b.Tool, b.Version = ToolVLLM, "2023, v0.3.0 or before (seconds)"
		}
	case FormatVLLM, FormatVLLMHeaderless:
		b.Tool = ToolVLLM
		base := "v0.4.0+"
		if seen.inputTok {
			base = "v0.4.0-v0.6.0 (Input token throughput)"
		}
		b.Version = dated(b, vllmEras, seen.vllm, base)
		if b.Format == FormatVLLMHeaderless {
			b.Version += ", banner lost"
		}
	case FormatVLLMOmni:
		b.Tool, b.Version = ToolVLLM, "vllm-omni (Result sub-banners)"
	case FormatSGLang:
		b.Tool, b.Version = ToolSGLang, dated(b, sglangEras, seen.sglang, "2024+")
	case FormatSGLangOffline:
		b.Tool, b.Version = ToolSGLang, offlineTableVersion(b)
	case FormatTRTLLMServe:
		b.Tool, b.Version = ToolTRTLLM, "benchmark_serving.py (vLLM v0.8 copy)"
	case FormatGuideLLM:
		b.Tool, b.Version = ToolGuideLLM, "GPUStack rendering"
		if _, ok := b.Metrics["p95_e2el_ms"]; ok {
			b.Version = "GPUStack rendering with P95 latency"
		}
		return
	default:
		return
	}
	for _, k := range [...]string{"max_output_tokens_per_s", "max_concurrent_requests"} {
		if _, ok := b.Metrics[k]; ok {
			setDefinition(b, k, PeakBucket)
		}
	}
	if _, ok := b.Metrics["user_throughput"]; ok {
		setDefinition(b, "user_throughput", PerRequestMean)
	}
}

func setDefinition(b *Block, key string, d Definition) {
	if b.Definitions == nil {
		b.Definitions = map[string]Definition{}
	}
	b.Definitions[key] = d
}
