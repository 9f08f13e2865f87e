package check

import (
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/benchlog"
	"github.com/perflab/perflab/internal/study"
)

// blockRun is a run whose sharegpt result is one block of format f with
// the given metrics.
func blockRun(id string, f benchlog.Format, keys ...string) *benchlogRun {
	metrics := map[string]benchlog.Metric{}
	for _, k := range keys {
		metrics[k] = benchlog.Metric{Value: 10, Line: 2, Raw: "10"}
	}
	return &benchlogRun{id: id, block: benchlog.Block{File: "results/test/runs/" + id + "/sharegpt.log", Line: 1, Format: f, Metrics: metrics}}
}

type benchlogRun struct {
	id    string
	block benchlog.Block
}

func definitionDiags(runs ...*benchlogRun) []Diagnostic {
	var rs []*study.Run
	for _, r := range runs {
		run := newRun(r.id, "vllm serve "+model32B+" -tp 8", 8, "")
		run.Logs = []study.Log{{Workload: "sharegpt", File: r.block.File, Blocks: []benchlog.Block{r.block}}}
		rs = append(rs, run)
	}
	return byRule(assessed(newStudy(model32B, 8, rs...)).Diagnostics, RuleDefinitions)
}

// TestDefinitionsDiffer: runs of one workload measured by vLLM and by
// guidellm compare TPOT and ITL that the two tools define differently; a
// warning names them, once for the workload.
func TestDefinitionsDiffer(t *testing.T) {
	d := definitionDiags(
		blockRun("a", benchlog.FormatVLLM, "mean_tpot_ms", "mean_itl_ms", "output_throughput"),
		blockRun("b", benchlog.FormatGuideLLMJSON, "mean_tpot_ms", "mean_itl_ms"),
	)
	if len(d) != 1 {
		t.Fatalf("diagnostics = %v, want one", d)
	}
	if d[0].Severity != Warning || d[0].Subject != "sharegpt" || d[0].Printed != "TPOT, ITL" || d[0].Computed != "guidellm: b; vllm: a" {
		t.Errorf("diagnostic = %+v", d[0])
	}
	if !strings.Contains(d[0].Message, "first token included") {
		t.Errorf("the message does not say how guidellm's TPOT differs: %s", d[0].Message)
	}
}

// TestDefinitionsAlike: tools that define what both give alike (vLLM's
// table and AIPerf's TPOT), or one tool, or a figure only one of them
// gives, raise nothing.
func TestDefinitionsAlike(t *testing.T) {
	for name, runs := range map[string][]*benchlogRun{
		"vllm and aiperf TPOT": {blockRun("a", benchlog.FormatVLLM, "mean_tpot_ms", "mean_itl_ms"), blockRun("b", benchlog.FormatAIPerfJSON, "mean_tpot_ms")},
		"one tool":             {blockRun("a", benchlog.FormatVLLM, "mean_tpot_ms"), blockRun("b", benchlog.FormatSGLangJSONL, "mean_tpot_ms")},
		"figure of one":        {blockRun("a", benchlog.FormatVLLM, "mean_itl_ms"), blockRun("b", benchlog.FormatGuideLLMJSON, "mean_ttft_ms")},
		"unknown family":       {blockRun("a", benchlog.FormatVLLM, "mean_tpot_ms"), blockRun("b", benchlog.FormatLlamaBench, "mean_tpot_ms")},
	} {
		if d := definitionDiags(runs...); len(d) != 0 {
			t.Errorf("%s: %v", name, d)
		}
	}
}
