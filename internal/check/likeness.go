package check

import (
	"fmt"
	"math"

	"github.com/perflab/perflab/internal/study"
)

// RuleOutputLength flags two runs a report compares that generated
// different numbers of tokens per request: their throughputs measure
// different work, so the change between them is not like for like.
const RuleOutputLength = "output-length"

// outputSpread is how far apart two compared runs' output tokens per
// request may be. Engines that stop at end-of-sequence on ShareGPT differ
// by up to 1.2 % in this repository's studies, and random prompts with a
// token limit by up to 2.3 %; a recipe whose runs differed by 13 % (389.5
// against 441.5 under one 4,000-token limit) had not fixed its outputs.
const outputSpread = 0.05

// outputLengthRules holds every pair of runs the report compares, on every
// workload both measured, to the same output tokens per request.
func outputLengthRules(s *study.Study, add func(Diagnostic)) {
	for _, w := range s.Workloads {
		if w.Sweep != nil {
			continue // each load is its own measurement
		}
		for _, p := range comparedPairs(s) {
			ref, alt := perRequest(s, p[0], w.ID), perRequest(s, p[1], w.ID)
			if ref.n == 0 || alt.n == 0 || math.Abs(alt.n/ref.n-1) <= outputSpread {
				continue
			}
			add(Diagnostic{Rule: RuleOutputLength, Severity: Warning, File: alt.file, Line: alt.line, Subject: p[1].ID + "/" + w.ID,
				Printed: fmt.Sprintf("%.1f", alt.n), Computed: fmt.Sprintf("%.1f", ref.n),
				Message: fmt.Sprintf("run %s generated %.1f output tokens per request on %s (%s), run %s %.1f (%s), %+.1f %%: the report compares their throughputs, but they did different work; fix the output length (--random-output-len with --ignore-eos, or one dataset and sampling for both), or acknowledge it",
					p[1].ID, alt.n, w.ID, alt.where, p[0].ID, ref.n, ref.where, 100*(alt.n/ref.n-1))})
		}
	}
}

// comparedPairs are the pairs of runs a report compares, the reference
// first: each step's runs against its reference, and the recommended
// configuration against the baseline; each pair once.
func comparedPairs(s *study.Study) [][2]*study.Run {
	var out [][2]*study.Run
	seen := map[[2]string]bool{}
	pair := func(ref, alt string) {
		a, b := s.Run(ref), s.Run(alt)
		if a == nil || b == nil || a == b || seen[[2]string{ref, alt}] || seen[[2]string{alt, ref}] {
			return
		}
		seen[[2]string{ref, alt}] = true
		out = append(out, [2]*study.Run{a, b})
	}
	for _, st := range s.Steps {
		for _, id := range st.Runs {
			pair(st.Reference, id)
		}
	}
	if len(s.Baseline.Runs) > 0 && len(s.Recommended.Runs) > 0 {
		pair(s.Baseline.Runs[0], s.Recommended.Runs[0])
	}
	return out
}

// outputs is a run's output tokens per request on a workload, and where
// the count stands; n is 0 when its log does not print both counts.
type outputs struct {
	n           float64
	file, where string
	line        int
}

// A run whose requests failed is left to requests-failed: the requests
// that completed need not be the ones another run completed.
func perRequest(s *study.Study, r *study.Run, workload string) outputs {
	b := r.Result(workload)
	if b == nil {
		return outputs{}
	}
	tokens, okT := b.Metrics["total_output_tokens"]
	done, okD := b.Metrics["completed"]
	if !okT || !okD || done.Value <= 0 || tokens.Value <= 0 || sentRequests(s, workload, b) > done.Value {
		return outputs{}
	}
	return outputs{n: tokens.Value / done.Value, file: b.File, line: tokens.Line,
		where: fmt.Sprintf("%s / %s at %s:%d", tokens.Raw, done.Raw, b.File, tokens.Line)}
}
