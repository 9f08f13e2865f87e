package benchlog

import (
	"bytes"
	"strings"
)

// LMDeploy's benchmark scripts write their results to CSV files too, one
// row per run under a header (benchmark/*.py, lmdeploy/profiler.py):
//
//   - profile_restful_api.py 2023-11: batch, num_prompts, prompt_tokens,
//     completion_tokens, 1st_token_latency(min|max|ave)(s), "output token
//     thr(tokens/s" (sic), "total token thr(token/s)", RPM;
//   - profile_restful_api.py and profile_throughput.py 2023-12 to 2024:
//     batch, num_prompts (profile_throughput: "num_promts"), RPS, RPM,
//     FTL(ave|min|max)(s), (profile_throughput: 50%(s) ... 99%(s), the
//     per-token latency percentiles), throughput(out tok/s),
//     throughput(total tok/s);
//   - profile_restful_api.py 2024-10 on (appended, named .csv or .jsonl):
//     backend, dataset_name, ..., request_rate, completed, ..., mean_itl_ms;
//   - Profiler.save_csv (2025 on): the script's settings (batch,
//     num_prompts ...), then completed ... mean_itl_ms.
//
// A "-" (a latency without streaming) gives no value. Each row is a block
// of format lmdeploy-csv.

// lmCSVColumns map LMDeploy's CSV headers (normalised) to keys.
var lmCSVColumns = map[string]keySpec{
	"batch":                     {key: "max_concurrency"},
	"num_prompts":               {key: "num_prompts"},
	"num_promts":                {key: "num_prompts"},
	"prompt_tokens":             {key: "total_input_tokens"},
	"completion_tokens":         {key: "total_output_tokens"},
	"1st_token_latency(min)(s)": {key: "min_ttft_ms", unit: "ms", from: "s"},
	"1st_token_latency(max)(s)": {key: "max_ttft_ms", unit: "ms", from: "s"},
	"1st_token_latency(ave)(s)": {key: "mean_ttft_ms", unit: "ms", from: "s"},
	"output token thr(tokens/s": {key: "output_throughput"},
	"total token thr(token/s)":  {key: "total_token_throughput"},
	"rps":                       {key: "request_throughput"},
	"ftl(ave)(s)":               {key: "mean_ttft_ms", unit: "ms", from: "s"},
	"ftl(min)(s)":               {key: "min_ttft_ms", unit: "ms", from: "s"},
	"ftl(max)(s)":               {key: "max_ttft_ms", unit: "ms", from: "s"},
	"50%(s)":                    {key: "p50_itl_ms", unit: "ms", from: "s"},
	"75%(s)":                    {key: "p75_itl_ms", unit: "ms", from: "s"},
	"95%(s)":                    {key: "p95_itl_ms", unit: "ms", from: "s"},
	"99%(s)":                    {key: "p99_itl_ms", unit: "ms", from: "s"},
	"throughput(out tok/s)":     {key: "output_throughput"},
	"throughput(total tok/s)":   {key: "total_token_throughput"},
	"request_rate":              {key: "request_rate"},
	"completed":                 {key: "completed"},
	"total_input_tokens":        {key: "total_input_tokens"},
	"total_output_tokens":       {key: "total_output_tokens"},
	"duration":                  {key: "duration", unit: "s"},
	"request_throughput":        {key: "request_throughput"},
	"input_throughput":          {key: "input_throughput"},
	"output_throughput":         {key: "output_throughput"},
	"mean_e2e_latency_ms":       {key: "mean_e2el_ms"},
	"mean_ttft_ms":              {key: "mean_ttft_ms"},
	"mean_tpot_ms":              {key: "mean_tpot_ms"},
	"mean_itl_ms":               {key: "mean_itl_ms"},
}

// isLMDeployCSV reports whether a first line is the header of one of
// those files.
func isLMDeployCSV(line []byte) bool {
	return hasPrefixFold(line, "batch,num_prom") ||
		bytes.Contains(line, []byte(",mean_e2e_latency_ms,mean_ttft_ms,mean_tpot_ms,mean_itl_ms")) ||
		hasPrefixFold(line, "backend,dataset_name,") && bytes.Contains(line, []byte("mean_ttft_ms"))
}

// scanLMCSV reads the whole file.
func (s *Scanner) scanLMCSV() { s.scanCSVRows(isLMDeployCSV, s.lmCSVRow) }

// lmCSVRow reads one run.
func (s *Scanner) lmCSVRow(header, rec []string) {
	b := &Block{File: s.name, Line: s.line, EndLine: s.line, Format: FormatLMDeployCSV, Tool: ToolLMDeploy,
		Version: lmCSVVersion(header), Definition: CountOverDuration, Metrics: map[string]Metric{}}
	if s.rowWidthWrong(b, "LMDeploy CSV", header, rec) {
		return
	}
	for i, label := range header {
		val := strings.TrimSpace(rec[i])
		b.Labels = append(b.Labels, Label{Label: label, Value: val, Line: s.line})
		spec, ok := lmCSVColumns[strings.ToLower(strings.TrimSpace(label))]
		if ok && val != "" {
			addKeys(b, []string{spec.key}, spec, label, val, s.line)
		}
	}
	if len(b.Metrics) > 0 || len(b.Problems) > 0 {
		s.emit(b)
	}
}

// lmCSVVersion names the script and era of a header.
func lmCSVVersion(header []string) string {
	h := strings.ToLower(strings.Join(header, ","))
	switch {
	case strings.HasPrefix(h, "backend,dataset_name,"):
		return "profile_restful_api.py CSV (2024-10+)"
	case strings.Contains(h, "mean_e2e_latency_ms"):
		return "Profiler.save_csv (2025+)"
	case strings.Contains(h, "50%(s)"):
		return "profile_throughput.py --csv (2023-12 to 2024)"
	case strings.Contains(h, "ftl(ave)(s)"):
		return "profile_restful_api.py --csv (2023-12 to 2024-10)"
	}
	return "profile_restful_api.py --csv (2023-11)"
}
