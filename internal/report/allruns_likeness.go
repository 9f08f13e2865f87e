package report

import (
	"github.com/perflab/perflab/internal/benchlog"
	"github.com/perflab/perflab/internal/study"
)

// PairLikeness is how alike two columns of the all-runs table were
// measured: over every row both have a value in, the worst verdict and
// every reason; Rows are the rows (by index) not comparable on their own,
// whose change the page must not print.
type PairLikeness struct {
	A, B     int // columns, A < B
	Likeness Likeness
	Rows     []int
}

// PairLikenesses judges every pair of the table's columns that was not
// measured like for like; pairs measured alike are left out. A column is
// compared with any other, so no serving command is expected of either.
func (r *Report) PairLikenesses(t *AllRuns) []PairLikeness {
	if t != nil && t == r.AllRuns() {
		return r.allRuns.likenesses
	}
	return r.pairLikenesses(t)
}

func (r *Report) pairLikenesses(t *AllRuns) []PairLikeness {
	// Each column's side on each row, made once: a pair only compares two.
	sides := make([][]*Side, len(t.Runs))
	for c, col := range t.Runs {
		run := r.Study.Run(col.ID)
		sides[c] = make([]*Side, len(t.Rows))
		if run == nil {
			continue
		}
		for i, row := range t.Rows {
			if v := row.Values[c]; v != nil {
				// A run stands for the node its replicas fill, on every row
				// as on the conclusion's: latency rows, never projected,
				// included.
				sides[c][i] = &Side{Run: run, Workload: r.Study.Workload(row.Workload), Block: blockAt(run, v.Source),
					GPUs: v.GPUs * replicas(r.Study, run)}
			}
		}
	}
	var out []PairLikeness
	for a := range t.Runs {
		for b := a + 1; b < len(t.Runs); b++ {
			if p := pairLikeness(sides[a], sides[b], a, b); p.Likeness.Verdict != LikeForLike {
				out = append(out, p)
			}
		}
	}
	return out
}

// pairLikeness judges two columns row by row, from their sides.
func pairLikeness(sa, sb []*Side, a, b int) PairLikeness {
	p := PairLikeness{A: a, B: b}
	var reasons []Reason
	seen := map[Reason]bool{}
	for i := range sa {
		if sa[i] == nil || sb[i] == nil {
			continue
		}
		c := Compare(*sa[i], *sb[i])
		if c.Verdict == NotComparable {
			p.Rows = append(p.Rows, i)
		}
		for _, rs := range c.Reasons {
			if !seen[rs] {
				seen[rs] = true
				reasons = append(reasons, rs)
			}
		}
	}
	p.Likeness = verdictOf(reasons)
	return p
}

// blockAt is the result block of a run's log that a value was read from:
// the block of src.File printing a metric on src.Line, else its first.
func blockAt(run *study.Run, src Source) *benchlog.Block {
	var first *benchlog.Block
	for i := range run.Logs {
		lg := &run.Logs[i]
		if lg.File != src.File || len(lg.Blocks) == 0 {
			continue
		}
		if first == nil {
			first = &lg.Blocks[0]
		}
		for j := range lg.Blocks {
			for _, m := range lg.Blocks[j].Metrics {
				if m.Line == src.Line {
					return &lg.Blocks[j]
				}
			}
		}
	}
	return first
}
