package check

import (
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/benchlog"
	"github.com/perflab/perflab/internal/study"
)

// sentRun is a run whose sharegpt block completed done requests and
// failed failed, on lines 2 and 3 of its log.
func sentRun(id string, done, failed float64) *study.Run {
	r := newRun(id, "vllm serve Qwen/Qwen3-32B", 1, "")
	file := "results/test/runs/" + id + "/sharegpt.log"
	r.Logs = []study.Log{{Workload: "sharegpt", File: file, Blocks: []benchlog.Block{{
		File: file, Line: 1, EndLine: 23, Format: benchlog.FormatVLLM, Definition: benchlog.CountOverDuration, Tool: benchlog.ToolVLLM,
		Metrics: map[string]benchlog.Metric{"completed": {Value: done, Line: 2}, "failed": {Value: failed, Line: 3}},
	}}}}
	return r
}

// TestWorkloadBlame: the majority of logs decides who is wrong, and a tie
// says it is a tie.
func TestWorkloadBlame(t *testing.T) {
	tests := []struct {
		name  string
		runs  []*study.Run
		file  string
		line  int
		words string
	}{
		{"every log sent fewer", []*study.Run{sentRun("a", 400, 0), sentRun("b", 399, 1)}, studyFile, 7, "2 of 2 logs"},
		{"a tie", []*study.Run{sentRun("a", 500, 0), sentRun("b", 500, 0), sentRun("c", 400, 0), sentRun("d", 399, 1)}, studyFile, 7, "it is a tie"},
		// One run against one that agrees with the study: the study decides.
		{"one against one", []*study.Run{sentRun("a", 500, 0), sentRun("b", 400, 0)}, "results/test/runs/b/sharegpt.log", 2, "1 other logs agree"},
		{"one run of three ran another count", []*study.Run{sentRun("a", 500, 0), sentRun("b", 495, 5), sentRun("c", 400, 0)},
			"results/test/runs/c/sharegpt.log", 2, "2 other logs agree"},
	}
	for _, tt := range tests {
		s := newStudy("Qwen/Qwen3-32B", 1, tt.runs...)
		s.Workloads[0].NumPrompts = 500
		s.Workloads[0].Lines = map[string]int{"num_prompts": 7}
		got := byRule(assessed(s).Diagnostics, RuleWorkload)
		if len(got) != 1 || got[0].File != tt.file || got[0].Line != tt.line || !strings.Contains(got[0].Message, tt.words) {
			t.Errorf("%s: %v, want one at %s:%d saying %q", tt.name, got, tt.file, tt.line, tt.words)
		}
	}
	// Agreeing logs raise nothing.
	s := newStudy("Qwen/Qwen3-32B", 1, sentRun("a", 500, 0), sentRun("b", 498, 2))
	s.Workloads[0].NumPrompts = 500
	if got := byRule(assessed(s).Diagnostics, RuleWorkload); len(got) != 0 {
		t.Errorf("agreeing logs: %v", got)
	}
}

// TestWorkloadCommand: the workload's command must pass what study.yaml
// states; a shell variable is not judged.
func TestWorkloadCommand(t *testing.T) {
	s := newStudy("Qwen/Qwen3-32B", 1)
	s.Workloads[1] = study.Workload{ID: "random-32k", Dataset: "random", InputLen: 4000, OutputLen: 200, NumPrompts: 500,
		Command: "vllm bench serve --dataset-name random --random-input-len 4000 --random-output-len 100 --num-prompts $N",
		Lines:   map[string]int{"output_len": 9, "command": 11}}
	got := byRule(assessed(s).Diagnostics, RuleWorkload)
	if len(got) != 1 || got[0].Line != 9 || !strings.Contains(got[0].Message, "--random-output-len 100") {
		t.Errorf("got %v, want one on line 9", got)
	}
}

// TestShellReading: options after a line without its backslash, or after
// a blank or comment line that a backslash joined, are never passed; CRLF
// line ends and comments between commands are harmless.
func TestShellReading(t *testing.T) {
	tests := []struct {
		command string
		line    int // 0: no error
	}{
		{"vllm serve M \\\n  --max-model-len 4096", 0},
		{"vllm serve M \\\r\n  --max-model-len 4096", 0},
		{"# comment\nvllm serve M \\\n  --max-model-len 4096", 0},
		{"vllm serve M\n  --max-model-len 4096", 4},
		{"vllm serve M \\ \n  --max-model-len 4096", 4},
		{"export A=1\nvllm serve M -tp 1", 0},
		{"vllm serve M\n- a list item, not an option", 0},
		// The line a backslash joins ends the command when it is blank or
		// a comment; a backslash on the last line continues into nothing.
		{"vllm serve M \\\n\n  --max-model-len 4096", 4},
		{"vllm serve M \\\n  # the context\n  --max-model-len 4096", 4},
		{"vllm serve M \\\n  --max-model-len 4096 \\", 5},
		{"vllm serve M \\\n  --max-model-len 4096\n\n# then\nvllm bench serve --model M", 0},
	}
	for _, tt := range tests {
		r := newRun("r", tt.command, 1, "1.00")
		got := byRule(assessed(newStudy("M", 1, r)).Diagnostics, RuleContinuation)
		if (tt.line == 0) != (len(got) == 0) || (tt.line > 0 && got[0].Line != tt.line) {
			t.Errorf("%q: %v, want line %d", tt.command, got, tt.line)
		}
	}
}

// TestCopyBlame: an exported variable makes another configuration, and
// the copy is the block whose log echoes the other run's model, else the
// run the study shows later; never the original.
func TestCopyBlame(t *testing.T) {
	env := copyStudy()
	env.Runs[1].Command = "export VLLM_ATTENTION_BACKEND=FLASHINFER\nvllm serve Qwen/Qwen3-32B"
	if d := byRule(assessAll([]*study.Study{env})[0].Diagnostics, RuleCopy); len(d) != 1 || d[0].Severity != Error {
		t.Errorf("copy behind an exported variable: %v", d)
	}
	// b comes first in the study's steps, so a is the later run.
	later := copyStudy()
	later.Steps = []study.Step{{ID: "x", Reference: "b", Runs: []string{"a"}}}
	if d := byRule(assessAll([]*study.Study{later})[0].Diagnostics, RuleCopy); len(d) != 1 || d[0].Subject != "a/sharegpt" {
		t.Errorf("later run: %v, want the copy on a", d)
	}
	// a's log echoes b's model: a is the copy, whatever the order.
	echo := copyStudy()
	echo.Runs[1].Command = "vllm serve Qwen/Qwen3-32B-FP8"
	for _, r := range echo.Runs {
		r.Logs[0].Raw = []byte("Namespace(model='Qwen/Qwen3-32B-FP8', num_prompts=1000)\n" + sharegptLog)
		for i := range r.Logs[0].Blocks {
			r.Logs[0].Blocks[i].Line = 2
		}
	}
	if d := byRule(assessAll([]*study.Study{echo})[0].Diagnostics, RuleCopy); len(d) != 1 || d[0].Subject != "a/sharegpt" {
		t.Errorf("echoed model: %v, want the copy on a", d)
	}
	if Configuration("vllm serve M -tp 2") != Configuration("vllm serve M --tensor-parallel-size 2 --port 8000") {
		t.Error("respelled flags made another configuration")
	}
	for _, c := range []string{"VLLM_USE_V1=0 vllm serve M", "docker run -e HF_HUB_OFFLINE=1 vllm/vllm-openai:v0.11.0 --model M", "docker run vllm/vllm-openai:v0.10.0 --model M"} {
		if Configuration(c) == Configuration("docker run vllm/vllm-openai:v0.11.0 --model M") {
			t.Errorf("%q is the same configuration as the plain image", c)
		}
	}
}

// TestSameDataTie: two runs that disagree, one each, are a tie on the
// study's workload line, unless the stated workload decides.
func TestSameDataTie(t *testing.T) {
	s := sameDataStudy(t, []string{"217393", "215000"}, nil, nil)
	s.Workloads[0].Pos.Line = 30
	d := byRule(assessed(s).Diagnostics, RuleSameData)
	if len(d) != 1 || d[0].File != studyFile || d[0].Line != 30 || !strings.Contains(d[0].Message, "it is a tie") {
		t.Fatalf("tie: %v", d)
	}
	// 1000 random prompts of 217 tokens: the run that sent 217393 ran them.
	s = sameDataStudy(t, []string{"200000", "217393"}, nil, nil)
	s.Workloads[0] = study.Workload{ID: "sharegpt", Dataset: "random", InputLen: 217, OutputLen: 200, NumPrompts: 1000, Main: true}
	d = byRule(assessed(s).Diagnostics, RuleSameData)
	if len(d) != 1 || d[0].File != "results/test/runs/r0/sharegpt.log" {
		t.Fatalf("decided by the study: %v", d)
	}
}

// TestEngineVersion: the version the run's engine prints must be the
// study's; a benchmark client's own version is no evidence.
func TestEngineVersion(t *testing.T) {
	tests := []struct {
		command, log string
		bad          bool
	}{
		{"vllm serve Qwen/Qwen3-32B", "INFO vLLM API server version 0.11.0\n", false},
		{"vllm serve Qwen/Qwen3-32B", "INFO vLLM API server version 0.10.1\n", true},
		{"docker run vllm/vllm-openai:v0.11.0-cu128 --model Qwen/Qwen3-32B", "", false},
		{"docker run vllm/vllm-openai:v0.10.2 --model Qwen/Qwen3-32B", "", true},
		{"python3 -m sglang.launch_server --model-path Qwen/Qwen3-32B", "vllm version 0.10.1 (benchmark client)\n", false},
	}
	for _, tt := range tests {
		r := newRun("r", tt.command, 1, "1.00")
		r.Logs[0].Raw = []byte(tt.log)
		s := newStudy("Qwen/Qwen3-32B", 1, r)
		s.Engines = []study.Engine{{ID: "vllm", Name: "vLLM", Version: "v0.11.0"}, {ID: "sglang", Name: "SGLang", Version: "v0.5.5"}}
		if got := len(byRule(assessed(s).Diagnostics, RuleEngineVersion)) > 0; got != tt.bad {
			t.Errorf("%q with log %q: error %v, want %v", tt.command, tt.log, got, tt.bad)
		}
	}
}

// TestEngineLabel: an engine label must be the engine the command starts.
func TestEngineLabel(t *testing.T) {
	r := newRun("r", "python3 -m sglang.launch_server --model-path Qwen/Qwen3-32B", 1, "1.00")
	r.Engine, r.EngineLine = "vllm", 2
	d := byRule(assessed(newStudy("Qwen/Qwen3-32B", 1, r)).Diagnostics, RuleEngineLabel)
	if len(d) != 1 || d[0].Line != 2 || !strings.Contains(d[0].Message, "starts SGLang") {
		t.Errorf("sglang labelled vllm: %v", d)
	}
	r.Engine = "sglang"
	if d := byRule(assessed(newStudy("Qwen/Qwen3-32B", 1, r)).Diagnostics, RuleEngineLabel); len(d) != 0 {
		t.Errorf("right label: %v", d)
	}
}
