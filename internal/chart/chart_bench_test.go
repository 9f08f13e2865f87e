package chart

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/benchlog"
	"github.com/perflab/perflab/internal/report"
	"github.com/perflab/perflab/internal/study"
)

// benchReport is a small study with every kind of bar: a projection, a
// failed run, a run left out of comparisons, a missing result, latencies.
func benchReport() *report.Report {
	block := func(kv ...any) benchlog.Block {
		b := benchlog.Block{File: "x", Line: 1, Metrics: map[string]benchlog.Metric{}}
		for i := 0; i+1 < len(kv); i += 2 {
			b.Metrics[kv[i].(string)] = benchlog.Metric{Value: kv[i+1].(float64), Decimals: 2, Line: i + 2}
		}
		return b
	}
	run := func(id string, gpus int, tput map[string]float64, lat ...float64) *study.Run {
		r := &study.Run{ID: id, Name: "Engine " + id, GPUs: gpus}
		for _, w := range []string{"chat", "long"} {
			v, ok := tput[w]
			if !ok {
				continue
			}
			kv := []any{"total_token_throughput", v}
			if len(lat) == 4 {
				kv = append(kv, "mean_ttft_ms", lat[0], "p99_ttft_ms", lat[1], "mean_tpot_ms", lat[2], "p99_tpot_ms", lat[3])
			}
			r.Logs = append(r.Logs, study.Log{Workload: w, File: "runs/" + id + "/" + w + ".log", Blocks: []benchlog.Block{block(kv...)}})
		}
		return r
	}
	s := &study.Study{
		ID: "bench", Model: "org/Model-7B", Objective: study.Throughput,
		Hardware:  study.Hardware{GPU: "GPU", GPUsPerNode: 2, Nodes: 1},
		Workloads: []study.Workload{{ID: "chat", Dataset: "sharegpt", Main: true}, {ID: "long", Dataset: "random"}},
		Runs: []*study.Run{
			run("base", 2, map[string]float64{"chat": 1000.5, "long": 800.25}, 120.5, 900.75, 20.25, 45.5),
			run("half", 1, map[string]float64{"chat": 750.25, "long": 350.5}, 150.25, 1200.5, 12.15, 40.25),
			run("broken", 2, nil),
			run("other", 2, map[string]float64{"chat": 1500.75}),
			run("nolog", 2, map[string]float64{"long": 10}),
		},
		Baseline:    study.Config{Runs: []string{"base"}},
		Recommended: study.Config{Runs: []string{"half"}},
		Steps:       []study.Step{{ID: "engine", Runs: []string{"base", "half", "broken", "other", "nolog"}, Reference: "base"}},
	}
	s.Runs[2].Error = "KeyError: 'weight'"
	sort.Slice(s.Runs, func(i, j int) bool { return s.Runs[i].ID < s.Runs[j].ID })
	return report.Build(s, map[string]string{"other": "model-mismatch"})
}

// benchT stands in for a localizer: the id and its fields, in a few
// words, so that the benchmark measures drawing, not translating.
func benchT(id string, kv ...any) string {
	var b strings.Builder
	b.WriteString(id)
	for i := 1; i < len(kv); i += 2 {
		fmt.Fprintf(&b, " %v", kv[i])
	}
	return b.String()
}

// BenchmarkDraw draws every chart of a small report, wide and narrow.
func BenchmarkDraw(b *testing.B) {
	rep := benchReport()
	name := func(id string) string { return id }
	b.ReportAllocs()
	for b.Loop() {
		charts, err := Draw(rep, benchT, name, name)
		if err != nil || len(charts) != 3 {
			b.Fatalf("%d charts, %v", len(charts), err)
		}
	}
}
