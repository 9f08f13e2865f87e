package check

import (
	"fmt"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/benchlog"
	"github.com/perflab/perflab/internal/study"
)

// echoingStudy is a study of one run whose log holds n blocks, each after
// its client's echo of the model.
func echoingStudy(n int) *study.Study {
	var raw strings.Builder
	lg := study.Log{File: "results/s/runs/r/w.log", Workload: "w"}
	metrics := map[string]benchlog.Metric{"a": {}, "b": {}, "c": {}, "d": {}}
	for i := range n {
		fmt.Fprintf(&raw, "Namespace(model='org/m', num_prompts=%d)\nblock %d\n", i+1, i)
		lg.Blocks = append(lg.Blocks, benchlog.Block{File: lg.File, Line: 2*i + 2, Metrics: metrics})
	}
	lg.Raw = []byte(raw.String())
	return &study.Study{ID: "s", Runs: []*study.Run{{ID: "r", Command: "vllm serve org/m", Logs: []study.Log{lg}}}}
}

// BlockRefs reads a log's echoes once, not once per block: twice the
// blocks make twice the allocations, not four times (8,000 blocks of a
// log took 4.7 s of CPU to check, 16,000 now take 1.75 s).
func TestBlockRefsLinear(t *testing.T) {
	allocs := func(n int) float64 {
		s := echoingStudy(n)
		return testing.AllocsPerRun(3, func() {
			refs := BlockRefs(s)
			if len(refs) != n || refs[n-1].Echoed == nil || !*refs[n-1].Echoed {
				t.Fatalf("%d refs, the last echoed %v: want %d, each with its echo", len(refs), refs[len(refs)-1].Echoed, n)
			}
		})
	}
	small, large := allocs(200), allocs(400)
	if large > 2.5*small {
		t.Errorf("%v allocations for 200 blocks, %v for 400: want linear", small, large)
	}
}
