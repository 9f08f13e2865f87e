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

// All gathers the recipes of the runs of s that have results, in the
// study's order of runs: what the report's "Reproduce these runs" and
// reproduce.sh show. Each log is scanned once for each call, so a build
// makes them once per study and passes them on.
func All(s *study.Study) []Recipe {
	var out []Recipe
	for _, r := range s.Runs {
		if !r.Failed() && len(r.Logs) > 0 {
			out = append(out, Of(s, r))
		}
	}
	return out
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
var benchMarkers = [][]byte{[]byte("vllm bench serve"), []byte("benchmark_serving.py"), []byte("sglang.bench_serving"), []byte("genai-perf profile"), []byte("aiperf profile"), []byte("guidellm benchmark"), []byte("trtllm-bench"), []byte("llama-bench")}

var (
	namespace = []byte("Namespace(")
	infoMark  = []byte("INFO")
)

// scanLog finds, before the log's first result block, the arguments the
// benchmark echoed (an argparse Namespace(...) dump) and a benchmark
// command line, each as printed with its line: the first line that holds
// Namespace(, and the first other line that holds a marker and no INFO.
// Each marker is searched for in the whole text at once, so that a log of
// 64 MiB costs a few passes of bytes.Index, without a copy of any line
// but the ones found.
func scanLog(lg *study.Log) (echo, bench Item) {
	end := len(lg.Raw)
	if len(lg.Blocks) > 0 && lg.Blocks[0].Line > 0 {
		end = lineOffset(lg.Raw, lg.Blocks[0].Line)
	}
	head := lg.Raw[:end]
	echoLine := -1
	if i := bytes.Index(head, namespace); i >= 0 {
		start, stop := lineAround(head, i)
		t := lineText(head[start:stop])
		echoLine = start
		echo = Item{t[strings.Index(t, "Namespace("):], lg.File, bytes.Count(head[:start], []byte("\n")) + 1}
	}
	first := -1 // the start of the first bench line found
	for _, m := range benchMarkers {
		for from := 0; ; {
			i := bytes.Index(head[from:], m)
			if i < 0 {
				break
			}
			start, stop := lineAround(head, from+i)
			if first >= 0 && start >= first {
				break
			}
			if start != echoLine && !bytes.Contains(head[start:stop], infoMark) {
				first = start
				break
			}
			from = stop
		}
	}
	if first >= 0 {
		_, stop := lineAround(head, first)
		t := lineText(head[first:stop])
		bench = Item{strings.TrimPrefix(strings.TrimPrefix(t, "$ "), "+ "), lg.File, bytes.Count(head[:first], []byte("\n")) + 1}
	}
	return echo, bench
}

// lineAround is the line of text that holds offset i: its start and its
// end, before the line feed.
func lineAround(text []byte, i int) (start, stop int) {
	start = bytes.LastIndexByte(text[:i], '\n') + 1
	stop = len(text)
	if j := bytes.IndexByte(text[i:], '\n'); j >= 0 {
		stop = i + j
	}
	return start, stop
}

// lineText is a line as the recipe shows it: without its CR and the
// spaces around it.
func lineText(line []byte) string {
	return strings.TrimSpace(strings.TrimSuffix(string(line), "\r"))
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
