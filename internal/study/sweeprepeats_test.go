package study_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/study"
)

// A load of a sweep may be measured several times: <workload>.c16.run-1.log,
// .run-2.log ... are the repeats of that load, gathered in Repeats.
func TestSweepBlocksRepeats(t *testing.T) {
	files := sweepFiles("    sweep: {max_concurrency: [1, 4, 16]}\n",
		"random-1k.c16.run-2.log", "random-1k.c4.log", "random-1k.c16.run-1.log", "random-1k.c16.run-3.json", "random-1k.c1.run-1.log")
	s, problems := loadSweep(t, files)
	if len(problems) > 0 {
		t.Fatalf("problems: %v", problems)
	}
	var got []string
	for _, pb := range s.Run("vllm").SweepBlocks(s.Workload("random-1k")) {
		item := pb.Point.Raw + ":" + pb.Log.File[strings.LastIndex(pb.Log.File, "/")+1:]
		for _, r := range pb.Repeats {
			item += fmt.Sprintf(",%d", r.Log.Repeat)
		}
		got = append(got, item)
	}
	// One repeat of a load is one measurement: no Repeats.
	want := "1:random-1k.c1.run-1.log 4:random-1k.c4.log 16:random-1k.c16.run-1.log,1,2,3"
	if strings.Join(got, " ") != want {
		t.Errorf("points %q\nwant   %q", strings.Join(got, " "), want)
	}
}

// A tool that writes every load (guidellm) repeated: each repeat's log is
// <workload>.run-<n>.log, and each load gathers its block of every repeat.
func TestSweepBlocksToolRepeats(t *testing.T) {
	raw, err := os.ReadFile("../benchlog/testdata/guidellm_v02_sweep.txt")
	if err != nil {
		t.Fatal(err)
	}
	files := sweepFiles("    sweep: {request_rate: [7.13, 12.72, 18.3]}\n")
	files["runs/vllm/random-1k.run-1.log"] = string(raw)
	files["runs/vllm/random-1k.run-2.log"] = string(raw)
	s, problems := loadSweep(t, files)
	if len(problems) > 0 {
		t.Fatalf("problems: %v", problems)
	}
	pbs := s.Run("vllm").SweepBlocks(s.Workload("random-1k"))
	if len(pbs) != 3 {
		t.Fatalf("%d points, want 3", len(pbs))
	}
	for _, pb := range pbs {
		if len(pb.Repeats) != 2 || pb.Repeats[0].Block != pb.Block || pb.Repeats[1].Log.Repeat != 2 || pb.Repeats[1].Block.Line != pb.Block.Line {
			t.Errorf("load %s: repeats %+v", pb.Point.Raw, pb.Repeats)
		}
	}
}

// The repeats of a load follow the rules of repeats, load by load.
func TestLoadSweepRepeatProblems(t *testing.T) {
	const conc = "    sweep: {max_concurrency: [1, 4, 16]}\n"
	cases := []struct {
		name    string
		logs    []string
		at, msg string
	}{
		{"plain and numbered", []string{"random-1k.c4.log", "random-1k.c4.run-1.log"},
			"runs/vllm/random-1k.c4.run-1.log:0", "random-1k.c4.log and random-1k.c4.run-1.log both hold workload random-1k at c4: a plain log is a single measurement, numbered logs are repeats; rename random-1k.c4.log to random-1k.c4.run-1.log"},
		{"a gap", []string{"random-1k.c4.run-1.log", "random-1k.c1.run-2.log"},
			"runs/vllm/random-1k.c1.run-2.log:0", "repeats of workload random-1k at c1 are numbered from 1 without gaps, but random-1k.c1.run-1 is missing"},
		{"same repeat twice", []string{"random-1k.c4.run-1.log", "random-1k.c4.run-1.json"},
			"runs/vllm/random-1k.c4.run-1.log:0", "both random-1k.c4.run-1.json and random-1k.c4.run-1.log hold workload random-1k at c4"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, problems := loadSweep(t, sweepFiles(conc, c.logs...))
			want := "results/x/" + c.at + ": "
			if len(problems) != 1 || !strings.HasPrefix(problems[0], want) || !strings.Contains(problems[0], c.msg) {
				t.Errorf("problems:\n%s\nwant only %s...%s", strings.Join(problems, "\n"), want, c.msg)
			}
		})
	}
}

func TestSplitLogName(t *testing.T) {
	isWorkload := func(id string) bool { return id == "chat" || id == "odd.c4" }
	for _, c := range []struct{ stem, want string }{
		{"chat", "chat|||0"},
		{"chat.run-2", "chat|||2"},
		{"chat.c16", "chat|c|16|0"},
		{"chat.c16.run-3", "chat|c|16|3"},
		{"chat.rps0.5", "chat|rps|0.5|0"},
		{"odd.c4", "odd.c4|||0"}, // a workload id is never split
		{"bench.c8.run-10", "bench|c|8|10"},
		{"chat.run-02", "chat.run-02|||0"},
	} {
		w, prefix, load, repeat := study.SplitLogName(c.stem, isWorkload)
		if got := fmt.Sprintf("%s|%s|%s|%d", w, prefix, load, repeat); got != c.want {
			t.Errorf("%s: %q, want %q", c.stem, got, c.want)
		}
	}
}
