// Package studytest builds studies for tests of the packages that compute
// and check reports: runs whose logs hold printed values, as the loader
// would read them. Only tests import it.
package studytest

import (
	"sort"
	"strconv"
	"strings"

	"github.com/perflab/perflab/internal/benchlog"
	"github.com/perflab/perflab/internal/study"
)

// Metric builds a metric as the parser would from a printed value: its
// decimals are the digits printed after the point.
func Metric(raw string, line int) benchlog.Metric {
	v, err := strconv.ParseFloat(raw, 64)
	if err != nil {
		panic(err)
	}
	dec := 0
	if i := strings.IndexByte(raw, '.'); i >= 0 {
		dec = len(raw) - i - 1
	}
	return benchlog.Metric{Value: v, Decimals: dec, Line: line, Raw: raw}
}

// Run is a run whose logs hold the metric key, given as workload, printed
// value pairs, each on line 10.
func Run(key, id, name string, gpus int, workloadValues ...string) *study.Run {
	r := &study.Run{ID: id, Name: name, Engine: "vllm", GPUs: gpus, Pos: study.Pos{File: "runs/" + id + "/run.yaml", Line: 1}}
	for i := 0; i+1 < len(workloadValues); i += 2 {
		SetMetric(r, workloadValues[i], key, workloadValues[i+1], 10)
	}
	return r
}

// SetMetric puts a printed value into a run's log of a workload, creating
// the log when needed.
func SetMetric(r *study.Run, workload, key, raw string, line int) {
	for i := range r.Logs {
		if r.Logs[i].Workload == workload {
			r.Logs[i].Blocks[0].Metrics[key] = Metric(raw, line)
			return
		}
	}
	file := "runs/" + r.ID + "/" + workload + ".log"
	b := benchlog.Block{File: file, Line: 1, EndLine: 22, Format: benchlog.FormatVLLM, Definition: benchlog.CountOverDuration,
		Metrics: map[string]benchlog.Metric{key: Metric(raw, line)}}
	r.Logs = append(r.Logs, study.Log{Workload: workload, File: file, Blocks: []benchlog.Block{b}})
}

// Study is a study on one node of node GPUs with a main workload
// "sharegpt" and a second one "random-32k". Runs are sorted as the loader
// sorts them.
func Study(obj study.Objective, node int, runs ...*study.Run) *study.Study {
	s := &study.Study{
		ID: "test", Model: "Qwen/Qwen3-32B", Objective: obj,
		Hardware:  study.Hardware{GPU: "NVIDIA A100 SXM 80GB", GPUsPerNode: node, Nodes: 1},
		Workloads: []study.Workload{{ID: "sharegpt", Dataset: "sharegpt", Main: true}, {ID: "random-32k", Dataset: "random"}},
		Runs:      runs,
	}
	sort.Slice(s.Runs, func(i, j int) bool { return s.Runs[i].ID < s.Runs[j].ID })
	return s
}

// EngineStudy is the engine step of the Qwen3-235B study, its runs' logs
// holding key: SGLang against vLLM, both on the whole node.
func EngineStudy(key string) *study.Study {
	s := Study(study.Throughput, 8,
		Run(key, "vllm-tp8", "vLLM", 8, "sharegpt", "3792.50"),
		Run(key, "sglang-tp8", "SGLang", 8, "sharegpt", "4635.31"),
	)
	s.Baseline = study.Config{Runs: []string{"vllm-tp8"}}
	s.Recommended = study.Config{Runs: []string{"sglang-tp8"}}
	s.Steps = []study.Step{{ID: "engine", Runs: []string{"vllm-tp8", "sglang-tp8"}, Reference: "vllm-tp8"}}
	return s
}
