package addrun

import (
	"path"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/safefs"
	"github.com/perflab/perflab/internal/study"
)

// sweepTree is tree with a fourth workload, chat-sweep, swept over the
// concurrencies 1 and 16.
func sweepTree(t *testing.T) string {
	t.Helper()
	results := tree(t)
	yml := strings.Replace(studyYAML, "baseline: [vllm]", "  - id: chat-sweep\n    dataset: random\n    input_len: 1000\n    output_len: 100\n    sweep: {max_concurrency: [1, 16]}\nbaseline: [vllm]", 1)
	writeTest(t, filepath.Join(results, "ex", "study.yaml"), yml)
	return results
}

// atConcurrency is random1kBlock printing the concurrency it ran at.
func atConcurrency(n string) string {
	return strings.Replace(random1kBlock, "Successful requests:                     100\n",
		"Successful requests:                     100\nMaximum request concurrency:             "+n+"\n", 1)
}

// addLogs writes each name -> text under a folder of logs, adds them as
// run "new" of study ex, and returns the plan and the study as loaded.
func addLogs(t *testing.T, results string, o Options, logs map[string]string) (*Plan, *study.Study, error) {
	t.Helper()
	dir := t.TempDir()
	names := make([]string, 0, len(logs))
	for name := range logs {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		o.Logs = append(o.Logs, writeTest(t, filepath.Join(dir, filepath.FromSlash(name)), logs[name]))
	}
	o.Results, o.Study, o.Run = results, "ex", "new"
	if o.Engine == "" {
		o.Engine = "vllm"
	}
	p, err := Add(o)
	if err != nil {
		return nil, nil, err
	}
	shown := path.Join(filepath.ToSlash(results), "ex")
	s, probs, err := study.Load(safefs.New(filepath.Join(results, "ex"), shown), shown, "ex")
	if err != nil {
		t.Fatal(err)
	}
	for _, pr := range probs {
		if strings.Contains(pr.Pos.File, "/runs/new/") {
			t.Errorf("the loader reports on the new run: %v", pr)
		}
	}
	return p, s, nil
}

// files lists a plan's files but run.yaml.
func files(p *Plan) string {
	var names []string
	for name := range p.Files() {
		if name != study.RunFile {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return strings.Join(names, " ")
}

// random-1k.run-2.log is repeat 2 of workload random-1k, not a workload
// named "random-1k.run-2".
func TestAddRepeats(t *testing.T) {
	results := tree(t)
	p, s, err := addLogs(t, results, Options{}, map[string]string{
		"random-1k.run-1.log": random1kBlock, "random-1k.run-2.log": random1kBlock, "random-1k.run-3.txt": random1kBlock, "sharegpt.log": sharegptBlock,
	})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := files(p), "random-1k.run-1.log random-1k.run-2.log random-1k.run-3.log sharegpt.log"; got != want {
		t.Errorf("files %s\nwant  %s", got, want)
	}
	for _, lg := range p.Logs {
		if lg.Workload == "random-1k" && !strings.Contains(lg.Why, "the file name random-1k.run-") {
			t.Errorf("%s: workload %s guessed from %q", lg.From, lg.Workload, lg.Why)
		}
	}
	var repeats []int
	for _, lg := range s.Run("new").Logs {
		if lg.Workload == "random-1k" {
			repeats = append(repeats, lg.Repeat)
		}
	}
	if len(repeats) != 3 || repeats[2] != 3 {
		t.Errorf("loaded repeats of random-1k: %v", repeats)
	}
	if !strings.Contains(string(p.RunYAML), "# random-1k.run-3.log: copied from ") {
		t.Errorf("run.yaml:\n%s", p.RunYAML)
	}
}

// A load of a sweep, named or printed, goes to <workload>.c<N>.log, its
// repeats to <workload>.c<N>.run-<n>.log.
func TestAddSweepPoints(t *testing.T) {
	results := sweepTree(t)
	p, s, err := addLogs(t, results, Options{}, map[string]string{
		"chat-sweep.c1.log": atConcurrency("1"), "chat-sweep.c16.run-1.log": atConcurrency("16"), "chat-sweep.c16.run-2.log": atConcurrency("16"),
	})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := files(p), "chat-sweep.c1.log chat-sweep.c16.run-1.log chat-sweep.c16.run-2.log"; got != want {
		t.Errorf("files %s\nwant  %s", got, want)
	}
	pbs := s.Run("new").SweepBlocks(s.Workload("chat-sweep"))
	if len(pbs) != 2 || pbs[0].Repeats != nil || len(pbs[1].Repeats) != 2 {
		t.Errorf("loaded sweep: %+v", pbs)
	}

	// A log named after no load: the load the block prints.
	results = sweepTree(t)
	p, _, err = addLogs(t, results, Options{Workload: "chat-sweep"}, map[string]string{"out.txt": atConcurrency("16")})
	if err != nil {
		t.Fatal(err)
	}
	if got := files(p); got != "chat-sweep.c16.log" || !strings.Contains(p.Logs[0].LoadFrom, "the result block (") {
		t.Errorf("files %s, load from %q", got, p.Logs[0].LoadFrom)
	}
	if !strings.Contains(string(p.RunYAML), "# chat-sweep.c16.log: copied from ") || !strings.Contains(string(p.RunYAML), "; load read from the result block (") {
		t.Errorf("run.yaml:\n%s", p.RunYAML)
	}
}

// An earlier measurement, under history/<version>/, stays one.
func TestAddHistory(t *testing.T) {
	results := tree(t)
	p, s, err := addLogs(t, results, Options{}, map[string]string{
		"random-1k.log": random1kBlock, "history/v0.10.1/random-1k.log": random1kBlock, "history/v0.9.2/random-1k.log": random1kBlock,
	})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := files(p), "history/v0.10.1/random-1k.log history/v0.9.2/random-1k.log random-1k.log"; got != want {
		t.Errorf("files %s\nwant  %s", got, want)
	}
	var order []string
	for _, lg := range p.Logs {
		order = append(order, lg.FileName())
	}
	if got := strings.Join(order, " "); got != "random-1k.log history/v0.9.2/random-1k.log history/v0.10.1/random-1k.log" {
		t.Errorf("order %s: the run's log, then the oldest version first", got)
	}
	run := s.Run("new")
	if len(run.History) != 2 || run.History[0].Version.Raw != "v0.9.2" || run.History[1].Result("random-1k") == nil {
		t.Errorf("loaded history: %+v", run.History)
	}
}

func TestAddNameProblems(t *testing.T) {
	cases := []struct {
		name string
		logs map[string]string
		o    Options
		err  string
	}{
		{"a lone second repeat", map[string]string{"random-1k.run-2.log": random1kBlock}, Options{},
			"the repeats of workload random-1k are numbered from 1 without gaps, but random-1k.run-1.log is missing before "},
		{"one repeat twice", map[string]string{"random-1k.run-1.log": random1kBlock, "a/random-1k.run-1.txt": random1kBlock}, Options{},
			"are both repeat 1 of workload random-1k"},
		{"a plain log and a repeat", map[string]string{"random-1k.log": random1kBlock, "random-1k.run-1.log": random1kBlock}, Options{},
			"is a single measurement of workload random-1k, but "},
		{"two plain logs", map[string]string{"random-1k.log": random1kBlock, "a/random-1k.txt": random1kBlock}, Options{},
			"both measured workload random-1k: a run has one log of it; to add them as repeats, name them random-1k.run-1.log, random-1k.run-2.log"},
		{"a load of a workload without a sweep", map[string]string{"random-1k.c16.log": random1kBlock}, Options{},
			"the file name gives a load (c16), but workload random-1k has no sweep ("},
		{"a load the sweep does not list", map[string]string{"chat-sweep.c8.log": atConcurrency("8")}, Options{},
			"load 8 is not a point of the sweep of workload chat-sweep ("},
		{"a rate of a concurrency sweep", map[string]string{"chat-sweep.rps2.log": random1kBlock}, Options{},
			"workload chat-sweep sweeps max_concurrency ("},
		{"a name against the block", map[string]string{"chat-sweep.c16.log": atConcurrency("1")}, Options{},
			"the file name gives max_concurrency 16, but the result block ("},
		{"a sweep's log without a load", map[string]string{"out.txt": random1kBlock}, Options{Workload: "chat-sweep"},
			"workload chat-sweep is a sweep ("},
		{"a printed load the sweep does not list", map[string]string{"out.txt": atConcurrency("4")}, Options{Workload: "chat-sweep"},
			"says max_concurrency 4, which is not a point of the sweep of workload chat-sweep"},
		{"a history folder that is no version", map[string]string{"random-1k.log": random1kBlock, "history/latest/random-1k.log": random1kBlock}, Options{},
			"a log under history/latest/ is an earlier measurement on that engine version, but "},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			results := sweepTree(t)
			before := listTree(t, results)
			_, _, err := addLogs(t, results, c.o, c.logs)
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Fatalf("error %v\nwant one containing %q", err, c.err)
			}
			if after := listTree(t, results); after != before {
				t.Errorf("the results folder changed:\n%s", after)
			}
		})
	}
}
