package check

import (
	"fmt"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/study"
)

var ackReasons = map[string]string{"en": "r", "zh": "r", "ja": "r"}

// ackCase makes n plain and n patterned acknowledgements and 4n problems
// they name (as a long study with many runs would), and returns the
// pattern comparisons acknowledge makes.
func ackComparisons(t *testing.T, n int) int64 {
	t.Helper()
	s := &study.Study{}
	var diags []Diagnostic
	for i := range n {
		s.Acks = append(s.Acks,
			study.Ack{Rule: RuleRequests, Subject: fmt.Sprintf("run%d/w", i), Reason: ackReasons, Pos: study.Pos{File: "s", Line: 2 * i}},
			// The same few patterns, given again and again.
			study.Ack{Rule: RuleTradeOff, Subject: fmt.Sprintf("conclusion/*%d", i%10), Reason: ackReasons, Pos: study.Pos{File: "s", Line: 2*i + 1}})
	}
	for i := range 4 * n {
		diags = append(diags,
			Diagnostic{Rule: RuleRequests, Subject: fmt.Sprintf("run%d/w", i)},
			Diagnostic{Rule: RuleTradeOff, Subject: fmt.Sprintf("conclusion/w%d", i)})
	}
	patternComparisons.Store(0)
	var added []Diagnostic
	acknowledge(s, diags, func(d Diagnostic) { added = append(added, d) })
	for i, d := range diags {
		if i < 2*n && d.Ack == nil {
			t.Fatalf("%s %s is not acknowledged", d.Rule, d.Subject)
		}
	}
	return patternComparisons.Load()
}

// TestAcknowledgementsAreIndexed: checking acknowledgements is linear in
// acknowledgements plus problems. Matching each against every problem
// does four times the work at twice the size.
func TestAcknowledgementsAreIndexed(t *testing.T) {
	small, large := ackComparisons(t, 250), ackComparisons(t, 500)
	if large > 2*small+16 {
		t.Errorf("pattern comparisons: %d at n=250, %d at n=500: not linear", small, large)
	}
	if small == 0 {
		t.Error("no pattern was compared: the test measures nothing")
	}
}

// TestAckLastWins: of two acknowledgements of one problem, the later one
// gives the reason, and both count as used; a subject that is no valid
// pattern still names itself.
func TestAckLastWins(t *testing.T) {
	s := &study.Study{Acks: []study.Ack{
		{Rule: RuleTradeOff, Subject: "conclusion/*", Reason: ackReasons, Pos: study.Pos{File: "s", Line: 1}},
		{Rule: RuleTradeOff, Subject: "conclusion/a", Reason: ackReasons, Pos: study.Pos{File: "s", Line: 2}},
		{Rule: RuleTradeOff, Subject: "conclusion/[", Reason: ackReasons, Pos: study.Pos{File: "s", Line: 3}},
	}}
	diags := []Diagnostic{{Rule: RuleTradeOff, Subject: "conclusion/a"}, {Rule: RuleTradeOff, Subject: "conclusion/["}}
	var added []Diagnostic
	acknowledge(s, diags, func(d Diagnostic) { added = append(added, d) })
	if diags[0].Ack == nil || diags[0].Ack.Pos.Line != 2 {
		t.Errorf("conclusion/a acknowledged by %+v, want line 2", diags[0].Ack)
	}
	if diags[1].Ack == nil || diags[1].Ack.Pos.Line != 3 {
		t.Errorf("conclusion/[ acknowledged by %+v, want line 3", diags[1].Ack)
	}
	if len(added) != 0 {
		t.Errorf("unexpected diagnostics %v", added)
	}
}

// TestTooManyAckPatterns: past the bound, a patterned acknowledgement is
// an error on its own line.
func TestTooManyAckPatterns(t *testing.T) {
	s := &study.Study{}
	for i := range MaxAckPatterns + 1 {
		s.Acks = append(s.Acks, study.Ack{Rule: RuleTradeOff, Subject: fmt.Sprintf("x%d/*", i), Reason: ackReasons, Pos: study.Pos{File: "s", Line: i + 1}})
	}
	var added []Diagnostic
	acknowledge(s, nil, func(d Diagnostic) { added = append(added, d) })
	var errs []string
	for _, d := range added {
		if d.Severity == Error {
			errs = append(errs, d.String())
		}
	}
	want := fmt.Sprintf("s:%d: schema: acknowledgement of trade-off on \"x%d/*\": a study may have at most %d", MaxAckPatterns+1, MaxAckPatterns, MaxAckPatterns)
	if len(errs) != 1 || !strings.HasPrefix(errs[0], want) {
		t.Errorf("errors %v, want one starting %q", errs, want)
	}
}
