#!/bin/sh
# How to run again each run of study qwen3-32b-a100, written by perflab from results/qwen3-32b-a100/study.yaml.
# Every item says the file and line it was read from; what no file records is unknown.
#
#   sh reproduce.sh                     lists the runs and their workloads
#   sh reproduce.sh RUN serve           runs the serving command of RUN (start it first)
#   sh reproduce.sh RUN bench WORKLOAD  runs the benchmark command of WORKLOAD against it
set -eu
case "${1:-}/${2:-}/${3:-}" in

# Run sglang (SGLang)
# Engine: SGLang (results/qwen3-32b-a100/study.yaml:11), version v0.5.5.post1 (results/qwen3-32b-a100/study.yaml:11)
# Benchmark tool: vllm bench serve (results/qwen3-32b-a100/study.yaml:18), version unknown
# Model: Qwen/Qwen3-32B (results/qwen3-32b-a100/runs/sglang/run.yaml:3), revision unknown
# GPUs: 1 (results/qwen3-32b-a100/runs/sglang/run.yaml:4) x NVIDIA A100 SXM 80GB (results/qwen3-32b-a100/study.yaml:3)
# serving command: results/qwen3-32b-a100/runs/sglang/run.yaml:3
sglang/serve/)
	exec sh -c 'python3 -m sglang.launch_server --model-path Qwen/Qwen3-32B'
	;;
# Workload sharegpt: dataset sharegpt (results/qwen3-32b-a100/study.yaml:29), input length unknown, output length unknown, 1000 (results/qwen3-32b-a100/study.yaml:29) prompts, seed unknown
sglang/bench/sharegpt)
# benchmark command: results/qwen3-32b-a100/study.yaml:29
	exec sh -c 'vllm bench serve --model Qwen/Qwen3-32B --backend openai-chat --endpoint /v1/chat/completions --dataset-name sharegpt --dataset-path ShareGPT_V3_unfiltered_cleaned_split.json --num-prompts 1000'
	;;

# Run trtllm (TensorRT-LLM)
# Engine: TensorRT-LLM (results/qwen3-32b-a100/study.yaml:14), version v1.2.0rc1 (results/qwen3-32b-a100/study.yaml:14)
# Benchmark tool: vllm bench serve (results/qwen3-32b-a100/study.yaml:18), version unknown
# Model: Qwen/Qwen3-32B (results/qwen3-32b-a100/runs/trtllm/run.yaml:3), revision unknown
# GPUs: 1 (results/qwen3-32b-a100/runs/trtllm/run.yaml:4) x NVIDIA A100 SXM 80GB (results/qwen3-32b-a100/study.yaml:3)
# serving command: results/qwen3-32b-a100/runs/trtllm/run.yaml:3
trtllm/serve/)
	exec sh -c 'trtllm-serve Qwen/Qwen3-32B'
	;;
# Workload sharegpt: dataset sharegpt (results/qwen3-32b-a100/study.yaml:29), input length unknown, output length unknown, 1000 (results/qwen3-32b-a100/study.yaml:29) prompts, seed unknown
trtllm/bench/sharegpt)
# benchmark command: results/qwen3-32b-a100/study.yaml:29
	exec sh -c 'vllm bench serve --model Qwen/Qwen3-32B --backend openai-chat --endpoint /v1/chat/completions --dataset-name sharegpt --dataset-path ShareGPT_V3_unfiltered_cleaned_split.json --num-prompts 1000'
	;;

# Run trtllm-chunked-prefill (TensorRT-LLM)
# Engine: TensorRT-LLM (results/qwen3-32b-a100/study.yaml:14), version v1.2.0rc1 (results/qwen3-32b-a100/study.yaml:14)
# Benchmark tool: vllm bench serve (results/qwen3-32b-a100/study.yaml:18), version unknown
# Model: Qwen/Qwen3-32B (results/qwen3-32b-a100/runs/trtllm-chunked-prefill/run.yaml:3), revision unknown
# GPUs: 1 (results/qwen3-32b-a100/runs/trtllm-chunked-prefill/run.yaml:4) x NVIDIA A100 SXM 80GB (results/qwen3-32b-a100/study.yaml:3)
# serving command: results/qwen3-32b-a100/runs/trtllm-chunked-prefill/run.yaml:3
trtllm-chunked-prefill/serve/)
	exec sh -c 'trtllm-serve Qwen/Qwen3-32B --max_seq_len=40960 --enable_chunked_prefill'
	;;
# Workload random-128: dataset random (results/qwen3-32b-a100/study.yaml:34), input length 128 (results/qwen3-32b-a100/study.yaml:34), output length 4 (results/qwen3-32b-a100/study.yaml:34), unknown prompts, seed unknown
trtllm-chunked-prefill/bench/random-128)
	echo 'the benchmark command of run trtllm-chunked-prefill on workload random-128 is unknown: no file records it' >&2
	exit 1
	;;
# Workload random-2k: dataset random (results/qwen3-32b-a100/study.yaml:38), input length 2000 (results/qwen3-32b-a100/study.yaml:38), output length 100 (results/qwen3-32b-a100/study.yaml:38), unknown prompts, seed unknown
trtllm-chunked-prefill/bench/random-2k)
	echo 'the benchmark command of run trtllm-chunked-prefill on workload random-2k is unknown: no file records it' >&2
	exit 1
	;;
# Workload random-4k: dataset random (results/qwen3-32b-a100/study.yaml:42), input length 4000 (results/qwen3-32b-a100/study.yaml:42), output length 200 (results/qwen3-32b-a100/study.yaml:42), 500 (results/qwen3-32b-a100/study.yaml:42) prompts, seed 42 (results/qwen3-32b-a100/study.yaml:42)
trtllm-chunked-prefill/bench/random-4k)
# benchmark command: results/qwen3-32b-a100/study.yaml:42
	exec sh -c 'vllm bench serve --model Qwen/Qwen3-32B --backend openai-chat --endpoint /v1/chat/completions --dataset-name random --random-input-len 4000 --random-output-len 200 --num-prompts 500 --seed 42'
	;;
# Workload random-32k: dataset random (results/qwen3-32b-a100/study.yaml:49), input length 32000 (results/qwen3-32b-a100/study.yaml:49), output length 100 (results/qwen3-32b-a100/study.yaml:49), unknown prompts, seed unknown
trtllm-chunked-prefill/bench/random-32k)
	echo 'the benchmark command of run trtllm-chunked-prefill on workload random-32k is unknown: no file records it' >&2
	exit 1
	;;

# Run trtllm-mnt16384 (--max_num_tokens=16384)
# Engine: TensorRT-LLM (results/qwen3-32b-a100/study.yaml:14), version v1.2.0rc1 (results/qwen3-32b-a100/study.yaml:14)
# Benchmark tool: vllm bench serve (results/qwen3-32b-a100/study.yaml:18), version unknown
# Model: Qwen/Qwen3-14B (results/qwen3-32b-a100/runs/trtllm-mnt16384/run.yaml:3), revision unknown
# GPUs: 1 (results/qwen3-32b-a100/runs/trtllm-mnt16384/run.yaml:4) x NVIDIA A100 SXM 80GB (results/qwen3-32b-a100/study.yaml:3)
# serving command: results/qwen3-32b-a100/runs/trtllm-mnt16384/run.yaml:3
trtllm-mnt16384/serve/)
	exec sh -c 'trtllm-serve Qwen/Qwen3-14B --max_num_tokens=16384'
	;;
# Workload sharegpt: dataset sharegpt (results/qwen3-32b-a100/study.yaml:29), input length unknown, output length unknown, 1000 (results/qwen3-32b-a100/study.yaml:29) prompts, seed unknown
trtllm-mnt16384/bench/sharegpt)
# benchmark command: results/qwen3-32b-a100/study.yaml:29
	exec sh -c 'vllm bench serve --model Qwen/Qwen3-32B --backend openai-chat --endpoint /v1/chat/completions --dataset-name sharegpt --dataset-path ShareGPT_V3_unfiltered_cleaned_split.json --num-prompts 1000'
	;;

# Run trtllm-mnt32768 (--max_num_tokens=32768)
# Engine: TensorRT-LLM (results/qwen3-32b-a100/study.yaml:14), version v1.2.0rc1 (results/qwen3-32b-a100/study.yaml:14)
# Benchmark tool: vllm bench serve (results/qwen3-32b-a100/study.yaml:18), version unknown
# Model: Qwen/Qwen3-32B (results/qwen3-32b-a100/study.yaml), revision unknown
# GPUs: 1 (results/qwen3-32b-a100/runs/trtllm-mnt32768/run.yaml:5) x NVIDIA A100 SXM 80GB (results/qwen3-32b-a100/study.yaml:3)
# serving command, rebuilt because the source did not print it: results/qwen3-32b-a100/runs/trtllm-mnt32768/run.yaml:3
trtllm-mnt32768/serve/)
	exec sh -c 'trtllm-serve Qwen/Qwen3-14B --max_num_tokens=32768'
	;;
# Workload sharegpt: dataset sharegpt (results/qwen3-32b-a100/study.yaml:29), input length unknown, output length unknown, 1000 (results/qwen3-32b-a100/study.yaml:29) prompts, seed unknown
trtllm-mnt32768/bench/sharegpt)
# benchmark command: results/qwen3-32b-a100/study.yaml:29
	exec sh -c 'vllm bench serve --model Qwen/Qwen3-32B --backend openai-chat --endpoint /v1/chat/completions --dataset-name sharegpt --dataset-path ShareGPT_V3_unfiltered_cleaned_split.json --num-prompts 1000'
	;;

# Run vllm (vLLM)
# Engine: vLLM (results/qwen3-32b-a100/study.yaml:8), version v0.11.0 (results/qwen3-32b-a100/study.yaml:8)
# Benchmark tool: vllm bench serve (results/qwen3-32b-a100/study.yaml:18), version unknown
# Model: Qwen/Qwen3-32B (results/qwen3-32b-a100/runs/vllm/run.yaml:3), revision unknown
# GPUs: 1 (results/qwen3-32b-a100/runs/vllm/run.yaml:4) x NVIDIA A100 SXM 80GB (results/qwen3-32b-a100/study.yaml:3)
# serving command: results/qwen3-32b-a100/runs/vllm/run.yaml:3
vllm/serve/)
	exec sh -c 'vllm serve Qwen/Qwen3-32B'
	;;
# Workload random-128: dataset random (results/qwen3-32b-a100/study.yaml:34), input length 128 (results/qwen3-32b-a100/study.yaml:34), output length 4 (results/qwen3-32b-a100/study.yaml:34), unknown prompts, seed unknown
vllm/bench/random-128)
	echo 'the benchmark command of run vllm on workload random-128 is unknown: no file records it' >&2
	exit 1
	;;
# Workload random-2k: dataset random (results/qwen3-32b-a100/study.yaml:38), input length 2000 (results/qwen3-32b-a100/study.yaml:38), output length 100 (results/qwen3-32b-a100/study.yaml:38), unknown prompts, seed unknown
vllm/bench/random-2k)
	echo 'the benchmark command of run vllm on workload random-2k is unknown: no file records it' >&2
	exit 1
	;;
# Workload random-4k: dataset random (results/qwen3-32b-a100/study.yaml:42), input length 4000 (results/qwen3-32b-a100/study.yaml:42), output length 200 (results/qwen3-32b-a100/study.yaml:42), 500 (results/qwen3-32b-a100/study.yaml:42) prompts, seed 42 (results/qwen3-32b-a100/study.yaml:42)
vllm/bench/random-4k)
# benchmark command: results/qwen3-32b-a100/study.yaml:42
	exec sh -c 'vllm bench serve --model Qwen/Qwen3-32B --backend openai-chat --endpoint /v1/chat/completions --dataset-name random --random-input-len 4000 --random-output-len 200 --num-prompts 500 --seed 42'
	;;
# Workload random-32k: dataset random (results/qwen3-32b-a100/study.yaml:49), input length 32000 (results/qwen3-32b-a100/study.yaml:49), output length 100 (results/qwen3-32b-a100/study.yaml:49), unknown prompts, seed unknown
vllm/bench/random-32k)
	echo 'the benchmark command of run vllm on workload random-32k is unknown: no file records it' >&2
	exit 1
	;;

# Run vllm-awq (vLLM AWQ)
# Engine: vLLM (results/qwen3-32b-a100/study.yaml:8), version v0.11.0 (results/qwen3-32b-a100/study.yaml:8)
# Benchmark tool: vllm bench serve (results/qwen3-32b-a100/study.yaml:18), version unknown
# Model: Qwen/Qwen3-32B-AWQ (results/qwen3-32b-a100/runs/vllm-awq/run.yaml:3), revision unknown
# GPUs: 1 (results/qwen3-32b-a100/runs/vllm-awq/run.yaml:4) x NVIDIA A100 SXM 80GB (results/qwen3-32b-a100/study.yaml:3)
# serving command: results/qwen3-32b-a100/runs/vllm-awq/run.yaml:3
vllm-awq/serve/)
	exec sh -c 'vllm serve Qwen/Qwen3-32B-AWQ'
	;;
# Workload sharegpt: dataset sharegpt (results/qwen3-32b-a100/study.yaml:29), input length unknown, output length unknown, 1000 (results/qwen3-32b-a100/study.yaml:29) prompts, seed unknown
vllm-awq/bench/sharegpt)
# benchmark command: results/qwen3-32b-a100/study.yaml:29
	exec sh -c 'vllm bench serve --model Qwen/Qwen3-32B --backend openai-chat --endpoint /v1/chat/completions --dataset-name sharegpt --dataset-path ShareGPT_V3_unfiltered_cleaned_split.json --num-prompts 1000'
	;;

# Run vllm-fp8 (vLLM FP8)
# Engine: vLLM (results/qwen3-32b-a100/study.yaml:8), version v0.11.0 (results/qwen3-32b-a100/study.yaml:8)
# Benchmark tool: vllm bench serve (results/qwen3-32b-a100/study.yaml:18), version unknown
# Model: Qwen/Qwen3-32B-FP8 (results/qwen3-32b-a100/runs/vllm-fp8/run.yaml:3), revision unknown
# GPUs: 1 (results/qwen3-32b-a100/runs/vllm-fp8/run.yaml:4) x NVIDIA A100 SXM 80GB (results/qwen3-32b-a100/study.yaml:3)
# serving command: results/qwen3-32b-a100/runs/vllm-fp8/run.yaml:3
vllm-fp8/serve/)
	exec sh -c 'vllm serve Qwen/Qwen3-32B-FP8'
	;;
# Workload sharegpt: dataset sharegpt (results/qwen3-32b-a100/study.yaml:29), input length unknown, output length unknown, 1000 (results/qwen3-32b-a100/study.yaml:29) prompts, seed unknown
vllm-fp8/bench/sharegpt)
# benchmark command: results/qwen3-32b-a100/study.yaml:29
	exec sh -c 'vllm bench serve --model Qwen/Qwen3-32B --backend openai-chat --endpoint /v1/chat/completions --dataset-name sharegpt --dataset-path ShareGPT_V3_unfiltered_cleaned_split.json --num-prompts 1000'
	;;

# Run vllm-max-model-len (vLLM)
# Engine: vLLM (results/qwen3-32b-a100/study.yaml:8), version v0.11.0 (results/qwen3-32b-a100/study.yaml:8)
# Benchmark tool: vllm bench serve (results/qwen3-32b-a100/study.yaml:18), version unknown
# Model: Qwen/Qwen3-32B (results/qwen3-32b-a100/runs/vllm-max-model-len/run.yaml:3), revision unknown
# GPUs: 1 (results/qwen3-32b-a100/runs/vllm-max-model-len/run.yaml:4) x NVIDIA A100 SXM 80GB (results/qwen3-32b-a100/study.yaml:3)
# serving command: results/qwen3-32b-a100/runs/vllm-max-model-len/run.yaml:3
vllm-max-model-len/serve/)
	exec sh -c 'vllm serve Qwen/Qwen3-32B --max-model-len 32768'
	;;
# Workload sharegpt: dataset sharegpt (results/qwen3-32b-a100/study.yaml:29), input length unknown, output length unknown, 1000 (results/qwen3-32b-a100/study.yaml:29) prompts, seed unknown
vllm-max-model-len/bench/sharegpt)
# benchmark command: results/qwen3-32b-a100/study.yaml:29
	exec sh -c 'vllm bench serve --model Qwen/Qwen3-32B --backend openai-chat --endpoint /v1/chat/completions --dataset-name sharegpt --dataset-path ShareGPT_V3_unfiltered_cleaned_split.json --num-prompts 1000'
	;;

'//')
	printf '%s\n' 'runs and their workloads:' '  sglang: sharegpt' '  trtllm: sharegpt' '  trtllm-chunked-prefill: random-128 random-2k random-4k random-32k' '  trtllm-mnt16384: sharegpt' '  trtllm-mnt32768: sharegpt' '  vllm: random-128 random-2k random-4k random-32k' '  vllm-awq: sharegpt' '  vllm-fp8: sharegpt' '  vllm-max-model-len: sharegpt'
	;;
*)
	echo "no such run, step or workload: $*; sh reproduce.sh lists them" >&2
	exit 2
	;;
esac
