package study_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/study"
)

// historyFiles is the valid study with an earlier measurement of run vllm
// on two older versions, written out of order.
func historyFiles() map[string]string {
	files := validFiles()
	files["runs/vllm/history/v0.10.1/sharegpt.log"] = vllmBlock("950.00")
	files["runs/vllm/history/v0.9.2/sharegpt.log"] = vllmBlock("900.00")
	files["runs/vllm/history/v0.9.2/random-1k.log"] = vllmBlock("880.00")
	return files
}

func TestLoadHistory(t *testing.T) {
	s, problems, err := study.Load(reversedFS{mapFS(historyFiles())}, "results/x", "x")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Errorf("unexpected problem: %v", p)
	}
	r := s.Run("vllm")
	if len(r.History) != 2 {
		t.Fatalf("History = %+v, want two versions", r.History)
	}
	old, newer := r.History[0], r.History[1]
	if old.Version.Raw != "v0.9.2" || newer.Version.Raw != "v0.10.1" {
		t.Errorf("versions %s, %s; want v0.9.2 then v0.10.1 (by version, not by name)", old.Version.Raw, newer.Version.Raw)
	}
	if old.Dir != "results/x/runs/vllm/history/v0.9.2" {
		t.Errorf("Dir = %q", old.Dir)
	}
	if len(old.Logs) != 2 || old.Logs[0].Workload != "sharegpt" || old.Logs[1].Workload != "random-1k" {
		t.Errorf("logs of v0.9.2 = %+v, want sharegpt then random-1k (workload order)", old.Logs)
	}
	lg := newer.Result("sharegpt")
	if lg == nil || lg.File != "results/x/runs/vllm/history/v0.10.1/sharegpt.log" || lg.Blocks[0].Metrics["total_token_throughput"].Value != 950 {
		t.Errorf("sharegpt of v0.10.1 = %+v", lg)
	}
	if len(r.Logs) != 2 {
		t.Errorf("the run's own logs = %d, want 2: history logs are not the run's", len(r.Logs))
	}
}

func TestLoadHistoryProblems(t *testing.T) {
	cases := []struct {
		name  string
		edit  func(map[string]string)
		where string // file:line of the problem
		want  string
	}{
		{"unparseable version", func(f map[string]string) { f["runs/vllm/history/nightly/sharegpt.log"] = vllmBlock("900.00") },
			"results/x/runs/vllm/history/nightly:0", "cannot be ordered: write it as engines print theirs, such as v0.11.0"},
		{"log of no workload", func(f map[string]string) { f["runs/vllm/history/v0.10.1/chat.log"] = vllmBlock("900.00") },
			"results/x/runs/vllm/history/v0.10.1/chat.log:0", `log "chat.log" names no workload of the study`},
		{"log and json of one workload", func(f map[string]string) {
			f["runs/vllm/history/v0.10.1/sharegpt.log"] = vllmBlock("900.00")
			f["runs/vllm/history/v0.10.1/sharegpt.json"] = "{}"
		}, "results/x/runs/vllm/history/v0.10.1/sharegpt.log:0", "both sharegpt.json and sharegpt.log hold workload sharegpt"},
		{"not older than the engine", func(f map[string]string) { f["runs/vllm/history/v0.11.0/sharegpt.log"] = vllmBlock("900.00") },
			"results/x/runs/vllm/history/v0.11.0:0", "is not older than vLLM v0.11.0"},
		{"same version twice", func(f map[string]string) {
			f["runs/vllm/history/v0.10/sharegpt.log"] = vllmBlock("900.00")
			f["runs/vllm/history/v0.10.0/sharegpt.log"] = vllmBlock("900.00")
		}, "results/x/runs/vllm/history/v0.10.0:0", "are the same engine version"},
		{"a file instead of a folder", func(f map[string]string) { f["runs/vllm/history/v0.10.1.log"] = vllmBlock("900.00") },
			"results/x/runs/vllm/history/v0.10.1.log:0", "each earlier measurement is a folder named after the engine version"},
		{"another file", func(f map[string]string) {
			f["runs/vllm/history/v0.10.1/sharegpt.log"] = vllmBlock("900.00")
			f["runs/vllm/history/v0.10.1/notes.txt"] = "x"
		}, "results/x/runs/vllm/history/v0.10.1/notes.txt:0", "unexpected file in a history folder"},
		{"current version unordered", func(f map[string]string) {
			f["study.yaml"] = strings.Replace(f["study.yaml"], "version: v0.11.0", "version: main", 1)
			f["runs/vllm/history/v0.10.1/sharegpt.log"] = vllmBlock("900.00")
		}, "results/x/study.yaml:8", `run vllm keeps a history, which is ordered by version, and version "main" cannot be ordered`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			files := validFiles()
			c.edit(files)
			_, problems, err := study.Load(mapFS(files), "results/x", "x")
			if err != nil {
				t.Fatal(err)
			}
			found := false
			for _, p := range problems {
				if strings.HasPrefix(p.Error(), c.where+": ") && strings.Contains(p.Msg, c.want) {
					found = true
				}
			}
			if !found {
				t.Errorf("no problem at %s containing %q; got %v", c.where, c.want, problems)
			}
		})
	}
}

func TestLoadHistoryCommand(t *testing.T) {
	files := historyFiles()
	files["runs/vllm/history/v0.9.2/history.yaml"] = "# flags were renamed in v0.10\ncommand: vllm serve org/Example-8B --old-flag\n"
	s, problems, err := study.Load(mapFS(files), "results/x", "x")
	if err != nil || len(problems) > 0 {
		t.Fatalf("%v %v", err, problems)
	}
	h := s.Run("vllm").History
	if h[0].Command != "vllm serve org/Example-8B --old-flag" || h[0].Pos != (study.Pos{File: "results/x/runs/vllm/history/v0.9.2/history.yaml", Line: 2}) {
		t.Errorf("v0.9.2: command %q at %v", h[0].Command, h[0].Pos)
	}
	if h[1].Command != "" {
		t.Errorf("v0.10.1: command %q, want none (the run's)", h[1].Command)
	}
	files["runs/vllm/history/v0.9.2/history.yaml"] = "command: vllm serve org/Example-8B\nversion: v0.9.2\n"
	_, problems, _ = study.Load(mapFS(files), "results/x", "x")
	if len(problems) != 1 || problems[0].Error() != `results/x/runs/vllm/history/v0.9.2/history.yaml:2: history: unknown field "version"; known fields are command` {
		t.Errorf("problems = %v, want the unknown field on line 2", problems)
	}
}

func TestLoadHistoryBounded(t *testing.T) {
	files := validFiles()
	for i := range study.MaxHistory + 2 {
		files[fmt.Sprintf("runs/vllm/history/v0.%d.0/sharegpt.log", i)] = vllmBlock("900.00")
	}
	s, problems, err := study.Load(mapFS(files), "results/x", "x")
	if err != nil {
		t.Fatal(err)
	}
	if n := len(s.Run("vllm").History); n != study.MaxHistory {
		t.Errorf("%d versions kept, want %d", n, study.MaxHistory)
	}
	found := false
	for _, p := range problems {
		found = found || strings.Contains(p.Msg, "a run keeps at most 64 earlier versions")
	}
	if !found {
		t.Errorf("no problem about the bound in %v", problems)
	}
}
