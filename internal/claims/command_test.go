package claims

import (
	"testing"

	"github.com/perflab/perflab/internal/report"
	"github.com/perflab/perflab/internal/study"
)

func TestCommandClaim(t *testing.T) {
	tp4 := &study.Run{ID: "tp4", Command: "vllm serve Org/Model-FP8 -tp 4"}
	gen := &study.Run{ID: "gen", Command: "vllm serve Org/Model --max-model-len=32768", CommandDerived: true, Parameters: "--max-model-len=32768"}
	s := &study.Study{Runs: []*study.Run{gen, tp4}}
	r := checker{&report.Report{Study: s, Rows: []report.Row{{Optimized: &report.Cell{Run: tp4}}, {Optimized: &report.Cell{Run: gen}}}}}
	cases := []struct {
		printed string
		match   bool
	}{
		{"vllm serve Org/Model-FP8 -tp 4", true},
		{"# two replicas\nvllm serve Org/Model-FP8 \\\n    -tp 4", true}, // comments, continuations, spaces
		{"vllm serve Org/Model-FP8 \\\n    --max-model-len=32768", true}, // a generated report prints only the flags
		{"vllm serve Org/Model-FP8 -tp 8", false},
		{"vllm serve Org/Model-FP8 --max-model-len=16384", false},
	}
	for _, c := range cases {
		res := r.claim(study.Claim{Kind: study.ClaimCommand, Printed: c.printed})
		if !res.Checked || res.Match != c.match {
			t.Errorf("%q: checked %v match %v, want match %v (%s)", c.printed, res.Checked, res.Match, c.match, res.Detail)
		}
	}
	empty := checker{&report.Report{Study: s}}
	if res := empty.claim(study.Claim{Kind: study.ClaimCommand, Printed: "x"}); res.Checked {
		t.Error("a conclusion without optimized results cannot check a command")
	}
}
