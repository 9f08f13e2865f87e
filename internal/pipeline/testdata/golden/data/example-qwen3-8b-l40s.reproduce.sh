#!/bin/sh
# How to run again each run of study example-qwen3-8b-l40s, written by perflab from results/example-qwen3-8b-l40s/study.yaml.
# Every item says the file and line it was read from; what no file records is unknown.
#
#   sh reproduce.sh                     lists the runs and their workloads
#   sh reproduce.sh RUN serve           runs the serving command of RUN (start it first)
#   sh reproduce.sh RUN bench WORKLOAD  runs the benchmark command of WORKLOAD against it
set -eu
case "${1:-}/${2:-}/${3:-}" in

# Run sglang (SGLang BF16)
# Engine: SGLang (results/example-qwen3-8b-l40s/study.yaml:19), version v0.5.5.post1 (results/example-qwen3-8b-l40s/study.yaml:19)
# Benchmark tool: vllm bench serve (results/example-qwen3-8b-l40s/study.yaml:23), version unknown
# Model: Qwen/Qwen3-8B (results/example-qwen3-8b-l40s/runs/sglang/run.yaml:3), revision unknown
# GPUs: 1 (results/example-qwen3-8b-l40s/runs/sglang/run.yaml:4) x NVIDIA L40S (results/example-qwen3-8b-l40s/study.yaml:4)
# serving command: results/example-qwen3-8b-l40s/runs/sglang/run.yaml:3
sglang/serve/)
	exec sh -c 'python3 -m sglang.launch_server --model-path Qwen/Qwen3-8B --max-running-requests 256'
	;;
# Workload chat: dataset random (results/example-qwen3-8b-l40s/study.yaml:30), input length 1000 (results/example-qwen3-8b-l40s/study.yaml:30), output length 200 (results/example-qwen3-8b-l40s/study.yaml:30), 500 (results/example-qwen3-8b-l40s/study.yaml:30) prompts, seed 42 (results/example-qwen3-8b-l40s/study.yaml:30)
sglang/bench/chat)
	echo 'the benchmark command of run sglang on workload chat is unknown: no file records it' >&2
	exit 1
	;;
# Workload sweep: dataset random (results/example-qwen3-8b-l40s/study.yaml:38), input length 1000 (results/example-qwen3-8b-l40s/study.yaml:38), output length 200 (results/example-qwen3-8b-l40s/study.yaml:38), 256 (results/example-qwen3-8b-l40s/study.yaml:38) prompts, seed 42 (results/example-qwen3-8b-l40s/study.yaml:38)
sglang/bench/sweep)
	echo 'the benchmark command of run sglang on workload sweep is unknown: no file records it' >&2
	exit 1
	;;

# Run vllm (vLLM BF16)
# Engine: vLLM (results/example-qwen3-8b-l40s/study.yaml:16), version v0.11.0 (results/example-qwen3-8b-l40s/study.yaml:16)
# Benchmark tool: vllm bench serve (results/example-qwen3-8b-l40s/study.yaml:23), version unknown
# Model: Qwen/Qwen3-8B (results/example-qwen3-8b-l40s/runs/vllm/run.yaml:3), revision unknown
# GPUs: 1 (results/example-qwen3-8b-l40s/runs/vllm/run.yaml:4) x NVIDIA L40S (results/example-qwen3-8b-l40s/study.yaml:4)
# serving command: results/example-qwen3-8b-l40s/runs/vllm/run.yaml:3
vllm/serve/)
	exec sh -c 'vllm serve Qwen/Qwen3-8B --max-num-seqs 256'
	;;
# Workload chat: dataset random (results/example-qwen3-8b-l40s/study.yaml:30), input length 1000 (results/example-qwen3-8b-l40s/study.yaml:30), output length 200 (results/example-qwen3-8b-l40s/study.yaml:30), 500 (results/example-qwen3-8b-l40s/study.yaml:30) prompts, seed 42 (results/example-qwen3-8b-l40s/study.yaml:30)
vllm/bench/chat)
	echo 'the benchmark command of run vllm on workload chat is unknown: no file records it' >&2
	exit 1
	;;
# Workload sweep: dataset random (results/example-qwen3-8b-l40s/study.yaml:38), input length 1000 (results/example-qwen3-8b-l40s/study.yaml:38), output length 200 (results/example-qwen3-8b-l40s/study.yaml:38), 256 (results/example-qwen3-8b-l40s/study.yaml:38) prompts, seed 42 (results/example-qwen3-8b-l40s/study.yaml:38)
vllm/bench/sweep)
	echo 'the benchmark command of run vllm on workload sweep is unknown: no file records it' >&2
	exit 1
	;;
# Workload long: dataset random (results/example-qwen3-8b-l40s/study.yaml:46), input length 8000 (results/example-qwen3-8b-l40s/study.yaml:46), output length 200 (results/example-qwen3-8b-l40s/study.yaml:46), 200 (results/example-qwen3-8b-l40s/study.yaml:46) prompts, seed 42 (results/example-qwen3-8b-l40s/study.yaml:46)
vllm/bench/long)
	echo 'the benchmark command of run vllm on workload long is unknown: no file records it' >&2
	exit 1
	;;

# Run vllm-fp8 (vLLM FP8)
# Engine: vLLM (results/example-qwen3-8b-l40s/study.yaml:16), version v0.11.0 (results/example-qwen3-8b-l40s/study.yaml:16)
# Benchmark tool: vllm bench serve (results/example-qwen3-8b-l40s/study.yaml:23), version unknown
# Model: Qwen/Qwen3-8B-FP8 (results/example-qwen3-8b-l40s/runs/vllm-fp8/run.yaml:3), revision unknown
# GPUs: 1 (results/example-qwen3-8b-l40s/runs/vllm-fp8/run.yaml:4) x NVIDIA L40S (results/example-qwen3-8b-l40s/study.yaml:4)
# serving command: results/example-qwen3-8b-l40s/runs/vllm-fp8/run.yaml:3
vllm-fp8/serve/)
	exec sh -c 'vllm serve Qwen/Qwen3-8B-FP8 --max-num-seqs 256'
	;;
# Workload chat: dataset random (results/example-qwen3-8b-l40s/study.yaml:30), input length 1000 (results/example-qwen3-8b-l40s/study.yaml:30), output length 200 (results/example-qwen3-8b-l40s/study.yaml:30), 500 (results/example-qwen3-8b-l40s/study.yaml:30) prompts, seed 42 (results/example-qwen3-8b-l40s/study.yaml:30)
vllm-fp8/bench/chat)
	echo 'the benchmark command of run vllm-fp8 on workload chat is unknown: no file records it' >&2
	exit 1
	;;
# Workload sweep: dataset random (results/example-qwen3-8b-l40s/study.yaml:38), input length 1000 (results/example-qwen3-8b-l40s/study.yaml:38), output length 200 (results/example-qwen3-8b-l40s/study.yaml:38), 256 (results/example-qwen3-8b-l40s/study.yaml:38) prompts, seed 42 (results/example-qwen3-8b-l40s/study.yaml:38)
vllm-fp8/bench/sweep)
	echo 'the benchmark command of run vllm-fp8 on workload sweep is unknown: no file records it' >&2
	exit 1
	;;
# Workload long: dataset random (results/example-qwen3-8b-l40s/study.yaml:46), input length 8000 (results/example-qwen3-8b-l40s/study.yaml:46), output length 200 (results/example-qwen3-8b-l40s/study.yaml:46), 200 (results/example-qwen3-8b-l40s/study.yaml:46) prompts, seed 42 (results/example-qwen3-8b-l40s/study.yaml:46)
vllm-fp8/bench/long)
	echo 'the benchmark command of run vllm-fp8 on workload long is unknown: no file records it' >&2
	exit 1
	;;

'//')
	printf '%s\n' 'runs and their workloads:' '  sglang: chat sweep' '  vllm: chat sweep long' '  vllm-fp8: chat sweep long'
	;;
*)
	echo "no such run, step or workload: $*; sh reproduce.sh lists them" >&2
	exit 2
	;;
esac
