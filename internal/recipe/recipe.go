// Package recipe gathers, for each run, what someone needs to run it
// again: the serving and benchmark commands, engine and tool versions,
// model and revision, GPUs, and each workload's dataset, lengths and
// seed. Every item says where it was read; an item nothing states is
// unknown (Value ""), never filled in from a default.
package recipe

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/perflab/perflab/internal/serving"
	"github.com/perflab/perflab/internal/study"
)

// Item is one value of a recipe and where it comes from; Value "" is
// unknown.
type Item struct {
	Value string
	File  string // where it was read, "" when unknown
	Line  int    // its line, 0 for the file as a whole
}

// From is the item's file and line, "results/s/runs/r/run.yaml:3", with
// the file as path gives it.
func (i Item) From(path func(string) string) string {
	if i.File == "" {
		return ""
	}
	if i.Line <= 0 {
		return path(i.File)
	}
	return path(i.File) + ":" + strconv.Itoa(i.Line)
}

// Known reports whether the item has a value.
func (i Item) Known() bool { return i.Value != "" }

// Workload is the benchmark side of one workload the run measured.
type Workload struct {
	ID                                       string
	Dataset, InputLen, OutputLen, NumPrompts Item
	Seed                                     Item
	Bench                                    Item // the benchmark command
	Echo                                     Item // the arguments the benchmark printed, as printed
}

// Recipe is how to run one run again.
type Recipe struct {
	Run, Name             string
	Serve                 Item
	Derived               bool // the serving command was rebuilt, not printed
	Engine, EngineVersion Item
	Tool, ToolVersion     Item
	Model, Revision       Item
	GPU, GPUs             Item
	Workloads             []Workload
}

// Of gathers the recipe of a run of s that did not fail.
func Of(s *study.Study, r *study.Run) Recipe {
	rec := r.Recorded
	if rec == nil {
		rec = &study.Recorded{}
	}
	rc := Recipe{Run: r.ID, Name: r.Name, Serve: Item{r.Command, r.Pos.File, r.CommandLine}, Derived: r.CommandDerived}
	if e := s.Engine(r.Engine); e != nil {
		rc.Engine = Item{e.Name, e.Pos.File, e.Pos.Line}
		rc.EngineVersion = Item{e.Version, e.Pos.File, e.Pos.Line}
	}
	if rec.EngineVersion != "" {
		rc.EngineVersion = Item{rec.EngineVersion, r.Pos.File, rec.Pos.Line}
	}
	rc.Tool = Item{s.Benchmark.Tool, s.Benchmark.Pos.File, s.Benchmark.Pos.Line}
	rc.Model = Item{s.Model, s.Pos.File, 0}
	if m := serving.Parse(r.Command).Model; m != "" && !r.CommandDerived {
		rc.Model = Item{m, r.Pos.File, r.CommandLine}
	}
	if m := revisionFlag.FindStringSubmatch(r.Command); m != nil {
		rc.Revision = Item{strings.Trim(m[1], `'"`), r.Pos.File, r.CommandLine}
	}
	rc.GPU = Item{s.Hardware.GPU, s.Hardware.Pos.File, s.Hardware.Pos.Line}
	if rec.GPU != "" {
		rc.GPU = Item{rec.GPU, r.Pos.File, rec.Pos.Line}
	}
	if r.GPUs > 0 {
		rc.GPUs = Item{strconv.Itoa(r.GPUs), r.Pos.File, r.GPUsLine}
	}
	seen := map[string]bool{}
	for i := range r.Logs {
		lg := &r.Logs[i]
		if seen[lg.Workload] {
			continue
		}
		seen[lg.Workload] = true
		if w := s.Workload(lg.Workload); w != nil {
			rc.Workloads = append(rc.Workloads, workloadOf(w, lg, rec))
		}
	}
	return rc
}

var revisionFlag = regexp.MustCompile(`--revision[= ]+('[^']*'|"[^"]*"|[^\s'"]+)`)

// workloadOf reads a workload's recipe from study.yaml and from what the
// log echoes of the benchmark's arguments.
func workloadOf(w *study.Workload, lg *study.Log, rec *study.Recorded) Workload {
	from := Item{File: w.Pos.File, Line: w.Pos.Line}
	item := func(v string) Item { return Item{v, from.File, from.Line} }
	wr := Workload{ID: w.ID, Dataset: item(w.Dataset)}
	num := func(n int) Item {
		if n <= 0 {
			return Item{}
		}
		return item(strconv.Itoa(n))
	}
	wr.InputLen, wr.OutputLen, wr.NumPrompts = num(w.InputLen), num(w.OutputLen), num(w.NumPrompts)
	if w.Seed != nil {
		wr.Seed = item(strconv.Itoa(*w.Seed))
	}
	echo, bench := scanLog(lg)
	wr.Echo = echo
	switch {
	case rec.BenchmarkCommand != "":
		wr.Bench = Item{rec.BenchmarkCommand, rec.Pos.File, rec.Pos.Line}
	case bench.Known():
		wr.Bench = bench
	case w.Command != "":
		wr.Bench = item(w.Command)
	}
	if !wr.Seed.Known() && echo.Known() {
		if m := seedArg.FindStringSubmatch(echo.Value); m != nil {
			wr.Seed = Item{m[1], echo.File, echo.Line}
		}
	}
	return wr
}

var seedArg = regexp.MustCompile(`(?:\bseed=|--seed[= ])(\d+)\b`)

// benchMarkers start a benchmark client's command line.
var benchMarkers = []string{"vllm bench serve", "benchmark_serving.py", "sglang.bench_serving", "genai-perf profile", "aiperf profile", "guidellm benchmark", "trtllm-bench", "llama-bench"}

// scanLog finds, before the log's first result block, the arguments the
// benchmark echoed (an argparse Namespace(...) dump) and a benchmark
// command line, each as printed with its line.
func scanLog(lg *study.Log) (echo, bench Item) {
	end := len(lg.Raw)
	if len(lg.Blocks) > 0 && lg.Blocks[0].Line > 0 {
		end = lineOffset(lg.Raw, lg.Blocks[0].Line)
	}
	for n, line := range bytes.Split(lg.Raw[:end], []byte("\n")) {
		t := strings.TrimSpace(strings.TrimSuffix(string(line), "\r"))
		switch {
		case !echo.Known() && strings.Contains(t, "Namespace("):
			echo = Item{t[strings.Index(t, "Namespace("):], lg.File, n + 1}
		case !bench.Known() && containsAny(t, benchMarkers) && !strings.Contains(t, "INFO"):
			bench = Item{strings.TrimPrefix(strings.TrimPrefix(t, "$ "), "+ "), lg.File, n + 1}
		}
	}
	return echo, bench
}

// lineOffset is the byte offset where 1-based line n starts.
func lineOffset(raw []byte, n int) int {
	off := 0
	for i := 1; i < n; i++ {
		j := bytes.IndexByte(raw[off:], '\n')
		if j < 0 {
			return len(raw)
		}
		off += j + 1
	}
	return off
}

func containsAny(s string, subs []string) bool {
	for _, x := range subs {
		if strings.Contains(s, x) {
			return true
		}
	}
	return false
}

// Describe is a one-line text of a workload's dataset, lengths, prompts
// and seed, with unknown for each missing item.
func (w Workload) Describe(unknown string) string {
	v := func(i Item) string {
		if i.Known() {
			return i.Value
		}
		return unknown
	}
	s := fmt.Sprintf("dataset %s", v(w.Dataset))
	if w.Dataset.Value == "random" {
		s += fmt.Sprintf(", input %s tokens, output %s tokens", v(w.InputLen), v(w.OutputLen))
	}
	return s + fmt.Sprintf(", %s prompts, seed %s", v(w.NumPrompts), v(w.Seed))
}
