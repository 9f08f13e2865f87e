package check

import (
	"testing"

	"github.com/perflab/perflab/internal/study"
)

func TestRecordedRules(t *testing.T) {
	s := &study.Study{Engines: []study.Engine{{ID: "vllm", Name: "vLLM", Version: "v0.11.0"}}}
	run := func(id string, gpus int, rec study.Recorded, reproduces string) *study.Run {
		return &study.Run{ID: id, Engine: "vllm", GPUs: gpus, Recorded: &rec, Reproduces: reproduces, Pos: study.Pos{File: "results/x/runs/" + id + "/run.yaml"}}
	}
	s.Runs = []*study.Run{
		run("older", 1, study.Recorded{EngineVersion: "0.10.1"}, ""),
		run("same", 1, study.Recorded{EngineVersion: "0.11", GPUCount: 1}, ""),
		run("unknown", 1, study.Recorded{}, ""),
		run("rerun", 1, study.Recorded{EngineVersion: "0.10.1"}, "same"),
		run("toomany", 4, study.Recorded{GPUCount: 2}, ""),
		{ID: "byhand", Engine: "vllm", GPUs: 8},
	}
	var got []string
	recordedRules(s, func(d Diagnostic) { got = append(got, d.Subject+" "+d.Printed+"/"+d.Computed) })
	want := []string{"older 0.10.1/v0.11.0", "toomany 4/2"}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("diagnostics %q, want %q", got, want)
	}
}
