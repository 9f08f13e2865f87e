package check

import (
	"fmt"
	"path"
	"strings"
	"sync/atomic"

	"github.com/perflab/perflab/internal/study"
)

// MaxAckPatterns bounds the distinct patterned acknowledgements ("conclusion/*")
// of a study: each is tried on every problem of its rule, so more would
// make checking grow with acknowledgements times problems. Plain ones are
// looked up, and have no bound.
const MaxAckPatterns = 64

// patternComparisons counts path.Match calls, so that a test can see the
// work grow linearly with the input.
var patternComparisons atomic.Int64

// ackIndex finds the acknowledgement of a problem without trying every
// acknowledgement: plain subjects by rule and subject, patterns by rule.
// Of several acknowledgements of one problem, the last one in study.yaml
// is the one that counts.
type ackIndex struct {
	acks     []study.Ack
	exact    map[[2]string][]int    // rule, subject -> acknowledgements, in order
	patterns map[string][]ackGroup  // rule -> patterns
	tooMany  []int                  // patterned acknowledgements past MaxAckPatterns
	used     []bool                 // by acknowledgement
	seen     map[[2]string]ackGroup // rule, pattern -> its group, while building
}

// ackGroup is one pattern of a rule and every acknowledgement that gives it.
type ackGroup struct {
	pattern string
	acks    *[]int
}

func isPattern(subject string) bool { return strings.ContainsAny(subject, `*?[\`) }

func newAckIndex(acks []study.Ack) *ackIndex {
	x := &ackIndex{acks: acks, exact: map[[2]string][]int{}, patterns: map[string][]ackGroup{},
		used: make([]bool, len(acks)), seen: map[[2]string]ackGroup{}}
	distinct := 0
	for i, a := range acks {
		// A subject is also itself: "a[" is no valid pattern, but names "a[".
		key := [2]string{a.Rule, a.Subject}
		x.exact[key] = append(x.exact[key], i)
		if !isPattern(a.Subject) {
			continue
		}
		if g, ok := x.seen[key]; ok {
			*g.acks = append(*g.acks, i)
			continue
		}
		if distinct == MaxAckPatterns {
			x.tooMany = append(x.tooMany, i)
			continue
		}
		distinct++
		g := ackGroup{pattern: a.Subject, acks: &[]int{i}}
		x.seen[key] = g
		x.patterns[a.Rule] = append(x.patterns[a.Rule], g)
	}
	x.seen = nil
	return x
}

// find returns the acknowledgement of a problem, or nil, and marks every
// acknowledgement that names it as used.
func (x *ackIndex) find(rule, subject string) *study.Ack {
	if subject == "" {
		return nil
	}
	last := -1
	mark := func(ids []int) {
		for _, i := range ids {
			x.used[i] = true
		}
		last = max(last, ids[len(ids)-1])
	}
	if ids := x.exact[[2]string{rule, subject}]; len(ids) > 0 {
		mark(ids)
	}
	for _, g := range x.patterns[rule] {
		patternComparisons.Add(1)
		if ok, err := path.Match(g.pattern, subject); err == nil && ok {
			mark(*g.acks)
		}
	}
	if last < 0 {
		return nil
	}
	return &x.acks[last]
}

// tooManyPatterns reports each patterned acknowledgement past the bound.
func (x *ackIndex) tooManyPatterns() []Diagnostic {
	var out []Diagnostic
	for _, i := range x.tooMany {
		a := &x.acks[i]
		out = append(out, Diagnostic{Rule: RuleSchema, Severity: Error, File: a.Pos.File, Line: a.Pos.Line,
			Message: fmt.Sprintf("acknowledgement of %s on %q: a study may have at most %d distinct patterned subjects (with *, ?, [ or \\); name the subjects one by one, or share one pattern", a.Rule, a.Subject, MaxAckPatterns)})
	}
	return out
}
