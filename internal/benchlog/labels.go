package benchlog

import (
	"fmt"
	"strings"
)

// A keySpec says which canonical key a printed label fills and in which unit.
type keySpec struct {
	key  string
	unit string // canonical unit of key: "ms", "s" or "" (no conversion)
	// from is the unit the value is printed in when neither the label nor
	// the value says ("" = the canonical unit).
	from string
	text bool // the value is text (Backend:), never a number
}

// fixedLabels maps normalised labels (lower case, single spaces, no colon)
// to canonical keys. Statistic lines (Mean/Median/Pnn/Std Dev/Max X (ms)) are
// resolved by statLabel instead.
var fixedLabels = map[string]keySpec{
	"successful requests":                  {key: "completed"},
	"failed requests":                      {key: "failed"},
	"total requests":                       {key: "num_prompts"},
	"maximum request concurrency":          {key: "max_concurrency"},
	"max request concurrency":              {key: "max_concurrency"},
	"max reqeuest concurrency":             {key: "max_concurrency"}, // SGLang ≈v0.4.0 typo
	"request rate configured (rps)":        {key: "request_rate"},
	"traffic request rate":                 {key: "request_rate"},
	"burstiness factor":                    {key: "burstiness"},
	"benchmark duration (s)":               {key: "duration", unit: "s"},
	"benchmark duration":                   {key: "duration", unit: "s"},
	"total time":                           {key: "duration", unit: "s"}, // 2023
	"total input tokens":                   {key: "total_input_tokens"},
	"total input text tokens":              {key: "total_input_text_tokens"},
	"total input vision tokens":            {key: "total_input_vision_tokens"},
	"total generated tokens":               {key: "total_output_tokens"},
	"total generated tokens (retokenized)": {key: "total_output_tokens_retokenized"},
	"request throughput (req/s)":           {key: "request_throughput"},
	"request throughput":                   {key: "request_throughput"},
	"reuqest throughput":                   {key: "request_throughput"}, // vLLM Feb 2024 typo
	"throughput":                           {key: "request_throughput"}, // 2023: requests/s
	"request goodput (req/s)":              {key: "request_goodput"},
	"input token throughput (tok/s)":       {key: "input_throughput"},
	"input token throughput":               {key: "input_throughput"},
	"input throughput (inputs/s)":          {key: "input_sequence_throughput"}, // pooling
	"output token throughput (tok/s)":      {key: "output_throughput"},
	"output token throughput":              {key: "output_throughput"},
	"peak output token throughput (tok/s)": {key: "max_output_tokens_per_s"},
	"peak concurrent requests":             {key: "max_concurrent_requests"},
	"rtfx (inverse real-time factor)":      {key: "rtfx"},
	"total token throughput (tok/s)":       {key: "total_token_throughput"},
	"total token throughput":               {key: "total_token_throughput"},
	"total throughput (tok/s)":             {key: "total_token_throughput"}, // SGLang mid-2024
	"user throughput (tok/s)":              {key: "user_throughput"},
	"concurrency":                          {key: "avg_concurrency"}, // SGLang: an average, not the limit
	"accept length":                        {key: "spec_decode_acceptance_length"},
	"acceptance rate (%)":                  {key: "spec_decode_acceptance_rate"},
	"acceptance length":                    {key: "spec_decode_acceptance_length"},
	"drafts":                               {key: "spec_decode_num_drafts"},
	"draft tokens":                         {key: "spec_decode_draft_tokens"},
	"accepted tokens":                      {key: "spec_decode_accepted_tokens"},
	"probe requests completed":             {key: "probe_completed"},
	"probe requests failed":                {key: "probe_failed"},
	// 2026 vllm bench serve, diffusion LMs ("Diffusion Decoding" section).
	"committed throughput (tok/s)":     {key: "diffusion_committed_throughput"},
	"denoising steps per canvas":       {key: "diffusion_steps_per_canvas"},
	"committed per denoising step":     {key: "diffusion_committed_per_step"},
	"committed tokens":                 {key: "diffusion_committed_tokens"},
	"denoising steps":                  {key: "diffusion_denoising_steps"},
	"canvas positions evaluated":       {key: "diffusion_canvas_positions"},
	"average latency":                  {key: "mean_e2el_ms", unit: "ms", from: "s"}, // 2023, seconds
	"average latency per token":        {key: "mean_latency_per_token_ms", unit: "ms", from: "s"},
	"average latency per output token": {key: "mean_latency_per_output_token_ms", unit: "ms", from: "s"},
	"backend":                          {text: true},
}

// statNames maps the metric part of a statistic label to its canonical name.
var statNames = map[string]string{
	"ttft":                        "ttft",
	"tpot":                        "tpot",
	"itl":                         "itl",
	"e2el":                        "e2el",
	"e2e latency":                 "e2el", // SGLang
	"latency":                     "e2el", // GPUStack guidellm, in seconds
	"ttst":                        "ttst",
	"client queue time":           "client_queue_time",
	"e2el incl. client queue":     "e2el_including_client_queue",
	"e2el including client queue": "e2el_including_client_queue",
	"probe e2el":                  "probe_e2el",
	// vLLM Feb 2024 ("Mean latency per output token: 95.12 ms"): per
	// request, latency / output tokens, the first token included.
	"latency per output token": "latency_per_output_token",
}

// labelInfo is what the label of one line says.
type labelInfo struct {
	spec    keySpec
	known   bool
	std     bool // a "Std Dev X" line (TensorRT-LLM)
	seconds bool // a "X Latency(s)" line (GPUStack guidellm)
}

// normLabel lower-cases a label and collapses its white space.
func normLabel(label []byte) string {
	var b strings.Builder
	b.Grow(len(label))
	space := false
	for _, c := range label {
		switch {
		case c == ' ' || c == '\t':
			space = b.Len() > 0
			continue
		case 'A' <= c && c <= 'Z':
			c += 'a' - 'A'
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteByte(c)
	}
	return b.String()
}

// lookupLabel resolves a normalised label.
func lookupLabel(norm string) labelInfo {
	if spec, ok := fixedLabels[norm]; ok {
		return labelInfo{spec: spec, known: true}
	}
	return statLabel(norm)
}

// statLabel resolves labels such as "Mean TTFT (ms)", "P99.9 ITL (ms)",
// "Std Dev E2EL (ms)", "Median E2E Latency (ms)", "Mean Latency(s)" and the
// early-2024 "Mean TTFT" (unit in the value).
func statLabel(norm string) labelInfo {
	var info labelInfo
	rest := norm
	from := ""
	switch {
	case strings.HasSuffix(rest, "(ms)"):
		from, rest = "ms", rest[:len(rest)-4]
	case strings.HasSuffix(rest, "(s)"):
		from, rest = "s", rest[:len(rest)-3]
	}
	rest = strings.TrimSpace(rest)
	word, name, ok := strings.Cut(rest, " ")
	if !ok {
		return info
	}
	var stat string
	switch word {
	case "mean", "average", "avg":
		stat = "mean"
	case "median":
		stat = "median"
	case "max":
		stat = "max"
	case "min":
		stat = "min"
	case "std":
		stat = "std"
		name = strings.TrimPrefix(strings.TrimPrefix(name, "dev. "), "dev ")
	default:
		if !isPercentile(word) {
			return info
		}
		stat = word
	}
	canon, ok := statNames[name]
	if !ok {
		return info
	}
	info.known = true
	info.std = stat == "std"
	info.spec = keySpec{unit: "ms", from: from}
	if canon == "probe_e2el" {
		info.spec.key = "probe_" + stat + "_e2el_ms"
	} else {
		info.spec.key = stat + "_" + canon + "_ms"
	}
	info.seconds = name == "latency" && from == "s"
	return info
}

// isPercentile reports whether w is "p" followed by a number: p99, p99.9.
func isPercentile(w string) bool {
	if len(w) < 2 || w[0] != 'p' {
		return false
	}
	dot := false
	for i := 1; i < len(w); i++ {
		switch c := w[i]; {
		case c >= '0' && c <= '9':
		case c == '.' && !dot && i > 1 && i < len(w)-1:
			dot = true
		default:
			return false
		}
	}
	return true
}

// nullValues are printed values that mean "no value": no metric, no problem.
var nullValues = map[string]bool{
	"inf": true, "+inf": true, "infinity": true, "none": true, "null": true,
	"not set": true, "n/a": true, "na": true, "nan": true, "-": true,
	"-inf": true, "-infinity": true,
	"": true, "trace": true,
}

// notFinite reports whether a printed value is NaN or an infinity, which a
// metric cannot be, except a request rate, where inf means "all at once".
func notFinite(key string, v string) bool {
	if key == "request_rate" {
		return false
	}
	switch strings.ToLower(strings.TrimLeft(v, "+-")) {
	case "nan", "inf", "infinity":
		return true
	}
	return false
}

// notFiniteProblem is the problem of a metric printed as NaN or an infinity.
func notFiniteProblem(file string, line int, label, value, key string) *SyntaxError {
	return &SyntaxError{File: file, Line: line, Suspect: true,
		Msg: fmt.Sprintf("%s: value %q is not a finite number; no %s read: the benchmark measured nothing usable here, check its run", label, value, key)}
}

// unitShift is the power of ten that turns a value in unit from into unit to
// (s, ms, us, ns; 0 for anything else).
func unitShift(from, to string) int {
	pow := func(u string) (int, bool) {
		switch u {
		case "s", "sec", "secs", "seconds":
			return 0, true
		case "ms":
			return -3, true
		case "us":
			return -6, true
		case "ns":
			return -9, true
		}
		return 0, false
	}
	f, ok1 := pow(from)
	t, ok2 := pow(to)
	if !ok1 || !ok2 {
		return 0
	}
	return f - t
}

// makeMetric converts a printed value for spec into a Metric. ok is false for
// values that are not numbers.
func makeMetric(spec keySpec, raw string, line int) (Metric, bool) {
	m, ok := metricBytes(spec, []byte(raw), line)
	m.Raw = raw
	return m, ok
}
