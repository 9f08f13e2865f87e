package check

import (
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/study"
)

// TestPriceRule: a study the shared prices leave unpriced gets a warning
// on the prices file's line, naming its GPU and saying what to add.
func TestPriceRule(t *testing.T) {
	s := &study.Study{ID: "x", Hardware: study.Hardware{GPU: "NVIDIA L40S", Pos: study.Pos{File: "results/x/study.yaml", Line: 3}}}
	var got []Diagnostic
	priceRule(s, func(d Diagnostic) { got = append(got, d) })
	if len(got) != 0 {
		t.Fatalf("no shared prices file: %v", got)
	}
	s.Unpriced = &study.Pos{File: "results/prices.yaml", Line: 2}
	priceRule(s, func(d Diagnostic) { got = append(got, d) })
	if len(got) != 1 {
		t.Fatalf("%d diagnostics, want 1", len(got))
	}
	d := got[0]
	if d.Rule != RulePrice || d.Severity != Warning || d.File != "results/prices.yaml" || d.Line != 2 || d.Subject != "NVIDIA L40S" ||
		!strings.Contains(d.Message, `prices no "NVIDIA L40S"`) || !strings.Contains(d.Message, "results/x/study.yaml:3") || !strings.Contains(d.Message, "add a price") {
		t.Errorf("diagnostic %+v", d)
	}
	n := 0
	for _, d := range assessed(s).Diagnostics {
		if d.Rule == RulePrice {
			n++
		}
	}
	if n != 1 {
		t.Errorf("check.Study gives %d %s warnings, want 1", n, RulePrice)
	}
}
