package study_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/study"
)

func TestLogName(t *testing.T) {
	for _, c := range []struct {
		stem     string
		workload string
		repeat   int
	}{
		{"sharegpt", "sharegpt", 0},
		{"sharegpt.run-1", "sharegpt", 1},
		{"random-1k.run-12", "random-1k", 12},
		{"sharegpt.run-100", "sharegpt", 100},
		{"sharegpt.c16.run-2", "sharegpt.c16", 2}, // another suffix stays with the workload
		{"sharegpt.run-0", "sharegpt.run-0", 0},   // numbered from 1
		{"sharegpt.run-02", "sharegpt.run-02", 0}, // no leading zero
		{"sharegpt.run-1000", "sharegpt.run-1000", 0},
		{"sharegpt.run-", "sharegpt.run-", 0},
		{"sharegpt.run-x", "sharegpt.run-x", 0},
		{".run-1", ".run-1", 0}, // no workload before the suffix
		{"run-1", "run-1", 0},
	} {
		w, n := study.LogName(c.stem)
		if w != c.workload || n != c.repeat {
			t.Errorf("LogName(%q) = %q, %d; want %q, %d", c.stem, w, n, c.workload, c.repeat)
		}
	}
}

// TestLoadRepeats: numbered logs are the repeats of a workload, sorted by
// number (run-10 after run-2), whatever order the folder lists them in.
func TestLoadRepeats(t *testing.T) {
	files := validFiles()
	delete(files, "runs/vllm/sharegpt.log")
	for n, total := range map[int]string{1: "1000.00", 2: "1010.00", 10: "990.00"} {
		files[fmt.Sprintf("runs/vllm/sharegpt.run-%d.log", n)] = vllmBlock(total)
	}
	for i := 3; i <= 9; i++ {
		files[fmt.Sprintf("runs/vllm/sharegpt.run-%d.log", i)] = vllmBlock("1000.00")
	}
	s, problems, err := study.Load(reversedFS{mapFS(files)}, "results/x", "x")
	if err != nil || len(problems) > 0 {
		t.Fatal(err, problems)
	}
	var got []string
	for _, lg := range s.Run("vllm").Logs {
		got = append(got, fmt.Sprintf("%s/%d", lg.Workload, lg.Repeat))
	}
	want := "sharegpt/1 sharegpt/2 sharegpt/3 sharegpt/4 sharegpt/5 sharegpt/6 sharegpt/7 sharegpt/8 sharegpt/9 sharegpt/10 random-1k/0"
	if strings.Join(got, " ") != want {
		t.Errorf("logs = %s\nwant   %s", strings.Join(got, " "), want)
	}
	if b := s.Run("vllm").Result("sharegpt"); b == nil || b.File != "results/x/runs/vllm/sharegpt.run-1.log" {
		t.Errorf("Result is not the first repeat: %+v", b)
	}
}

func TestLoadRepeatProblems(t *testing.T) {
	const dir = "results/x/runs/vllm/"
	for _, c := range []struct {
		name  string
		add   []string // log files of run vllm, besides random-1k.log
		wants []string
	}{
		{"plain and numbered", []string{"sharegpt.log", "sharegpt.run-1.log", "sharegpt.run-2.log"},
			[]string{dir + "sharegpt.run-1.log:0: sharegpt.log and sharegpt.run-1.log both hold workload sharegpt: a plain log is a single measurement, numbered logs are repeats; rename sharegpt.log to sharegpt.run-1.log, or remove it"}},
		{"not from 1", []string{"sharegpt.run-2.log", "sharegpt.run-3.log"},
			[]string{dir + "sharegpt.run-2.log:0: repeats of workload sharegpt are numbered from 1 without gaps, but sharegpt.run-1 is missing before sharegpt.run-2.log"}},
		{"gap", []string{"sharegpt.run-1.log", "sharegpt.run-2.log", "sharegpt.run-4.log"},
			[]string{dir + "sharegpt.run-4.log:0: repeats of workload sharegpt are numbered from 1 without gaps, but sharegpt.run-3 is missing before sharegpt.run-4.log"}},
		{"json and log of one repeat", []string{"sharegpt.run-1.log", "sharegpt.run-1.json"},
			[]string{dir + "sharegpt.run-1.log:0: both sharegpt.run-1.json and sharegpt.run-1.log hold workload sharegpt"}},
		{"run-0", []string{"sharegpt.log", "sharegpt.run-0.log"},
			[]string{dir + `sharegpt.run-0.log:0: log "sharegpt.run-0.log" names no workload of the study; name a log <workload-id>.log (or <workload-id>.json for a --save-result JSON, <workload-id>.run-<n>.log for the n-th repeat`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			files := validFiles()
			delete(files, "runs/vllm/sharegpt.log")
			for _, name := range c.add {
				if strings.HasSuffix(name, ".json") {
					files["runs/vllm/"+name] = saveResult
				} else {
					files["runs/vllm/"+name] = vllmBlock("1000.00")
				}
			}
			_, problems, err := study.Load(mapFS(files), "results/x", "x")
			if err != nil {
				t.Fatal(err)
			}
			if len(problems) != len(c.wants) {
				t.Fatalf("problems = %v, want %d", problems, len(c.wants))
			}
			for i, want := range c.wants {
				if !strings.HasPrefix(problems[i].Error(), want) {
					t.Errorf("problem = %s\nwant      %s...", problems[i], want)
				}
			}
		})
	}
}

// TestLoadTooManyRepeats: past MaxRepeats logs of one workload, one
// problem, and the rest is not read.
func TestLoadTooManyRepeats(t *testing.T) {
	files := validFiles()
	delete(files, "runs/vllm/sharegpt.log")
	for i := 1; i <= study.MaxRepeats+5; i++ {
		files[fmt.Sprintf("runs/vllm/sharegpt.run-%d.log", i)] = vllmBlock("1000.00")
	}
	s, problems, err := study.Load(mapFS(files), "results/x", "x")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, p := range problems {
		if strings.Contains(p.Msg, "more than 100 repeats of workload sharegpt") {
			n++
		}
	}
	if n != 1 {
		t.Errorf("problems = %v, want one about more than 100 repeats", problems)
	}
	if got := len(s.Run("vllm").Logs); got > study.MaxRepeats+1 {
		t.Errorf("%d logs read, want at most %d", got, study.MaxRepeats+1)
	}
}

// FuzzLogName: a stem is either a workload whole, or a workload and a
// repeat from 1 to 999 that write it back exactly.
func FuzzLogName(f *testing.F) {
	for _, s := range []string{"sharegpt", "sharegpt.run-1", "a.c16.run-20", "x.run-0", "x.run-", ".run-3", "x.run-1.run-2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, stem string) {
		w, n := study.LogName(stem)
		switch {
		case n == 0 && w != stem:
			t.Errorf("LogName(%q) = %q, 0: a stem that is not a repeat is the workload", stem, w)
		case n < 0 || n > 999:
			t.Errorf("LogName(%q): repeat %d out of range", stem, n)
		case n > 0 && (w == "" || w+fmt.Sprintf(".run-%d", n) != stem):
			t.Errorf("LogName(%q) = %q, %d: does not give the stem back", stem, w, n)
		}
	})
}
