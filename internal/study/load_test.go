package study_test

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/perflab/perflab/internal/benchlog"
	"github.com/perflab/perflab/internal/study"
)

// studyYAML is a minimal valid study. Line numbers matter: the cases below
// name them.
const studyYAML = `model: org/Example-8B
hardware:
  gpu: NVIDIA H100 SXM 80GB
  gpus_per_node: 8
  nodes: 1
objective: throughput
engines:
  - id: vllm
    name: vLLM
    version: v0.11.0
benchmark:
  tool: vllm bench serve
workloads:
  - id: sharegpt
    dataset: sharegpt
    main: true
  - id: random-1k
    dataset: random
    input_len: 1000
    output_len: 100
baseline: [vllm]
recommended: [vllm-fp8]
steps:
  - id: quantization
    runs: [vllm-fp8]
    reference: vllm
claims:
  - kind: conclusion
    workload: sharegpt
    printed: "+12.0%"
    source: "r.md:17"
  - kind: step
    step: quantization
    printed: "+12.0%"
    source: "r.md:40"
`

const runVLLM = `name: vLLM
engine: vllm
command: vllm serve org/Example-8B
gpus: 1
`

const runFP8 = `name: vLLM FP8
engine: vllm
command: |-
  # FP8 weights
  vllm serve org/Example-8B-FP8
gpus: 1
`

// vllmBlock returns a small vLLM result block with the given total token
// throughput (duration 100 s, so the counts agree).
func vllmBlock(total string) string {
	return `============ Serving Benchmark Result ============
Successful requests:                     200
Benchmark duration (s):                  100.00
Total input tokens:                      44000
Total generated tokens:                  56000
Request throughput (req/s):              2.00
Output token throughput (tok/s):         560.00
Total Token throughput (tok/s):          ` + total + `
---------------Time to First Token----------------
Mean TTFT (ms):                          4200.00
Median TTFT (ms):                        4100.00
P99 TTFT (ms):                           9800.00
==================================================
`
}

// validFiles returns the files of the minimal valid study, relative to the
// study folder.
func validFiles() map[string]string {
	return map[string]string{
		"study.yaml":                  studyYAML,
		"runs/vllm/run.yaml":          runVLLM,
		"runs/vllm/sharegpt.log":      vllmBlock("1000.00"),
		"runs/vllm/random-1k.log":     vllmBlock("990.00"),
		"runs/vllm-fp8/run.yaml":      runFP8,
		"runs/vllm-fp8/sharegpt.log":  vllmBlock("1120.00"),
		"runs/vllm-fp8/random-1k.log": vllmBlock("1100.00"),
	}
}

func mapFS(files map[string]string) fstest.MapFS {
	fsys := fstest.MapFS{}
	for name, data := range files {
		fsys[name] = &fstest.MapFile{Data: []byte(data), Mode: 0o644}
	}
	return fsys
}

// reversedFS lists every directory in reverse order, so that a test of
// sorting does not pass only because the file system sorts.
type reversedFS struct{ fsys fs.FS }

func (r reversedFS) Open(name string) (fs.File, error) { return r.fsys.Open(name) }

func (r reversedFS) ReadDir(name string) ([]fs.DirEntry, error) {
	entries, err := fs.ReadDir(r.fsys, name)
	slices.Reverse(entries)
	return entries, err
}

func (r reversedFS) Sub(dir string) (fs.FS, error) {
	sub, err := fs.Sub(r.fsys, dir)
	return reversedFS{sub}, err
}

// loadsFromHead: LoadMeta's head loads the study, problems and all, as
// Load does.
func loadsFromHead(t *testing.T, fsys fs.FS) {
	t.Helper()
	want, wantProbs, wantErr := study.Load(fsys, "results/x", "x")
	_, head, _, err := study.LoadMeta(fsys, "results/x", "x")
	if head == nil {
		if want != nil || err != wantErr {
			t.Errorf("LoadMeta gave no head (%v), Load a study (%v)", err, wantErr)
		}
		return
	}
	got, gotProbs, err := head.Load(fsys)
	if err != wantErr || !reflect.DeepEqual(got, want) || !reflect.DeepEqual(gotProbs, wantProbs) {
		t.Errorf("from the head: %v, %v\n%+v\nLoad: %v, %v\n%+v", err, gotProbs, got, wantErr, wantProbs, want)
	}
	if again, _, _ := head.Load(fsys); !reflect.DeepEqual(again, want) {
		t.Errorf("a head's second load differs from Load")
	}
}

func TestLoadValid(t *testing.T) {
	s, problems, err := study.Load(reversedFS{mapFS(validFiles())}, "results/x", "x")
	if err != nil {
		t.Fatal(err)
	}
	loadsFromHead(t, reversedFS{mapFS(validFiles())})
	for _, p := range problems {
		t.Errorf("unexpected problem: %v", p)
	}
	if s == nil {
		t.Fatal("Load returned no study")
	}
	if s.ID != "x" || s.Dir != "results/x" || s.Pos != (study.Pos{File: "results/x/study.yaml", Line: 1}) {
		t.Errorf("ID, Dir, Pos = %q, %q, %v", s.ID, s.Dir, s.Pos)
	}
	if s.Model != "org/Example-8B" || s.Objective != study.Throughput {
		t.Errorf("Model, Objective = %q, %q", s.Model, s.Objective)
	}
	if h := s.Hardware; h.GPU != "NVIDIA H100 SXM 80GB" || h.GPUsPerNode != 8 || h.Nodes != 1 || h.GPUs() != 8 || h.Pos.Line != 3 {
		t.Errorf("Hardware = %+v", h)
	}
	if len(s.Engines) != 1 || s.Engines[0] != (study.Engine{ID: "vllm", Name: "vLLM", Version: "v0.11.0", Pos: study.Pos{File: "results/x/study.yaml", Line: 8}, VersionLine: 10}) {
		t.Errorf("Engines = %+v", s.Engines)
	}
	if s.Benchmark.Tool != "vllm bench serve" || s.Benchmark.Commands != "" {
		t.Errorf("Benchmark = %+v", s.Benchmark)
	}
	if len(s.Workloads) != 2 {
		t.Fatalf("Workloads = %+v", s.Workloads)
	}
	w0, w1 := s.Workloads[0], s.Workloads[1]
	if w0.ID != "sharegpt" || w0.Dataset != "sharegpt" || !w0.Main || w0.InputLen != 0 || w0.Pos.Line != 14 {
		t.Errorf("Workloads[0] = %+v", w0)
	}
	if w1.ID != "random-1k" || w1.Dataset != "random" || w1.Main || w1.InputLen != 1000 || w1.OutputLen != 100 || w1.Pos.Line != 17 || w1.MaxConcurrency != nil || w1.Seed != nil {
		t.Errorf("Workloads[1] = %+v", w1)
	}
	if m := s.MainWorkload(); m == nil || m.ID != "sharegpt" {
		t.Errorf("MainWorkload = %+v", m)
	}
	if !slices.Equal(s.Baseline.Runs, []string{"vllm"}) || s.Baseline.Pos.Line != 21 {
		t.Errorf("Baseline = %+v", s.Baseline)
	}
	if !slices.Equal(s.Recommended.Runs, []string{"vllm-fp8"}) || s.Recommended.Pos.Line != 22 {
		t.Errorf("Recommended = %+v", s.Recommended)
	}
	if len(s.Steps) != 1 || s.Steps[0].ID != "quantization" || !slices.Equal(s.Steps[0].Runs, []string{"vllm-fp8"}) ||
		s.Steps[0].Reference != "vllm" || s.Steps[0].Pos.Line != 24 {
		t.Errorf("Steps = %+v", s.Steps)
	}
	wantClaims := []study.Claim{
		{Kind: study.ClaimConclusion, Workload: "sharegpt", Printed: "+12.0%", Source: "r.md:17", Pos: study.Pos{File: "results/x/study.yaml", Line: 28}},
		{Kind: study.ClaimStep, Step: "quantization", Printed: "+12.0%", Source: "r.md:40", Pos: study.Pos{File: "results/x/study.yaml", Line: 32}},
	}
	if !slices.Equal(s.Claims, wantClaims) {
		t.Errorf("Claims = %+v\nwant %+v", s.Claims, wantClaims)
	}
	if len(s.Acks) != 0 {
		t.Errorf("Acks = %+v", s.Acks)
	}

	var ids []string
	for _, r := range s.Runs {
		ids = append(ids, r.ID)
	}
	if !slices.Equal(ids, []string{"vllm", "vllm-fp8"}) {
		t.Fatalf("runs = %v, want sorted by id [vllm vllm-fp8]", ids)
	}
	fp8 := s.Run("vllm-fp8")
	if fp8 == nil || s.Run("nope") != nil {
		t.Fatal("Run lookup is wrong")
	}
	if fp8.Name != "vLLM FP8" || fp8.Engine != "vllm" || fp8.Command != "# FP8 weights\nvllm serve org/Example-8B-FP8" ||
		fp8.GPUs != 1 || fp8.Failed() || fp8.CommandDerived {
		t.Errorf("run vllm-fp8 = %+v", fp8)
	}
	if fp8.Pos != (study.Pos{File: "results/x/runs/vllm-fp8/run.yaml", Line: 1}) || fp8.CommandLine != 3 || fp8.GPUsLine != 6 {
		t.Errorf("run vllm-fp8 Pos, CommandLine, GPUsLine = %v, %d, %d", fp8.Pos, fp8.CommandLine, fp8.GPUsLine)
	}
	// Logs follow the study's workload order (sharegpt, random-1k), not the
	// file names' order.
	for _, r := range s.Runs {
		var got []string
		for _, l := range r.Logs {
			got = append(got, l.Workload+"="+l.File)
		}
		want := []string{
			"sharegpt=results/x/runs/" + r.ID + "/sharegpt.log",
			"random-1k=results/x/runs/" + r.ID + "/random-1k.log",
		}
		if !slices.Equal(got, want) {
			t.Errorf("run %s logs = %v, want %v", r.ID, got, want)
		}
	}
	b := fp8.Result("sharegpt")
	if b == nil {
		t.Fatal("no sharegpt result for vllm-fp8")
	}
	if v, ok := b.Value("total_token_throughput"); !ok || v != 1120 {
		t.Errorf("total_token_throughput = %v, %v; want 1120", v, ok)
	}
	if b.File != "results/x/runs/vllm-fp8/sharegpt.log" || b.Line != 1 || b.EndLine != 13 {
		t.Errorf("block at %s:%d-%d", b.File, b.Line, b.EndLine)
	}
	if fp8.Result("other") != nil {
		t.Error("Result of an unknown workload is not nil")
	}
}

func TestLoadAll(t *testing.T) {
	files := map[string]string{}
	for name, data := range validFiles() {
		files["b-study/"+name] = data
		files["a-study/"+name] = data
	}
	files["c-empty/README"] = "no study here"
	files[".hidden/study.yaml"] = "not: loaded"
	studies, problems, err := study.LoadAll(reversedFS{mapFS(files)}, "results")
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, s := range studies {
		ids = append(ids, s.ID+"@"+s.Dir)
	}
	// LoadAll keeps the file system's order; the order of reversedFS here.
	slices.Sort(ids)
	if !slices.Equal(ids, []string{"a-study@results/a-study", "b-study@results/b-study"}) {
		t.Errorf("studies = %v", ids)
	}
	var got []string
	for _, p := range problems {
		got = append(got, p.Error())
	}
	want := []string{"results/c-empty:0: a study folder needs a study.yaml file (see docs/results-format.md)"}
	if !slices.Equal(got, want) {
		t.Errorf("problems = %q\nwant %q", got, want)
	}
}

// edit returns a change of the valid study: a replacement of text in one
// file (old must occur), or a new content for a file ("" deletes it).
type edit struct {
	file, old, new string
	set            bool
}

func replace(file, old, new string) edit { return edit{file: file, old: old, new: new} }
func set(file, data string) edit         { return edit{file: file, new: data, set: true} }
func remove(file string) edit            { return edit{file: file, set: true} }

func TestLoadProblems(t *testing.T) {
	const sy, rv = "study.yaml", "runs/vllm/run.yaml"
	cases := []struct {
		name  string
		edits []edit
		at    string // "file:line" of the problem, relative to results/x
		msg   string // substring of the message
	}{
		{"unknown top-level field", []edit{replace(sy, "model: org/Example-8B\n", "model: org/Example-8B\ncolour: red\n")},
			"study.yaml:2", `study: unknown field "colour"; known fields are model, hardware,`},
		{"unknown hardware field", []edit{replace(sy, "  nodes: 1\n", "  nodes: 1\n  vram: 80\n")},
			"study.yaml:6", `hardware: unknown field "vram"; known fields are gpu, gpus_per_node, nodes`},
		{"unknown workload field", []edit{replace(sy, "    main: true\n", "    main: true\n    weight: 2\n")},
			"study.yaml:17", `workload: unknown field "weight"; known fields are id, dataset,`},
		{"unknown run field", []edit{set(rv, runVLLM+"colour: red\n")},
			"runs/vllm/run.yaml:5", `run: unknown field "colour"; known fields are name, engine, command,`},
		{"duplicate field", []edit{replace(sy, "objective: throughput\n", "objective: throughput\nobjective: latency\n")},
			"study.yaml:7", `study: field "objective" is given twice`},
		{"missing top-level field", []edit{replace(sy, "objective: throughput\n", "")},
			"study.yaml:1", `study: missing required field "objective"`},
		{"missing hardware field", []edit{replace(sy, "  gpu: NVIDIA H100 SXM 80GB\n", "")},
			"study.yaml:3", `hardware: missing required field "gpu"`},
		{"missing run field", []edit{replace(rv, "gpus: 1\n", "")},
			"runs/vllm/run.yaml:1", `run: missing required field "gpus"`},
		{"missing workload id", []edit{replace(sy, "  - id: random-1k\n    dataset: random\n", "  - dataset: random\n")},
			"study.yaml:17", `workload: missing required field "id"`},
		{"gpus not a number", []edit{replace(rv, "gpus: 1", `gpus: "four"`)},
			"runs/vllm/run.yaml:4", `run: field "gpus" must be a whole number, not "four"`},
		{"nodes zero", []edit{replace(sy, "  nodes: 1", "  nodes: 0")},
			"study.yaml:5", `hardware: field "nodes" must be greater than zero`},
		{"main not a boolean", []edit{replace(sy, "    main: true", "    main: maybe")},
			"study.yaml:16", `workload: field "main" must be true or false`},
		{"step runs not a list", []edit{replace(sy, "    runs: [vllm-fp8]", "    runs: not-a-list")},
			"study.yaml:25", `step: field "runs" must be a list such as [a, b]`},
		{"step without runs keeps a reference", []edit{replace(sy, "    runs: [vllm-fp8]", "    runs: []")},
			"study.yaml:26", `step: a step with no runs compares nothing; remove its reference`},
		{"step without a reference", []edit{replace(sy, "    reference: vllm\n", "")},
			"study.yaml:24", `step: missing required field "reference"`},
		{"workloads not a list", []edit{replace(sy, "baseline: [vllm]", "baseline: vllm")},
			"study.yaml:21", `study: field "baseline" must be a list such as [a, b]`},
		{"model not a string", []edit{replace(sy, "model: org/Example-8B", "model: [a, b]")},
			"study.yaml:1", `study: field "model" must be a string`},
		{"empty string", []edit{replace(rv, "name: vLLM", `name: ""`)},
			"runs/vllm/run.yaml:1", `run: field "name" must not be empty`},
		{"model name over the name limit", []edit{replace(sy, "model: org/Example-8B", "model: org/"+strings.Repeat("x", 1000))},
			"study.yaml:1", `study: field "model" is 1004 bytes long; the limit is 256: shorten it`},
		{"model name of 20 MB", []edit{replace(sy, "model: org/Example-8B", "model: org/"+strings.Repeat("x", 20<<20))},
			"study.yaml:1", `the file is 20972147 bytes; the limit is 1048576 (1 MiB)`},
		{"command over the text limit", []edit{replace(rv, "command: vllm serve org/Example-8B", "command: vllm serve org/Example-8B"+strings.Repeat(" -x", 6<<10))},
			"runs/vllm/run.yaml:3", `a value of 18457 bytes; the limit is 16384: shorten it`},
		{"run.yaml over 1 MiB", []edit{replace(rv, "gpus: 1", "gpus: 1\n#"+strings.Repeat("c", 1<<20))},
			"runs/vllm/run.yaml:1", `the file is 1048645 bytes; the limit is 1048576 (1 MiB)`},
		{"invalid YAML, tab", []edit{replace(sy, "  nodes: 1\n", "\tnodes: 1\n")},
			"study.yaml:5", "invalid YAML: found a tab character that violates indentation"},
		{"invalid YAML, unclosed list", []edit{replace(sy, "recommended: [vllm-fp8]", "recommended: [vllm-fp8")},
			"study.yaml:22", "invalid YAML: did not find expected ',' or ']'"},
		{"invalid YAML, bad indentation", []edit{replace(sy, "  gpus_per_node: 8\n", "  gpus_per_node: 8\n    nodes: 1\n")},
			"study.yaml:5", "invalid YAML: mapping values are not allowed in this context"},
		{"invalid YAML in run.yaml", []edit{replace(rv, "gpus: 1", "gpus: [1")},
			"runs/vllm/run.yaml:4", "invalid YAML"},
		{"empty run.yaml", []edit{set(rv, "# nothing\n")},
			"runs/vllm/run.yaml:1", "the file is empty"},
		{"top level not a mapping", []edit{set(rv, "- a\n- b\n")},
			"runs/vllm/run.yaml:1", "expected a mapping of fields at the top level"},
		{"unknown objective", []edit{replace(sy, "objective: throughput", "objective: speed")},
			"study.yaml:6", `study: objective "speed" is not known; use "throughput" or "latency"`},
		{"unknown dataset", []edit{replace(sy, "    dataset: sharegpt\n", "    dataset: alpaca\n")},
			"study.yaml:15", `workload sharegpt: dataset "alpaca" is not known; use sharegpt or random`},
		{"input_len on sharegpt", []edit{replace(sy, "    dataset: sharegpt\n", "    dataset: sharegpt\n    input_len: 512\n")},
			"study.yaml:16", `workload sharegpt: "input_len" applies to the random dataset only`},
		{"random without output_len", []edit{replace(sy, "    output_len: 100\n", "")},
			"study.yaml:17", `workload: missing required field "output_len"`},
		{"two main workloads", []edit{replace(sy, "    output_len: 100\n", "    output_len: 100\n    main: true\n")},
			"study.yaml:1", "exactly one workload must be marked main: true (the one steps are compared on); found 2"},
		{"no main workload", []edit{replace(sy, "    main: true\n", "")},
			"study.yaml:1", "exactly one workload must be marked main: true (the one steps are compared on); found 0"},
		{"duplicate workload id", []edit{replace(sy, "baseline:", "  - id: sharegpt\n    dataset: sharegpt\nbaseline:")},
			"study.yaml:21", `workload id "sharegpt" is used twice`},
		{"duplicate step id", []edit{replace(sy, "claims:", "  - id: quantization\n    runs: [vllm]\n    reference: vllm-fp8\nclaims:")},
			"study.yaml:27", `step id "quantization" is used twice`},
		{"baseline names no folder", []edit{replace(sy, "baseline: [vllm]", "baseline: [vllm, ghost]")},
			"study.yaml:21", `baseline names run "ghost", which has no folder results/x/runs/ghost`},
		{"recommended names no folder", []edit{replace(sy, "recommended: [vllm-fp8]", "recommended: [ghost]")},
			"study.yaml:22", `recommended names run "ghost", which has no folder results/x/runs/ghost`},
		{"step run names no folder", []edit{replace(sy, "    runs: [vllm-fp8]", "    runs: [vllm-fp8, ghost]")},
			"study.yaml:24", `step quantization names run "ghost", which has no folder results/x/runs/ghost`},
		{"step reference names no folder", []edit{replace(sy, "    reference: vllm\n", "    reference: ghost\n")},
			"study.yaml:24", `step quantization reference names run "ghost", which has no folder results/x/runs/ghost`},
		{"claim names unknown workload", []edit{replace(sy, "    workload: sharegpt", "    workload: alpaca")},
			"study.yaml:28", `claim names workload "alpaca", which the study does not define`},
		{"claim names unknown step", []edit{replace(sy, "    step: quantization", "    step: engine")},
			"study.yaml:32", `claim names step "engine", which the study does not define`},
		{"conclusion claim without workload", []edit{replace(sy, "    workload: sharegpt\n", "")},
			"study.yaml:28", `claim: a conclusion claim needs the field "workload"`},
		{"step claim without step", []edit{replace(sy, "    step: quantization\n", "")},
			"study.yaml:32", `claim: a step claim needs the field "step"`},
		{"unknown claim kind", []edit{replace(sy, "  - kind: step", "  - kind: guess")},
			"study.yaml:32", `claim: kind "guess" is not known; use conclusion, step`},
		{"run engine not in engines", []edit{replace(rv, "engine: vllm", "engine: sglang")},
			"runs/vllm/run.yaml:2", `run vllm: engine "sglang" is not one of the study's engines in results/x/study.yaml`},
		{"log with two result blocks", []edit{set("runs/vllm/sharegpt.log", vllmBlock("1000.00")+vllmBlock("1001.00"))},
			"runs/vllm/sharegpt.log:14", "a second result block (the first is at line 1)"},
		{"log named after no workload", []edit{set("runs/vllm/alpaca.log", vllmBlock("1.00"))},
			"runs/vllm/alpaca.log:0", `log "alpaca.log" names no workload of the study; name a log <workload-id>.log`},
		{"unexpected file in run folder", []edit{set("runs/vllm/notes.txt", "hi")},
			"runs/vllm/notes.txt:0", "unexpected file in a run folder: expected run.yaml and <workload-id>.log files"},
		{"unexpected file in runs", []edit{set("runs/README", "hi")},
			"runs/README:0", "unexpected file in runs/: each run is a folder"},
		{"failed run with logs", []edit{set(rv, runVLLM+"error: \"CUDA out of memory\"\n")},
			"runs/vllm/run.yaml:5", "run vllm has an error and also result logs: a failed run has no result; remove the error or the logs"},
		{"run with neither logs nor error", []edit{remove("runs/vllm-fp8/sharegpt.log"), remove("runs/vllm-fp8/random-1k.log")},
			"runs/vllm-fp8/run.yaml:1", "run vllm-fp8 has no <workload-id>.log file and no error: add its logs, or the error it printed"},
		{"missing run.yaml", []edit{remove("runs/vllm-fp8/run.yaml")},
			"runs/vllm-fp8:0", "run folder has no run.yaml: add one with engine, command and gpus"},
		{"invalid run folder id", []edit{set("runs/Bad Run/run.yaml", runVLLM), set("runs/Bad Run/sharegpt.log", vllmBlock("1.00"))},
			"runs/Bad Run:0", `run folder name "Bad Run" is not a valid id: use lower-case letters`},
		{"log with no result block", []edit{set("runs/vllm/sharegpt.log", "INFO starting server\nINFO done\n")},
			"runs/vllm/sharegpt.log:1", `no known benchmark output in sharegpt.log: nothing in it looks like a benchmark`},
		{"no runs folder", []edit{remove(rv), remove("runs/vllm/sharegpt.log"), remove("runs/vllm/random-1k.log"),
			remove("runs/vllm-fp8/run.yaml"), remove("runs/vllm-fp8/sharegpt.log"), remove("runs/vllm-fp8/random-1k.log")},
			"study.yaml:1", "study has no runs/ folder: add one folder per run"},
	}
	// Edits that are more than one mistake: each further problem is true.
	cascades := map[string]bool{
		"missing workload id": true, // its log files name no workload now
		"main not a boolean":  true, // and no workload is main
		"no runs folder":      true, // and the runs named have no folder
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			files := validFiles()
			for _, e := range c.edits {
				if e.set {
					if e.new == "" {
						delete(files, e.file)
					} else {
						files[e.file] = e.new
					}
					continue
				}
				if !strings.Contains(files[e.file], e.old) {
					t.Fatalf("%s does not contain %q", e.file, e.old)
				}
				files[e.file] = strings.Replace(files[e.file], e.old, e.new, 1)
			}
			_, problems, err := study.Load(mapFS(files), "results/x", "x")
			if err != nil {
				t.Fatal(err)
			}
			loadsFromHead(t, mapFS(files))
			want := "results/x/" + c.at + ": "
			var found bool
			var got []string
			for _, p := range problems {
				s := p.Error()
				got = append(got, s)
				if strings.HasPrefix(s, want) && strings.Contains(p.Msg, c.msg) {
					found = true
				}
			}
			if !found {
				t.Errorf("no problem %s...%s among:\n%s", want, c.msg, strings.Join(got, "\n"))
			} else if len(got) != 1 && !cascades[c.name] {
				// One mistake, one problem: no cascade that points elsewhere.
				t.Errorf("%d problems, want only %s...%s:\n%s", len(got), want, c.msg, strings.Join(got, "\n"))
			}
		})
	}
}

// Each problem above is the only one its edit causes, unless it cannot be:
// a problem must not drag others along that point elsewhere.
func TestLoadProblemIsAlone(t *testing.T) {
	files := validFiles()
	files["study.yaml"] = strings.Replace(studyYAML, "objective: throughput", "objective: speed", 1)
	_, problems, err := study.Load(mapFS(files), "results/x", "x")
	if err != nil {
		t.Fatal(err)
	}
	if len(problems) != 1 {
		t.Errorf("problems = %v, want exactly one", problems)
	}
}

func TestLoadMissingStudyFile(t *testing.T) {
	files := validFiles()
	delete(files, "study.yaml")
	s, problems, err := study.Load(mapFS(files), "results/x", "x")
	if err != nil {
		t.Fatal(err)
	}
	if s != nil {
		t.Errorf("Load returned a study without study.yaml: %+v", s)
	}
	if len(problems) != 1 || problems[0].Error() != "results/x:0: a study folder needs a study.yaml file (see docs/results-format.md)" {
		t.Errorf("problems = %v", problems)
	}
}

func TestLoadInvalidStudyID(t *testing.T) {
	_, problems, err := study.Load(mapFS(validFiles()), "results/Qwen_Study", "Qwen_Study")
	if err != nil {
		t.Fatal(err)
	}
	want := `results/Qwen_Study/study.yaml:1: study folder name "Qwen_Study" is not a valid id: use lower-case letters, digits, '.', '_' and '-'`
	if len(problems) != 1 || problems[0].Error() != want {
		t.Errorf("problems = %v\nwant [%s]", problems, want)
	}
}

func TestLoadOptionalFields(t *testing.T) {
	files := validFiles()
	files["study.yaml"] = strings.NewReplacer(
		"  tool: vllm bench serve\n", "  tool: vllm bench serve\n  commands: |\n    # ShareGPT\n    vllm bench serve --num-prompts 200\n",
		"    output_len: 100\n", "    output_len: 100\n    num_prompts: 200\n    seed: 0\n    max_concurrency: 64\n    command: vllm bench serve --seed 0\n",
	).Replace(studyYAML) + `acknowledged:
  - rule: claim-mismatch
    subject: conclusion/sharegpt
    reason:
      en: "English."
      zh: "中文。"
      ja: "日本語。"
`
	files["runs/vllm/run.yaml"] = runVLLM + "command_derived: true\n"
	s, problems, err := study.Load(mapFS(files), "results/x", "x")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Errorf("unexpected problem: %v", p)
	}
	if s.Benchmark.Commands != "# ShareGPT\nvllm bench serve --num-prompts 200\n" {
		t.Errorf("Commands = %q", s.Benchmark.Commands)
	}
	w := s.Workload("random-1k")
	if w == nil || w.NumPrompts != 200 || w.Seed == nil || *w.Seed != 0 || w.MaxConcurrency == nil || *w.MaxConcurrency != 64 ||
		w.Command != "vllm bench serve --seed 0" {
		t.Errorf("workload = %+v", w)
	}
	if len(s.Acks) != 1 {
		t.Fatalf("Acks = %+v", s.Acks)
	}
	a := s.Acks[0]
	if a.Rule != "claim-mismatch" || a.Subject != "conclusion/sharegpt" || a.Pos.Line != 44 ||
		fmt.Sprint(a.Reason) != "map[en:English. ja:日本語。 zh:中文。]" {
		t.Errorf("Ack = %+v", a)
	}
	if r := s.Run("vllm"); !r.CommandDerived {
		t.Error("command_derived: true was not read")
	}
}

func TestFailedRun(t *testing.T) {
	files := validFiles()
	files["runs/vllm-fp8/run.yaml"] = runFP8 + "error: \"RuntimeError: kernel not available\"\n"
	delete(files, "runs/vllm-fp8/sharegpt.log")
	delete(files, "runs/vllm-fp8/random-1k.log")
	s, problems, err := study.Load(mapFS(files), "results/x", "x")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Errorf("unexpected problem: %v", p)
	}
	r := s.Run("vllm-fp8")
	if !r.Failed() || r.Error != "RuntimeError: kernel not available" || len(r.Logs) != 0 || r.Result("sharegpt") != nil {
		t.Errorf("failed run = %+v", r)
	}
}

func TestBlockText(t *testing.T) {
	block := vllmBlock("1000.00")
	raw := "INFO starting\r\nsome noise\n" + block + "INFO after the block\n"
	files := validFiles()
	files["runs/vllm/sharegpt.log"] = raw
	s, _, err := study.Load(mapFS(files), "results/x", "x")
	if err != nil {
		t.Fatal(err)
	}
	l := s.Run("vllm").Logs[0]
	if l.Workload != "sharegpt" || string(l.Raw) != raw || len(l.Blocks) != 1 {
		t.Fatalf("log = %s, %d blocks", l.Workload, len(l.Blocks))
	}
	b := &l.Blocks[0]
	if b.Line != 3 || b.EndLine != 15 {
		t.Errorf("block lines %d-%d, want 3-15", b.Line, b.EndLine)
	}
	if got, want := l.BlockText(b), strings.TrimSuffix(block, "\n"); got != want {
		t.Errorf("BlockText =\n%s\nwant\n%s", got, want)
	}
	// A block at the very end of a file without a final newline.
	l2 := s.Run("vllm").Logs[1]
	if got, want := l2.BlockText(&l2.Blocks[0]), strings.TrimSuffix(vllmBlock("990.00"), "\n"); got != want {
		t.Errorf("BlockText of a whole-file block =\n%s\nwant\n%s", got, want)
	}
}

// FuzzBlockText compares BlockText with its definition: lines Line to
// EndLine of the log as strings.SplitAfter cuts them, joined, without the
// final line break.
func FuzzBlockText(f *testing.F) {
	f.Add("a\nb\r\nc\n", 2, 3)
	f.Add("a\nb", 1, 0)
	f.Add("", 1, 1)
	f.Add("x\n\n\n", 2, 9)
	f.Add("one line", 0, 1)
	f.Fuzz(func(t *testing.T, raw string, line, end int) {
		l := study.Log{Raw: []byte(raw)}
		b := &benchlog.Block{Line: line, EndLine: end}
		lines := strings.SplitAfter(raw, "\n")
		want := ""
		if end <= 0 || end > len(lines) {
			end = len(lines)
		}
		if line >= 1 && line <= end {
			want = strings.TrimRight(strings.Join(lines[line-1:end], ""), "\r\n")
		}
		if got := l.BlockText(b); got != want {
			t.Errorf("BlockText(%q, %d-%d) = %q, want %q", raw, b.Line, b.EndLine, got, want)
		}
	})
}

// TestFailureLog: a log that holds only the error a server printed makes a
// failed run with that error, not a result and not a problem.
func TestFailureLog(t *testing.T) {
	files := validFiles()
	delete(files, "runs/vllm-fp8/random-1k.log")
	files["runs/vllm-fp8/sharegpt.log"] = "INFO starting server\n# RuntimeError: CUDA out of memory\n"
	s, problems, err := study.Load(mapFS(files), "results/x", "x")
	if err != nil {
		t.Fatal(err)
	}
	if len(problems) != 0 {
		t.Fatalf("problems: %v", problems)
	}
	r := s.Run("vllm-fp8")
	if !r.Failed() || r.Error != "RuntimeError: CUDA out of memory" || len(r.Logs) != 0 {
		t.Errorf("run failed=%v error=%q logs=%d, want a failed run with the printed error and no result", r.Failed(), r.Error, len(r.Logs))
	}
}

// saveResult is a small vLLM --save-result JSON with per-request arrays.
const saveResult = `{"duration": 2.0, "completed": 2, "num_prompts": 2, "total_input_tokens": 200, "total_output_tokens": 6, ` +
	`"request_throughput": 1.0, "output_throughput": 3.0, "total_token_throughput": 103.0, ` +
	`"input_lens": [100, 100], "output_lens": [3, 3], "ttfts": [0.1, 0.2], "itls": [[0.01, 0.02], [0.01, 0.03]], "errors": ["", ""]}
`

// TestLoadJSONLog: a <workload>.json holds a workload's result like a
// .log, with its per-request samples.
func TestLoadJSONLog(t *testing.T) {
	files := validFiles()
	delete(files, "runs/vllm/sharegpt.log")
	files["runs/vllm/sharegpt.json"] = saveResult
	s, problems, err := study.Load(mapFS(files), "results/x", "x")
	if err != nil {
		t.Fatal(err)
	}
	if len(problems) != 0 {
		t.Fatalf("problems: %v", problems)
	}
	r := s.Run("vllm")
	if len(r.Logs) != 2 || r.Logs[0].Workload != "sharegpt" || r.Logs[0].File != "results/x/runs/vllm/sharegpt.json" {
		t.Fatalf("logs = %+v", r.Logs)
	}
	b := r.Result("sharegpt")
	if b == nil || b.Format != benchlog.FormatVLLMJSON || b.Requests == nil || len(b.Requests.TTFT) != 2 {
		t.Fatalf("result = %+v", b)
	}
	if got := r.Logs[0].BlockText(b); got != strings.TrimSuffix(saveResult, "\n") {
		t.Errorf("BlockText = %q", got)
	}
}

// TestLoadLogAndJSON: a workload with both a .log and a .json is a problem
// on the second file, whatever order the folder is listed in; the first is
// read.
func TestLoadLogAndJSON(t *testing.T) {
	files := validFiles()
	files["runs/vllm/sharegpt.json"] = saveResult
	for _, fsys := range []fs.FS{mapFS(files), reversedFS{mapFS(files)}} {
		s, problems, err := study.Load(fsys, "results/x", "x")
		if err != nil {
			t.Fatal(err)
		}
		want := "results/x/runs/vllm/sharegpt.log:0: both sharegpt.json and sharegpt.log hold workload sharegpt: a run has one log per workload; keep one of them"
		if len(problems) != 1 || problems[0].Error() != want {
			t.Errorf("problems = %v, want one: %s", problems, want)
		}
		if b := s.Run("vllm").Result("sharegpt"); b == nil || b.Format != benchlog.FormatVLLMJSON {
			t.Errorf("the .json is not the result read: %+v", b)
		}
	}
}

func TestBlockExcerpt(t *testing.T) {
	var lines []string
	for i := 1; i <= 50; i++ {
		lines = append(lines, fmt.Sprintf(`    "key%d": %d,`, i, i))
	}
	indented := "{\n" + strings.Join(lines, "\n") + "\n}\n"
	oneLine := `{"duration": 2.0, "completed": 2, "ttfts": [` + strings.Repeat("0.125, ", 2000) + "0.5]}\n"
	cases := []struct {
		name, raw      string
		lines, bytes   int
		text           string
		more, moreByte int
	}{
		{"small: whole", saveResult, 40, 4096, strings.TrimSuffix(saveResult, "\n"), 0, 0},
		{"forty lines", indented, 40, 4096, strings.Join(strings.Split(indented, "\n")[:40], "\n"), 12, 0},
		{"bytes first", indented, 40, 100, strings.Join(strings.Split(indented, "\n")[:7], "\n"), 45, 0},
		{"one long line: before the array", oneLine, 40, 4096, `{"duration": 2.0, "completed": 2,`, 0, len(oneLine) - 1 - len(`{"duration": 2.0, "completed": 2,`)},
		{"one long line: at the limit", oneLine, 40, 20, `{"duration": 2.0,`, 0, len(oneLine) - 1 - len(`{"duration": 2.0,`)},
	}
	for _, c := range cases {
		l := &study.Log{Raw: []byte(c.raw)}
		b := &benchlog.Block{Line: 1, EndLine: strings.Count(c.raw, "\n")}
		ex := l.BlockExcerpt(b, c.lines, c.bytes)
		if ex.Text != c.text || ex.MoreLines != c.more || ex.MoreBytes != c.moreByte {
			t.Errorf("%s: excerpt %q, %d more lines, %d more bytes; want %q, %d, %d", c.name, ex.Text, ex.MoreLines, ex.MoreBytes, c.text, c.more, c.moreByte)
		}
	}
}

// TestLoadSums: Load keeps the SHA-256 of each metadata file it read,
// under the name its positions give, and of no log.
func TestLoadSums(t *testing.T) {
	files := validFiles()
	s, _, err := study.Load(mapFS(files), "results/x", "x")
	if err != nil || s == nil {
		t.Fatal(s, err)
	}
	want := map[string]string{}
	for name, data := range files {
		if strings.HasSuffix(name, ".yaml") {
			sum := sha256.Sum256([]byte(data))
			want[path.Join("results/x", name)] = hex.EncodeToString(sum[:])
		}
	}
	if !maps.Equal(s.Sums, want) {
		t.Errorf("sums %v, want %v", s.Sums, want)
	}
	if _, ok := s.Sums[s.Runs[0].Pos.File]; !ok {
		t.Errorf("no sum under the run's position %s", s.Runs[0].Pos.File)
	}
}
