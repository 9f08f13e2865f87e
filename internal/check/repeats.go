package check

import (
	"fmt"
	"math"

	"github.com/perflab/perflab/internal/benchlog"
	"github.com/perflab/perflab/internal/study"
)

// repeatCounts are the figures every repeat of a workload must share with
// the first: the prompts sent and the lengths asked for, exactly; the input
// tokens sent, as the same-data rule compares runs.
var repeatCounts = []string{"num_prompts", "input_len", "output_len"}

// repeatDataRule: the repeats of a run's workload (<workload>.run-<n>.log,
// or of one load of a sweep, <workload>.c16.run-<n>.log) are a mean only
// if they measured the same thing. Each repeat is compared with the first
// of its workload and load: a prompt count or length that differs, or
// input tokens beyond the same-data rule's slack, is a same-data error on
// the repeat.
func repeatDataRule(s *study.Study, r *study.Run, add func(Diagnostic)) {
	firsts := map[string]*benchlog.Block{} // workload (and load) -> its first repeat's block
	for _, lg := range r.Logs {
		if lg.Repeat == 0 || len(lg.Blocks) == 0 {
			continue
		}
		b := &lg.Blocks[0]
		series := lg.Workload
		if w := s.Workload(lg.Workload); lg.Point != nil && w != nil && w.Sweep != nil {
			series += " at " + w.Sweep.Key + " " + lg.Point.Raw
		}
		first := firsts[series]
		if first == nil {
			firsts[series] = b
			continue
		}
		subject := r.ID + "/" + lg.Workload
		problem := func(key string, m, want benchlog.Metric) {
			add(Diagnostic{Rule: RuleSameData, Severity: Error, File: b.File, Line: m.Line, Subject: subject,
				Printed: m.Raw, Computed: want.Raw,
				Message: fmt.Sprintf("repeat %d of run %s on %s has %s %s, but its first repeat (%s:%d) has %s: repeats are averaged, so they must run the same data; rerun this repeat on the workload of the first", lg.Repeat, r.ID, series, key, m.Raw, first.File, want.Line, want.Raw)})
		}
		for _, key := range repeatCounts {
			m, ok := b.Metrics[key]
			want, okFirst := first.Metrics[key]
			if ok && okFirst && m.Value != want.Value {
				problem(key, m, want)
			}
		}
		m, ok := b.Metrics["total_input_tokens"]
		want, okFirst := first.Metrics["total_input_tokens"]
		if !ok || !okFirst || m.Value == want.Value {
			continue
		}
		if w := s.Workload(lg.Workload); w != nil && randomData(w) && math.Abs(m.Value-want.Value) <= randomSlack(want.Value, b) {
			continue
		}
		problem("total_input_tokens", m, want)
	}
}
