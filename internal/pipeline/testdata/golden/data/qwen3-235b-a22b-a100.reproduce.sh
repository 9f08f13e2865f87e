#!/bin/sh
# How to run again each run of study qwen3-235b-a22b-a100, written by perflab from results/qwen3-235b-a22b-a100/study.yaml.
# Every item says the file and line it was read from; what no file records is unknown.
#
#   sh reproduce.sh                     lists the runs and their workloads
#   sh reproduce.sh RUN serve           runs the serving command of RUN (start it first)
#   sh reproduce.sh RUN bench WORKLOAD  runs the benchmark command of WORKLOAD against it
set -eu
case "${1:-}/${2:-}/${3:-}" in

# Run sglang-tp8 (SGLang)
# Engine: SGLang (results/qwen3-235b-a22b-a100/study.yaml:11), version v0.5.5.post1 (results/qwen3-235b-a22b-a100/study.yaml:11)
# Benchmark tool: vllm bench serve (results/qwen3-235b-a22b-a100/study.yaml:15), version unknown
# Model: Qwen/Qwen3-235B-A22B-Instruct-2507 (results/qwen3-235b-a22b-a100/runs/sglang-tp8/run.yaml:3), revision unknown
# GPUs: 8 (results/qwen3-235b-a22b-a100/runs/sglang-tp8/run.yaml:4) x NVIDIA A100 SXM 80GB (results/qwen3-235b-a22b-a100/study.yaml:3)
# serving command: results/qwen3-235b-a22b-a100/runs/sglang-tp8/run.yaml:3
sglang-tp8/serve/)
	exec sh -c 'python3 -m sglang.launch_server --model-path Qwen/Qwen3-235B-A22B-Instruct-2507 --tp-size 8'
	;;
# Workload sharegpt: dataset sharegpt (results/qwen3-235b-a22b-a100/study.yaml:26), input length unknown, output length unknown, 1000 (results/qwen3-235b-a22b-a100/study.yaml:26) prompts, seed unknown
sglang-tp8/bench/sharegpt)
# benchmark command: results/qwen3-235b-a22b-a100/study.yaml:26
	exec sh -c 'vllm bench serve --model Qwen/Qwen3-235B-A22B-Instruct-2507 --backend openai-chat --endpoint /v1/chat/completions --dataset-name sharegpt --dataset-path ShareGPT_V3_unfiltered_cleaned_split.json --num-prompts 1000'
	;;

# Run vllm-fp8-tp4 (TP4)
# Engine: vLLM (results/qwen3-235b-a22b-a100/study.yaml:8), version v0.11.0 (results/qwen3-235b-a22b-a100/study.yaml:8)
# Benchmark tool: vllm bench serve (results/qwen3-235b-a22b-a100/study.yaml:15), version unknown
# Model: Qwen/Qwen3-235B-A22B-Instruct-2507-FP8 (results/qwen3-235b-a22b-a100/runs/vllm-fp8-tp4/run.yaml:3), revision unknown
# GPUs: 4 (results/qwen3-235b-a22b-a100/runs/vllm-fp8-tp4/run.yaml:4) x NVIDIA A100 SXM 80GB (results/qwen3-235b-a22b-a100/study.yaml:3)
# serving command: results/qwen3-235b-a22b-a100/runs/vllm-fp8-tp4/run.yaml:3
vllm-fp8-tp4/serve/)
	exec sh -c 'vllm serve Qwen/Qwen3-235B-A22B-Instruct-2507-FP8 -tp 4'
	;;
# Workload sharegpt: dataset sharegpt (results/qwen3-235b-a22b-a100/study.yaml:26), input length unknown, output length unknown, 1000 (results/qwen3-235b-a22b-a100/study.yaml:26) prompts, seed unknown
vllm-fp8-tp4/bench/sharegpt)
# benchmark command: results/qwen3-235b-a22b-a100/study.yaml:26
	exec sh -c 'vllm bench serve --model Qwen/Qwen3-235B-A22B-Instruct-2507 --backend openai-chat --endpoint /v1/chat/completions --dataset-name sharegpt --dataset-path ShareGPT_V3_unfiltered_cleaned_split.json --num-prompts 1000'
	;;
# Workload random-128: dataset random (results/qwen3-235b-a22b-a100/study.yaml:31), input length 128 (results/qwen3-235b-a22b-a100/study.yaml:31), output length 4 (results/qwen3-235b-a22b-a100/study.yaml:31), unknown prompts, seed unknown
vllm-fp8-tp4/bench/random-128)
	echo 'the benchmark command of run vllm-fp8-tp4 on workload random-128 is unknown: no file records it' >&2
	exit 1
	;;
# Workload random-2k: dataset random (results/qwen3-235b-a22b-a100/study.yaml:35), input length 2000 (results/qwen3-235b-a22b-a100/study.yaml:35), output length 100 (results/qwen3-235b-a22b-a100/study.yaml:35), unknown prompts, seed unknown
vllm-fp8-tp4/bench/random-2k)
	echo 'the benchmark command of run vllm-fp8-tp4 on workload random-2k is unknown: no file records it' >&2
	exit 1
	;;
# Workload random-4k: dataset random (results/qwen3-235b-a22b-a100/study.yaml:39), input length 4000 (results/qwen3-235b-a22b-a100/study.yaml:39), output length 200 (results/qwen3-235b-a22b-a100/study.yaml:39), 500 (results/qwen3-235b-a22b-a100/study.yaml:39) prompts, seed 42 (results/qwen3-235b-a22b-a100/study.yaml:39)
vllm-fp8-tp4/bench/random-4k)
# benchmark command: results/qwen3-235b-a22b-a100/study.yaml:39
	exec sh -c 'vllm bench serve --model Qwen/Qwen3-235B-A22B-Instruct-2507 --backend openai-chat --endpoint /v1/chat/completions --dataset-name random --random-input-len 4000 --random-output-len 200 --num-prompts 500 --seed 42'
	;;
# Workload random-32k: dataset random (results/qwen3-235b-a22b-a100/study.yaml:46), input length 32000 (results/qwen3-235b-a22b-a100/study.yaml:46), output length 100 (results/qwen3-235b-a22b-a100/study.yaml:46), unknown prompts, seed unknown
vllm-fp8-tp4/bench/random-32k)
	echo 'the benchmark command of run vllm-fp8-tp4 on workload random-32k is unknown: no file records it' >&2
	exit 1
	;;

# Run vllm-fp8-tp4-ep4 (TP4 EP4)
# Engine: vLLM (results/qwen3-235b-a22b-a100/study.yaml:8), version v0.11.0 (results/qwen3-235b-a22b-a100/study.yaml:8)
# Benchmark tool: vllm bench serve (results/qwen3-235b-a22b-a100/study.yaml:15), version unknown
# Model: Qwen/Qwen3-235B-A22B-Instruct-2507-FP8 (results/qwen3-235b-a22b-a100/runs/vllm-fp8-tp4-ep4/run.yaml:3), revision unknown
# GPUs: 4 (results/qwen3-235b-a22b-a100/runs/vllm-fp8-tp4-ep4/run.yaml:4) x NVIDIA A100 SXM 80GB (results/qwen3-235b-a22b-a100/study.yaml:3)
# serving command: results/qwen3-235b-a22b-a100/runs/vllm-fp8-tp4-ep4/run.yaml:3
vllm-fp8-tp4-ep4/serve/)
	exec sh -c 'vllm serve Qwen/Qwen3-235B-A22B-Instruct-2507-FP8 -tp 4 --enable-expert-parallel'
	;;
# Workload sharegpt: dataset sharegpt (results/qwen3-235b-a22b-a100/study.yaml:26), input length unknown, output length unknown, 1000 (results/qwen3-235b-a22b-a100/study.yaml:26) prompts, seed unknown
vllm-fp8-tp4-ep4/bench/sharegpt)
# benchmark command: results/qwen3-235b-a22b-a100/study.yaml:26
	exec sh -c 'vllm bench serve --model Qwen/Qwen3-235B-A22B-Instruct-2507 --backend openai-chat --endpoint /v1/chat/completions --dataset-name sharegpt --dataset-path ShareGPT_V3_unfiltered_cleaned_split.json --num-prompts 1000'
	;;

# Run vllm-fp8-tp4-mbt4096 (--max-num-batched-tokens 4096)
# Engine: vLLM (results/qwen3-235b-a22b-a100/study.yaml:8), version v0.11.0 (results/qwen3-235b-a22b-a100/study.yaml:8)
# Benchmark tool: vllm bench serve (results/qwen3-235b-a22b-a100/study.yaml:15), version unknown
# Model: Qwen/Qwen3-235B-A22B-Instruct-2507-FP8 (results/qwen3-235b-a22b-a100/runs/vllm-fp8-tp4-mbt4096/run.yaml:3), revision unknown
# GPUs: 4 (results/qwen3-235b-a22b-a100/runs/vllm-fp8-tp4-mbt4096/run.yaml:4) x NVIDIA A100 SXM 80GB (results/qwen3-235b-a22b-a100/study.yaml:3)
# serving command: results/qwen3-235b-a22b-a100/runs/vllm-fp8-tp4-mbt4096/run.yaml:3
vllm-fp8-tp4-mbt4096/serve/)
	exec sh -c 'vllm serve Qwen/Qwen3-235B-A22B-Instruct-2507-FP8 -tp 4 --max-num-batched-tokens 4096'
	;;
# Workload sharegpt: dataset sharegpt (results/qwen3-235b-a22b-a100/study.yaml:26), input length unknown, output length unknown, 1000 (results/qwen3-235b-a22b-a100/study.yaml:26) prompts, seed unknown
vllm-fp8-tp4-mbt4096/bench/sharegpt)
# benchmark command: results/qwen3-235b-a22b-a100/study.yaml:26
	exec sh -c 'vllm bench serve --model Qwen/Qwen3-235B-A22B-Instruct-2507 --backend openai-chat --endpoint /v1/chat/completions --dataset-name sharegpt --dataset-path ShareGPT_V3_unfiltered_cleaned_split.json --num-prompts 1000'
	;;

# Run vllm-fp8-tp4-mbt8192 (--max-num-batched-tokens 8192)
# Engine: vLLM (results/qwen3-235b-a22b-a100/study.yaml:8), version v0.11.0 (results/qwen3-235b-a22b-a100/study.yaml:8)
# Benchmark tool: vllm bench serve (results/qwen3-235b-a22b-a100/study.yaml:15), version unknown
# Model: Qwen/Qwen3-235B-A22B-Instruct-2507 (results/qwen3-235b-a22b-a100/study.yaml), revision unknown
# GPUs: 4 (results/qwen3-235b-a22b-a100/runs/vllm-fp8-tp4-mbt8192/run.yaml:5) x NVIDIA A100 SXM 80GB (results/qwen3-235b-a22b-a100/study.yaml:3)
# serving command, rebuilt because the source did not print it: results/qwen3-235b-a22b-a100/runs/vllm-fp8-tp4-mbt8192/run.yaml:3
vllm-fp8-tp4-mbt8192/serve/)
	exec sh -c 'vllm serve Qwen/Qwen3-235B-A22B-Instruct-2507-FP8 -tp 4 --max-num-batched-tokens 8192'
	;;
# Workload sharegpt: dataset sharegpt (results/qwen3-235b-a22b-a100/study.yaml:26), input length unknown, output length unknown, 1000 (results/qwen3-235b-a22b-a100/study.yaml:26) prompts, seed unknown
vllm-fp8-tp4-mbt8192/bench/sharegpt)
# benchmark command: results/qwen3-235b-a22b-a100/study.yaml:26
	exec sh -c 'vllm bench serve --model Qwen/Qwen3-235B-A22B-Instruct-2507 --backend openai-chat --endpoint /v1/chat/completions --dataset-name sharegpt --dataset-path ShareGPT_V3_unfiltered_cleaned_split.json --num-prompts 1000'
	;;

# Run vllm-fp8-tp8-ep (vLLM FP8)
# Engine: vLLM (results/qwen3-235b-a22b-a100/study.yaml:8), version v0.11.0 (results/qwen3-235b-a22b-a100/study.yaml:8)
# Benchmark tool: vllm bench serve (results/qwen3-235b-a22b-a100/study.yaml:15), version unknown
# Model: Qwen/Qwen3-235B-A22B-Instruct-2507-FP8 (results/qwen3-235b-a22b-a100/runs/vllm-fp8-tp8-ep/run.yaml:3), revision unknown
# GPUs: 8 (results/qwen3-235b-a22b-a100/runs/vllm-fp8-tp8-ep/run.yaml:6) x NVIDIA A100 SXM 80GB (results/qwen3-235b-a22b-a100/study.yaml:3)
# serving command: results/qwen3-235b-a22b-a100/runs/vllm-fp8-tp8-ep/run.yaml:3
vllm-fp8-tp8-ep/serve/)
	exec sh -c '# TP8 only is not compatible for the model weight. Use EP as well.
vllm serve Qwen/Qwen3-235B-A22B-Instruct-2507-FP8 -tp 8 --enable-expert-parallel'
	;;
# Workload sharegpt: dataset sharegpt (results/qwen3-235b-a22b-a100/study.yaml:26), input length unknown, output length unknown, 1000 (results/qwen3-235b-a22b-a100/study.yaml:26) prompts, seed unknown
vllm-fp8-tp8-ep/bench/sharegpt)
# benchmark command: results/qwen3-235b-a22b-a100/study.yaml:26
	exec sh -c 'vllm bench serve --model Qwen/Qwen3-235B-A22B-Instruct-2507 --backend openai-chat --endpoint /v1/chat/completions --dataset-name sharegpt --dataset-path ShareGPT_V3_unfiltered_cleaned_split.json --num-prompts 1000'
	;;

# Run vllm-tp8 (vLLM)
# Engine: vLLM (results/qwen3-235b-a22b-a100/study.yaml:8), version v0.11.0 (results/qwen3-235b-a22b-a100/study.yaml:8)
# Benchmark tool: vllm bench serve (results/qwen3-235b-a22b-a100/study.yaml:15), version unknown
# Model: Qwen/Qwen3-235B-A22B-Instruct-2507 (results/qwen3-235b-a22b-a100/runs/vllm-tp8/run.yaml:3), revision unknown
# GPUs: 8 (results/qwen3-235b-a22b-a100/runs/vllm-tp8/run.yaml:4) x NVIDIA A100 SXM 80GB (results/qwen3-235b-a22b-a100/study.yaml:3)
# serving command: results/qwen3-235b-a22b-a100/runs/vllm-tp8/run.yaml:3
vllm-tp8/serve/)
	exec sh -c 'vllm serve Qwen/Qwen3-235B-A22B-Instruct-2507 -tp 8'
	;;
# Workload sharegpt: dataset sharegpt (results/qwen3-235b-a22b-a100/study.yaml:26), input length unknown, output length unknown, 1000 (results/qwen3-235b-a22b-a100/study.yaml:26) prompts, seed unknown
vllm-tp8/bench/sharegpt)
# benchmark command: results/qwen3-235b-a22b-a100/study.yaml:26
	exec sh -c 'vllm bench serve --model Qwen/Qwen3-235B-A22B-Instruct-2507 --backend openai-chat --endpoint /v1/chat/completions --dataset-name sharegpt --dataset-path ShareGPT_V3_unfiltered_cleaned_split.json --num-prompts 1000'
	;;
# Workload random-128: dataset random (results/qwen3-235b-a22b-a100/study.yaml:31), input length 128 (results/qwen3-235b-a22b-a100/study.yaml:31), output length 4 (results/qwen3-235b-a22b-a100/study.yaml:31), unknown prompts, seed unknown
vllm-tp8/bench/random-128)
	echo 'the benchmark command of run vllm-tp8 on workload random-128 is unknown: no file records it' >&2
	exit 1
	;;
# Workload random-2k: dataset random (results/qwen3-235b-a22b-a100/study.yaml:35), input length 2000 (results/qwen3-235b-a22b-a100/study.yaml:35), output length 100 (results/qwen3-235b-a22b-a100/study.yaml:35), unknown prompts, seed unknown
vllm-tp8/bench/random-2k)
	echo 'the benchmark command of run vllm-tp8 on workload random-2k is unknown: no file records it' >&2
	exit 1
	;;
# Workload random-4k: dataset random (results/qwen3-235b-a22b-a100/study.yaml:39), input length 4000 (results/qwen3-235b-a22b-a100/study.yaml:39), output length 200 (results/qwen3-235b-a22b-a100/study.yaml:39), 500 (results/qwen3-235b-a22b-a100/study.yaml:39) prompts, seed 42 (results/qwen3-235b-a22b-a100/study.yaml:39)
vllm-tp8/bench/random-4k)
# benchmark command: results/qwen3-235b-a22b-a100/study.yaml:39
	exec sh -c 'vllm bench serve --model Qwen/Qwen3-235B-A22B-Instruct-2507 --backend openai-chat --endpoint /v1/chat/completions --dataset-name random --random-input-len 4000 --random-output-len 200 --num-prompts 500 --seed 42'
	;;
# Workload random-32k: dataset random (results/qwen3-235b-a22b-a100/study.yaml:46), input length 32000 (results/qwen3-235b-a22b-a100/study.yaml:46), output length 100 (results/qwen3-235b-a22b-a100/study.yaml:46), unknown prompts, seed unknown
vllm-tp8/bench/random-32k)
	echo 'the benchmark command of run vllm-tp8 on workload random-32k is unknown: no file records it' >&2
	exit 1
	;;

'//')
	printf '%s\n' 'runs and their workloads:' '  sglang-tp8: sharegpt' '  vllm-fp8-tp4: sharegpt random-128 random-2k random-4k random-32k' '  vllm-fp8-tp4-ep4: sharegpt' '  vllm-fp8-tp4-mbt4096: sharegpt' '  vllm-fp8-tp4-mbt8192: sharegpt' '  vllm-fp8-tp8-ep: sharegpt' '  vllm-tp8: sharegpt random-128 random-2k random-4k random-32k'
	;;
*)
	echo "no such run, step or workload: $*; sh reproduce.sh lists them" >&2
	exit 2
	;;
esac
