package report

import (
	"testing"

	"github.com/perflab/perflab/internal/study"
)

// TestCompareRuns: versions are compared as versions, GPUs only when both
// runs recorded theirs, and command differences are listed.
func TestCompareRuns(t *testing.T) {
	s := &study.Study{Engines: []study.Engine{{ID: "vllm", Name: "vLLM", Version: "v0.11.0"}}}
	orig := &study.Run{ID: "a", Engine: "vllm", Command: "vllm serve org/M --max-num-seqs 128", GPUs: 1}
	for _, c := range []struct {
		name         string
		rerun        *study.Run
		gpu, version Comparability
		differences  int
	}{
		{"as declared", &study.Run{Engine: "vllm", Command: orig.Command, GPUs: 1}, Unknown, Same, 0},
		{"same version spelled otherwise", &study.Run{Engine: "vllm", Command: orig.Command, GPUs: 1, Recorded: &study.Recorded{EngineVersion: "0.11", GPU: "NVIDIA H100"}}, Unknown, Same, 0},
		{"older engine, other flag, two GPUs", &study.Run{Engine: "vllm", Command: "vllm serve org/M --max-num-seqs 256", GPUs: 2, Recorded: &study.Recorded{EngineVersion: "0.10.1"}}, Unknown, Different, 2},
	} {
		r := compareRuns(s, orig, c.rerun)
		if r.GPU != c.gpu || r.Version != c.version || len(r.Differences) != c.differences {
			t.Errorf("%s: GPU %v, version %v, differences %q", c.name, r.GPU, r.Version, r.Differences)
		}
	}
	orig.Recorded = &study.Recorded{GPU: "NVIDIA H100 80GB HBM3"}
	for gpu, want := range map[string]Comparability{"nvidia h100 80gb hbm3 ": Same, "NVIDIA A100-SXM4-80GB": Different} {
		if got := compareRuns(s, orig, &study.Run{Engine: "vllm", Command: orig.Command, GPUs: 1, Recorded: &study.Recorded{GPU: gpu}}).GPU; got != want {
			t.Errorf("GPU %q: %v, want %v", gpu, got, want)
		}
	}
}
