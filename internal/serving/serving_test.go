package serving

import (
	"strings"
	"testing"
)

func TestGPUs(t *testing.T) {
	for _, tc := range []struct {
		command string
		want    int
	}{
		{"vllm serve Qwen/Qwen3-32B", 1},
		{"vllm serve Qwen/Qwen3-32B -tp 4", 4},
		{"vllm serve Qwen/Qwen3-32B --tensor-parallel-size=2 --data-parallel-size 2", 4},
		{"vllm serve m --tp 2 --pp 2 --enable-expert-parallel", 4},
		{"vllm serve m -tp 1", 1},
		// SGLang: dp attention splits the tp GPUs, plain dp adds replicas.
		{"python3 -m sglang.launch_server --model-path m --tp-size=8 --dp-size=8 --enable-dp-attention", 8},
		{"python3 -m sglang.launch_server --model-path m --tp 8 --dp 8 --enable-dp-attention --ep 8", 8},
		{"python3 -m sglang.launch_server --model-path m --tp 2 --dp 2", 4},
		{"python3 -m sglang.launch_server --model m --tp-size 4 --ep-size 4", 4},
		{"python3 -m sglang.launch_server --model m --pp-size 4", 4},
		// TensorRT-LLM: ep lives inside tp.
		{"trtllm-serve m --tp_size 4 --ep_size 4", 4},
		{"trtllm-serve m --tp_size 2 --pp_size 2", 4},
		// Comments and continuations are not the command.
		{"# -tp 8 was too slow\nvllm serve m \\\n  -tp 2", 2},
		{"vllm serve m -tp 2 # -tp 8 crashed", 2},
	} {
		if got := Parse(tc.command).GPUs(); got != tc.want {
			t.Errorf("GPUs(%q) = %d, want %d", tc.command, got, tc.want)
		}
	}
}

func TestStarted(t *testing.T) {
	for _, tc := range []struct{ command, want string }{
		{"vllm serve m", "vllm"},
		{"python -m vllm.entrypoints.openai.api_server --model m", "vllm"},
		{"python3 -m sglang.launch_server --model-path m", "sglang"},
		{"trtllm-serve m --tp_size 2", "trtllm"},
		{"lmdeploy serve api_server m --tp 2", "lmdeploy"},
		{"llama-server -m m.gguf", "llamacpp"},
		{"# This is a simplified vLLM-like command. GPUStack maps arguments to MindIE.\nmindie serve Qwen/Qwen3-30B-A3B", "mindie"},
		{"# vllm serve m\necho hello", ""},
	} {
		got := Parse(tc.command).EngineID()
		if got != tc.want {
			t.Errorf("engine of %q = %q, want %q", tc.command, got, tc.want)
		}
	}
}

func TestModel(t *testing.T) {
	for _, tc := range []struct{ command, want string }{
		{"vllm serve Qwen/Qwen3-8B -tp 2", "Qwen/Qwen3-8B"},
		{"vllm serve --model Qwen/Qwen3-8B", "Qwen/Qwen3-8B"},
		{"python3 -m sglang.launch_server --model-path=zai-org/GLM-4.6 --tp 8", "zai-org/GLM-4.6"},
		{"python3 -m sglang.launch_server --tp 8 --model zai-org/GLM-4.6", "zai-org/GLM-4.6"},
		{"trtllm-serve openai/gpt-oss-20b --tp_size 1", "openai/gpt-oss-20b"},
		{"trtllm-serve serve --model_dir /models/x", "/models/x"},
		{"lmdeploy serve api_server internlm/x --tp 2", "internlm/x"},
		{"llama-server -m /models/q.gguf -ngl 99", "/models/q.gguf"},
		{"vllm serve 'Qwen/Qwen3-8B'", "Qwen/Qwen3-8B"},
	} {
		if got := Parse(tc.command).Model; got != tc.want {
			t.Errorf("model of %q = %q, want %q", tc.command, got, tc.want)
		}
	}
}

func TestDifferences(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want string // the differences joined by "; ", "" for the same run
	}{
		// Aliases, listening address and reply parsers change nothing.
		{"python3 -m sglang.launch_server --model-path zai-org/GLM-4.5-Air \\\n--tp-size 4 --ep-size 4 --tool-call-parser glm --reasoning-parser glm45",
			"python3 -m sglang.launch_server --model zai-org/GLM-4.5-Air --tp 4 --ep 4", ""},
		{"vllm serve Qwen/Qwen3-8B --host 0.0.0.0 --port 8000 --api-key x --served-model-name q",
			"vllm serve qwen3-8b", ""},
		{"vllm serve m -tp 1", "vllm serve m", ""},
		{"vllm serve m --max-num-seqs=256", "vllm serve m --max_num_seqs 256", ""},
		// What does change the run.
		{"vllm serve m -tp 4", "vllm serve m -tp 8", "-tp 4 vs 8"},
		{"python3 -m sglang.launch_server --model zai-org/GLM-4.5-Air-FP8 --tp 4", "python3 -m sglang.launch_server --model zai-org/GLM-4.5-Air --tp 4",
			"model zai-org/GLM-4.5-Air-FP8 vs zai-org/GLM-4.5-Air"},
		{"vllm serve m --enable-prefix-caching", "vllm serve m", "--enable-prefix-caching only in the first"},
		{"vllm serve m", "vllm serve m --kv-cache-dtype fp8", "--kv-cache-dtype fp8 only in the second"},
		{"vllm serve m", "python3 -m sglang.launch_server --model-path m", "engine vLLM vs SGLang"},
	} {
		got := strings.Join(Parse(tc.a).Differences(Parse(tc.b)), "; ")
		if got != tc.want {
			t.Errorf("Differences(%q, %q) = %q, want %q", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestSameModel(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		same bool
	}{
		{"Qwen/Qwen3-8B", "vllm-ascend/Qwen3-8B-W8A8", true},
		{"zai-org/GLM-4.5-Air-FP8", "GLM-4.5-Air", true},
		{"Qwen/Qwen3-32B", "Qwen/Qwen3-14B", false},
		{"openai/gpt-oss-20b", "openai/gpt-oss-120b", false},
		{"Qwen/Qwen3-30B-A3B", "Qwen/Qwen3-30B-A3B-Instruct-2507", false},
	} {
		if got := SameModel(tc.a, tc.b); got != tc.same {
			t.Errorf("SameModel(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.same)
		}
	}
}

func TestNamed(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"Choosing the engine: SGLang", "sglang"},
		{"TensorRT-LLM (Not supported)", "trtllm"},
		{"Quantization in MindIE", "mindie"},
		{"Max Num Seqs", ""},
	} {
		got := ""
		if e := Named(tc.text); e != nil {
			got = e.ID
		}
		if got != tc.want {
			t.Errorf("Named(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}

func TestModelAndGPUsOfReportCommands(t *testing.T) {
	tests := []struct {
		name, command, model string
		gpus                 int
	}{
		{"vllm", "vllm serve Qwen/Qwen3-235B-A22B-Instruct-2507-FP8 -tp 4", "Qwen/Qwen3-235B-A22B-Instruct-2507-FP8", 4},
		{"sglang", "python3 -m sglang.launch_server --model-path Qwen/Qwen3-32B --tp-size 8", "Qwen/Qwen3-32B", 8},
		{"trtllm", "trtllm-serve Qwen/Qwen3-14B --max_num_tokens=16384", "Qwen/Qwen3-14B", 1},
		{"multi-line", "# FP8 checkpoint, expert parallel\nvllm serve Qwen/Qwen3-235B-A22B-Instruct-2507-FP8 \\\n  --tensor-parallel-size 8 \\\n  --enable-expert-parallel", "Qwen/Qwen3-235B-A22B-Instruct-2507-FP8", 8},
		{"comment names another model", "# vllm serve Other/Model -tp 8\nvllm serve Qwen/Qwen3-32B", "Qwen/Qwen3-32B", 1},
		{"tp x pp", "vllm serve Qwen/Qwen3-32B --tensor-parallel-size 2 --pipeline-parallel-size 2", "Qwen/Qwen3-32B", 4},
		{"dp with =", "vllm serve Qwen/Qwen3-32B --data-parallel-size=2", "Qwen/Qwen3-32B", 2},
		{"tp with =", "vllm serve Qwen/Qwen3-32B -tp=4", "Qwen/Qwen3-32B", 4},
		{"tp dp", "vllm serve Qwen/Qwen3-32B -tp 2 -dp 4", "Qwen/Qwen3-32B", 8},
		{"--model", "python -m vllm.entrypoints.openai.api_server --model Qwen/Qwen3-32B --tensor-parallel-size 4", "Qwen/Qwen3-32B", 4},
		{"--model=", "python -m vllm.entrypoints.openai.api_server --model=Qwen/Qwen3-32B", "Qwen/Qwen3-32B", 1},
		{"quoted", `vllm serve "Qwen/Qwen3-32B" --tp-size '2'`, "Qwen/Qwen3-32B", 2},
		{"trtllm tp_size", "trtllm-serve Qwen/Qwen3-32B --tp_size 2 --pp_size 2", "Qwen/Qwen3-32B", 4},
		{"serve then flag", "vllm serve --model Qwen/Qwen3-32B", "Qwen/Qwen3-32B", 1},
		{"no model", "echo hello", "", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Parse(tt.command).Model; got != tt.model {
				t.Errorf("ServedModel = %q, want %q", got, tt.model)
			}
			if got := Parse(tt.command).GPUs(); got != tt.gpus {
				t.Errorf("CommandGPUs = %d, want %d", got, tt.gpus)
			}
		})
	}
}

func TestNamedAll(t *testing.T) {
	if got := NamedAll("Quantization in TensorRT-LLM/vLLM"); len(got) != 2 {
		t.Errorf("NamedAll found %d engines, want 2", len(got))
	}
}

// TestSettings: a command's settings are its engine, its model as served
// and the flags that change performance, under one name whatever the
// spelling; two commands without Differences have the same settings.
func TestSettings(t *testing.T) {
	got := Parse("vllm serve Qwen/Qwen3-235B-A22B-Instruct-2507-FP8 -tp 4 --port 8000 --enable-expert-parallel").Settings()
	want := map[string]string{"engine": "vllm", "model": "qwen3-235b-a22b-instruct-2507-fp8", "--" + FlagTP: "4", "--" + FlagEP: ""}
	if len(got) != len(want) {
		t.Fatalf("Settings = %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("Settings[%q] = %q, want %q (all: %v)", k, got[k], v, got)
		}
	}
	a, b := Parse("vllm serve m --tensor-parallel-size 2 --host 0.0.0.0").Settings(), Parse("vllm serve m -tp 2").Settings()
	if len(a) != len(b) || a["--"+FlagTP] != b["--"+FlagTP] {
		t.Errorf("one configuration, two spellings: %v and %v", a, b)
	}
}
