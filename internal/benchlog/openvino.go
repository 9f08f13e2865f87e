package benchlog

import (
	"bytes"
	"fmt"
	"strings"
)

// OpenVINO GenAI's benchmark sample (samples/python/text_generation/
// benchmark_genai.py and its C++ twin, 2024-08 on; before 2025-01 under
// samples/*/benchmark_genai/): after -n iterations of one prompt it prints
//
//	Prompt token size: 9            (2025-06 on)
//	Output token size: 100          (2025-06 on)
//	Load time: 3456.78 ms
//	Generate time: 1234.56 ± 12.34 ms
//	Tokenization time: 0.91 ± 0.02 ms
//	Detokenization time: 0.45 ± 0.01 ms
//	TTFT: 45.67 ± 1.23 ms
//	TPOT: 12.34 ± 0.56 ms           ("ms/token" in C++ and the newest Python)
//	Throughput : 81.04 ± 3.45 tokens/s   ("Throughput:" in C++)
//
// the mean and standard deviation over the iterations, each with its unit.
// A value whose unit is not the one the sample prints is not read: its
// line says so. One block per run, from its first line to Throughput.

// ovLine is one label of the sample: its keys (mean, std) and the units it
// may carry.
type ovLine struct {
	mean, std string
	units     []string
}

var ovLines = map[string]ovLine{
	"prompt token size":   {mean: "mean_input_len"},
	"output token size":   {mean: "mean_output_len"},
	"load time":           {units: []string{"ms"}},
	"generate time":       {mean: "mean_e2el_ms", std: "std_e2el_ms", units: []string{"ms"}},
	"tokenization time":   {units: []string{"ms"}},
	"detokenization time": {units: []string{"ms"}},
	"ttft":                {mean: "mean_ttft_ms", std: "std_ttft_ms", units: []string{"ms"}},
	"tpot":                {mean: "mean_tpot_ms", std: "std_tpot_ms", units: []string{"ms", "ms/token"}},
	"throughput":          {mean: "output_throughput_per_user", std: "std_output_throughput_per_user", units: []string{"tokens/s"}},
}

// ovReader reads one run.
type ovReader struct{ b *Block }

// ovStart opens a run at its first line.
func ovStart(s *Scanner, text []byte) lineReader {
	if c := text[0]; c != 'P' && c != 'O' && c != 'L' {
		return nil
	}
	label, _, ok := bytes.Cut(text, []byte(":"))
	if !ok {
		return nil
	}
	switch normLabel(label) {
	case "prompt token size", "output token size", "load time":
	default:
		return nil
	}
	return &ovReader{&Block{File: s.name, Line: s.line, EndLine: s.line, Format: FormatOpenVINOGenAI, Tool: ToolOpenVINOGenAI,
		Version: "benchmark_genai (2024-08+)", Definition: PerRequestMean, Metrics: map[string]Metric{}}}
}

// ovLine reads one line of a run; false if it is not one (the run ends
// there).
func (r *ovReader) line(s *Scanner, text []byte) bool {
	b := r.b
	label, value, ok := bytes.Cut(text, []byte(":"))
	spec, known := ovLines[normLabel(label)]
	if !ok || !known {
		s.lrEnd()
		return false
	}
	lab, val := strings.TrimSpace(string(label)), strings.TrimSpace(string(value))
	b.Labels = append(b.Labels, Label{Label: lab, Value: val, Line: s.line})
	b.EndLine = s.line
	mean, std, unit := ovValue(val)
	if len(spec.units) > 0 && !containsStr(spec.units, unit) {
		b.Problems = append(b.Problems, &SyntaxError{File: s.name, Line: s.line,
			Msg: fmt.Sprintf("OpenVINO GenAI %s: unit %q is not the %s the sample prints; not read", lab, unit, strings.Join(spec.units, " or "))})
		return true
	}
	if spec.mean != "" && mean != "" {
		sp := keySpec{}
		if strings.HasPrefix(unit, "ms") {
			sp.unit, sp.from = "ms", "ms"
		}
		addKeys(b, []string{spec.mean}, sp, lab, mean, s.line)
		if spec.std != "" && std != "" {
			addKeys(b, []string{spec.std}, sp, lab, std, s.line)
		}
	}
	if normLabel(label) == "throughput" {
		s.lrEnd()
	}
	return true
}

// ovValue splits "12.34 ± 0.56 ms/token" into mean, std and unit.
func ovValue(v string) (mean, std, unit string) {
	f := strings.Fields(v)
	switch {
	case len(f) >= 3 && f[1] == "±":
		mean, std = f[0], f[2]
		if len(f) > 3 {
			unit = f[3]
		}
	case len(f) >= 1:
		mean = f[0]
		if len(f) > 1 {
			unit = f[1]
		}
	}
	return mean, std, unit
}

func containsStr(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// end queues the run if it has a timing.
func (r *ovReader) end(s *Scanner) {
	b := r.b
	if _, ok := b.Metrics["mean_ttft_ms"]; !ok {
		if _, ok := b.Metrics["mean_e2el_ms"]; !ok {
			return
		}
	}
	unitIdentities(b, "OpenVINO GenAI")
	s.emit(b)
}
