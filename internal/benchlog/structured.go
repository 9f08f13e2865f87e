package benchlog

import (
	"bytes"
	"fmt"
)

// vLLM's structured-output benchmark (benchmarks/benchmark_serving_structured_output.py,
// before it benchmark_serving_guided.py, and benchmark_guided.py offline)
// prints the serving table, closes it with its rule, may print "Stopping
// profiler..." and "Profiler stopped", and then, after evaluating the
// outputs, print("correct_rate(%)", score, "\n"): the line
// "correct_rate(%) 97.5 " (Python's repr of a float, or None when no output
// could be judged) and a blank line. A serving block closed by its rule is
// therefore held until the next line that is not blank or a profiler line:
// a correct_rate line joins it, any other line releases it unchanged.

var correctRatePrefix = []byte("correct_rate(%)")

// holdable reports whether a block just closed by its rule may be followed
// by a correct_rate line.
func holdable(b *Block) bool {
	return b.Format == FormatVLLM || b.Format == FormatVLLMHeaderless
}

// pendLine reads a line while a closed block is held; false when the line
// is not the block's (the block has been released; read the line as any
// other).
func (s *Scanner) pendLine(line []byte, long bool) bool {
	if !long {
		text := s.clean(line)
		switch {
		case len(text) == 0, string(text) == "Stopping profiler...", string(text) == "Profiler stopped":
			return true
		case bytes.HasPrefix(text, correctRatePrefix):
			s.correctRate(bytes.TrimSpace(text[len(correctRatePrefix):]))
			return true
		}
	}
	s.release()
	return false
}

// correctRate adds the value of a correct_rate line to the held block and
// releases it.
func (s *Scanner) correctRate(value []byte) {
	b := s.pend
	raw := string(value)
	b.Labels = append(b.Labels, Label{Label: string(correctRatePrefix), Value: raw, Line: s.line})
	b.EndLine = s.line
	b.Version += ", structured output (correct_rate)"
	spec := keySpec{key: "correct_rate"}
	switch {
	case isNullValue(value):
		if notFinite(spec.key, raw) {
			b.Problems = append(b.Problems, notFiniteProblem(s.name, s.line, string(correctRatePrefix), raw, spec.key))
		}
	default:
		m, ok := makeMetric(spec, raw, s.line)
		if !ok {
			b.Problems = append(b.Problems, &SyntaxError{File: s.name, Line: s.line,
				Msg: fmt.Sprintf("correct_rate(%%): value %q is not a number; no correct_rate read", raw)})
			break
		}
		b.Metrics[spec.key] = m
	}
	s.release()
}

// release queues the held block.
func (s *Scanner) release() {
	if b := s.pend; b != nil {
		s.pend = nil
		s.outq = append(s.outq, b)
	}
}
