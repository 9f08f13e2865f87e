package claims

import (
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/perflab/perflab/internal/benchlog"
	"github.com/perflab/perflab/internal/report"
	"github.com/perflab/perflab/internal/study"
)

// build computes a study's report and checks its claims, as check does.
func build(s *study.Study, excluded map[string]string) *report.Report {
	r := report.Build(s, excluded)
	r.Claims = Check(r)
	return r
}

// metric builds a metric as the parser would from a printed value: its
// decimals are the digits printed after the point.
func metric(raw string, line int) benchlog.Metric {
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

// testRun is a run with logs of the headline metric, given as workload,
// printed value pairs.
func testRun(id, name string, gpus int, workloadValues ...string) *study.Run {
	r := &study.Run{ID: id, Name: name, Engine: "vllm", GPUs: gpus, Pos: study.Pos{File: "runs/" + id + "/run.yaml", Line: 1}}
	for i := 0; i+1 < len(workloadValues); i += 2 {
		setMetric(r, workloadValues[i], report.TotalThroughput.Key, workloadValues[i+1], 10)
	}
	return r
}

// setMetric puts a printed value into a run's log of a workload, creating
// the log when needed.
func setMetric(r *study.Run, workload, key, raw string, line int) {
	for i := range r.Logs {
		if r.Logs[i].Workload == workload {
			r.Logs[i].Blocks[0].Metrics[key] = metric(raw, line)
			return
		}
	}
	file := "runs/" + r.ID + "/" + workload + ".log"
	b := benchlog.Block{File: file, Line: 1, EndLine: 22, Format: benchlog.FormatVLLM, Definition: benchlog.CountOverDuration,
		Metrics: map[string]benchlog.Metric{key: metric(raw, line)}}
	r.Logs = append(r.Logs, study.Log{Workload: workload, File: file, Blocks: []benchlog.Block{b}})
}

// testStudy is a study on one node of node GPUs with a main workload
// "sharegpt" and a second one "random-32k". Runs are sorted as the loader
// sorts them.
func testStudy(obj study.Objective, node int, runs ...*study.Run) *study.Study {
	s := &study.Study{
		ID: "test", Model: "Qwen/Qwen3-32B", Objective: obj,
		Hardware:  study.Hardware{GPU: "NVIDIA A100 SXM 80GB", GPUsPerNode: node, Nodes: 1},
		Workloads: []study.Workload{{ID: "sharegpt", Dataset: "sharegpt", Main: true}, {ID: "random-32k", Dataset: "random"}},
		Runs:      runs,
	}
	sort.Slice(s.Runs, func(i, j int) bool { return s.Runs[i].ID < s.Runs[j].ID })
	return s
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-6 }

// engineStudy is the engine step of the Qwen3-235B study: SGLang against
// vLLM, both on the whole node.
func engineStudy() *study.Study {
	s := testStudy(study.Throughput, 8,
		testRun("vllm-tp8", "vLLM", 8, "sharegpt", "3792.50"),
		testRun("sglang-tp8", "SGLang", 8, "sharegpt", "4635.31"),
	)
	s.Baseline = study.Config{Runs: []string{"vllm-tp8"}}
	s.Recommended = study.Config{Runs: []string{"sglang-tp8"}}
	s.Steps = []study.Step{{ID: "engine", Runs: []string{"vllm-tp8", "sglang-tp8"}, Reference: "vllm-tp8"}}
	return s
}
