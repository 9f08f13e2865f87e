package check

import (
	"os"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/study"
)

// Places in the repository's prose where a sentence can be added, by
// study, section and language: the end of a paragraph.
var proseAnchors = map[string]map[string]string{
	"qwen3-235b-a22b-a100/engine": {
		"en": "which SGLang does not offer on the A100.",
		"zh": "而 SGLang 在 A100 上无法运行 FP8 模型。",
		"ja": "SGLang は A100 上で FP8 モデルを実行できないためです。",
	},
	"qwen3-235b-a22b-a100/parallelism": {
		"en": "so its throughput is counted once per replica that fits.",
		"zh": "因此其吞吐量按整机可容纳的副本数累计。",
		"ja": "合算して評価します。",
	},
	"qwen3-32b-a100/engine": {
		"en": "The fastest engine becomes the starting point for the following steps.",
		"zh": "最快的引擎作为后续步骤的起点。",
		"ja": "最も速かったエンジンを以降のステップの出発点とします。",
	},
	"qwen3-235b-a22b-a100/quantization": {
		"en": "so expert parallelism is enabled on top of it.",
		"zh": "所以需要在 TP8 的基础上同时开启专家并行。",
		"ja": "TP8 に加えてエキスパート並列を有効にしています。",
	},
	"qwen3-32b-a100/quantization": {
		"en": "so both were also run in vLLM for comparison.",
		"zh": "因此又在 vLLM 中运行了这两个版本作为对比。",
		"ja": "比較のために両方を vLLM でも実行しました。",
	},
	"qwen3-235b-a22b-a100/other-cases": {
		"en": "benchmarked on random prompts of different lengths.",
		"zh": "对基准配置和优化后的配置进行了测试。",
		"ja": "ランダムなプロンプトでもベンチマークしました。",
	},
	"qwen3-32b-a100/other-cases": {
		"en": "benchmarked on random prompts of different lengths.",
		"zh": "对基准配置和优化后的配置进行了测试。",
		"ja": "ランダムなプロンプトでもベンチマークしました。",
	},
	"example-qwen3-8b-l40s/quantization": {
		"en": "so the gain can be weighed against what it costs.",
		"zh": "便于权衡收益与代价。",
		"ja": "失うものを比べられます。",
	},
	"example-qwen3-8b-l40s/other-cases": {
		"en": "checks whether the FP8 gain holds when prefill dominates.",
		"zh": "FP8 带来的提升是否依然成立。",
		"ja": "FP8 の効果が続くかを確かめます。",
	},
}

// A proseKind is one kind of mistake made when writing about the numbers
// rather than copying them: sentences that state it wrongly, each in its
// language, and one correct sentence per language, which must pass.
type proseKind struct {
	kind, place string
	wrong       [][2]string // language, sentence
	right       map[string]string
	rule        string // the rule expected, RuleProseFact by default
}

// proseKinds are planted into the repository's studies; the figures are
// the seed logs' (a wrong sentence states what they do not give).
var proseKinds = []proseKind{
	{kind: "figure with thousands grouped, mistyped", place: "qwen3-32b-a100/engine",
		wrong: [][2]string{{"en", "TensorRT-LLM reaches 2,045.21 tok/s on ShareGPT."}, {"en", "SGLang reaches 1,389.38 tok/s."},
			{"zh", "TensorRT-LLM 的总吞吐量为 2,045.21 tok/s。"}, {"ja", "TensorRT-LLM の合計スループットは 2,045.21 tok/s です。"}},
		right: map[string]string{"en": "TensorRT-LLM reaches 2,054.21 tok/s on ShareGPT.", "zh": "TensorRT-LLM 的总吞吐量为 2,054.21 tok/s。", "ja": "TensorRT-LLM の合計スループットは 2,054.21 tok/s です。"}},
	{kind: "latency in the wrong unit", place: "qwen3-32b-a100/engine",
		wrong: [][2]string{{"en", "vLLM's mean TPOT is 149.67 s."}, {"en", "SGLang's mean TTFT is 139,199.11 s."},
			{"zh", "vLLM 的平均 TPOT 为 149.67 s。"}, {"zh", "vLLM 的平均 TPOT 为 149.67 秒。"}, {"ja", "vLLM の平均 TPOT は 149.67 s です。"}},
		right: map[string]string{"en": "vLLM's mean TPOT is 149.67 ms, and its mean TTFT 105.56 s.", "zh": "vLLM 的平均 TPOT 为 149.67 ms，平均 TTFT 为 105.56 s。", "ja": "vLLM の平均 TPOT は 149.67 ms、平均 TTFT は 105.56 s です。"}},
	{kind: "full-width digits", place: "qwen3-32b-a100/engine",
		wrong: [][2]string{{"ja", "TensorRT-LLM の合計スループットは ２０４５．２１ tok/s です。"}, {"zh", "TensorRT-LLM 的总吞吐量为 ２０４５．２１ tok/s。"}},
		right: map[string]string{"en": "TensorRT-LLM reaches 2054.21 tok/s.", "zh": "TensorRT-LLM 的总吞吐量为 ２０５４．２１ tok/s。", "ja": "TensorRT-LLM の合計スループットは ２０５４．２１ tok/s です。"}},
	{kind: "full-width percentage", place: "qwen3-32b-a100/other-cases", rule: RuleProseFigure,
		wrong: [][2]string{{"ja", "ShareGPT では合計スループットが １８．１％ 向上しました。"}, {"zh", "在 ShareGPT 上，总吞吐量提升 １８．１％。"}},
		right: map[string]string{"en": "On ShareGPT the total token throughput rises by 18.7 %.", "zh": "在 ShareGPT 上，总吞吐量提升 １８．７％。", "ja": "ShareGPT では合計スループットが １８．７％ 向上しました。"}},
	{kind: "figure with a magnitude", place: "qwen3-235b-a22b-a100/engine",
		wrong: [][2]string{{"zh", "SGLang 的总吞吐量为 0.47 万 tok/s。"}, {"ja", "SGLang の合計スループットは 0.49 万 tok/s です。"}, {"en", "SGLang reaches 4.9k tok/s."}},
		right: map[string]string{"en": "SGLang reaches about 4.6k tok/s.", "zh": "SGLang 的总吞吐量约为 0.46 万 tok/s。", "ja": "SGLang の合計スループットは約 0.46 万 tok/s です。"}},
	{kind: "factor in words or figures", place: "qwen3-235b-a22b-a100/parallelism",
		wrong: [][2]string{{"en", "Running TP4 as two replicas doubles the total token throughput of the node."}, {"en", "The total token throughput rises 1.95x over the reference."},
			{"zh", "总吞吐量翻倍。"}, {"zh", "总吞吐量提升到 2.5 倍。"}, {"ja", "合計スループットは 2 倍になります。"}},
		right: map[string]string{"en": "The total token throughput rises 1.59x over the reference.", "zh": "总吞吐量提升到 1.59 倍。", "ja": "合計スループットは 1.59 倍になります。"}},
	{kind: "factor of a gain", place: "example-qwen3-8b-l40s/quantization",
		wrong: [][2]string{{"en", "FP8 raises the total token throughput by 1.72x."}, {"zh", "FP8 让总吞吐量提升到 1.72 倍。"}, {"ja", "FP8 で合計スループットが 3 倍になります。"}, {"en", "FP8 triples the total token throughput."}},
		right: map[string]string{"en": "FP8 raises the total token throughput by 1.27x.", "zh": "FP8 让总吞吐量提升到 1.27 倍。", "ja": "FP8 で合計スループットが 1.27 倍になります。"}},
	{kind: "superlative", place: "qwen3-235b-a22b-a100/engine",
		wrong: [][2]string{{"en", "vLLM delivers the highest total token throughput."}, {"en", "vLLM has the lowest mean TTFT."},
			{"zh", "vLLM 的总吞吐量最高。"}, {"zh", "vLLM 的平均 TTFT 最低。"}, {"ja", "vLLM の合計スループットが最も高いです。"}, {"ja", "vLLM の TTFT が最も短いです。"}},
		right: map[string]string{"en": "SGLang delivers the highest total token throughput.", "zh": "SGLang 的总吞吐量最高。", "ja": "SGLang の合計スループットが最も高いです。"}},
	{kind: "fastest engine", place: "qwen3-32b-a100/engine",
		wrong: [][2]string{{"en", "SGLang is the fastest engine here."}, {"zh", "SGLang 是最快的引擎。"}, {"ja", "SGLang が最も速いエンジンです。"}},
		right: map[string]string{"en": "TensorRT-LLM is the fastest engine here.", "zh": "TensorRT-LLM 是最快的引擎。", "ja": "TensorRT-LLM が最も速いエンジンです。"}},
	{kind: "ordered list of engines", place: "qwen3-32b-a100/engine",
		wrong: [][2]string{{"en", "By total token throughput: vLLM > TensorRT-LLM > SGLang."}, {"zh", "按总吞吐量排序：SGLang > vLLM > TensorRT-LLM。"}, {"ja", "合計スループットの順は TensorRT-LLM > SGLang > vLLM です。"}},
		right: map[string]string{"en": "By total token throughput: TensorRT-LLM > vLLM > SGLang.", "zh": "按总吞吐量排序：TensorRT-LLM > vLLM > SGLang。", "ja": "合計スループットの順は TensorRT-LLM > vLLM > SGLang です。"}},
	{kind: "ordered list of runs", place: "example-qwen3-8b-l40s/quantization",
		wrong: [][2]string{{"en", "In throughput, vLLM BF16 > vLLM FP8."}, {"zh", "吞吐量上 vLLM BF16 > vLLM FP8。"}, {"ja", "スループットは vLLM BF16 > vLLM FP8 です。"}},
		right: map[string]string{"en": "In throughput, vLLM FP8 > vLLM BF16.", "zh": "吞吐量上 vLLM FP8 > vLLM BF16。", "ja": "スループットは vLLM FP8 > vLLM BF16 です。"}},
	{kind: "parallel size of the section's runs", place: "qwen3-235b-a22b-a100/parallelism",
		wrong: [][2]string{{"en", "This step runs TP8 on half of the node."}, {"en", "The expert-parallel run uses TP4 EP8."}, {"en", "Both runs use a tensor parallel size of 8."},
			{"zh", "这一步在半个节点上运行 TP8。"}, {"zh", "两次运行的张量并行度为 8。"}, {"ja", "このステップではノードの半分で TP8 を使います。"}},
		right: map[string]string{"en": "This step runs TP4 on half of the node.", "zh": "这一步在半个节点上运行 TP4。", "ja": "このステップではノードの半分で TP4 を使います。"}},
	{kind: "engine version", place: "qwen3-235b-a22b-a100/engine",
		wrong: [][2]string{{"en", "SGLang v0.5.4 serves the model."}, {"en", "vLLM 0.10.1 serves the model."}, {"zh", "SGLang 的版本为 v0.5.4。"}, {"ja", "SGLang のバージョンは v0.5.4 です。"}},
		right: map[string]string{"en": "SGLang v0.5.5.post1 serves the model.", "zh": "SGLang 的版本为 v0.5.5.post1。", "ja": "SGLang のバージョンは v0.5.5.post1 です。"}},
	{kind: "GPU model", place: "qwen3-235b-a22b-a100/engine",
		wrong: [][2]string{{"en", "Both engines ran on the H100."}, {"zh", "两个引擎都在 H100 上运行。"}, {"ja", "どちらのエンジンも H100 で動かしました。"}},
		right: map[string]string{"en": "Both engines ran on the A100.", "zh": "两个引擎都在 A100 上运行。", "ja": "どちらのエンジンも A100 で動かしました。"}},
	{kind: "GPU count", place: "qwen3-235b-a22b-a100/parallelism",
		wrong: [][2]string{{"en", "Each replica uses 2 GPUs."}, {"zh", "每个副本使用 2 块 GPU。"}, {"ja", "各レプリカは GPU 2 基を使います。"}},
		right: map[string]string{"en": "Each replica uses 4 GPUs.", "zh": "每个副本使用 4 块 GPU。", "ja": "各レプリカは GPU 4 基を使います。"}},
	{kind: "prompt count", place: "qwen3-32b-a100/other-cases",
		wrong: [][2]string{{"en", "ShareGPT sends 2000 prompts."}, {"zh", "ShareGPT 负载发送 2000 条请求。"}, {"ja", "ShareGPT では 2000 件のリクエストを送ります。"}},
		right: map[string]string{"en": "ShareGPT sends 1000 prompts.", "zh": "ShareGPT 负载发送 1000 条请求。", "ja": "ShareGPT では 1000 件のリクエストを送ります。"}},
	{kind: "input length", place: "qwen3-32b-a100/other-cases",
		wrong: [][2]string{{"en", "The longest random prompts have 8000 input tokens."}, {"zh", "随机提示的输入长度为 8000。"}, {"ja", "ランダムなプロンプトの入力長は 8000 です。"}},
		right: map[string]string{"en": "The long prompts have 4000 input tokens.", "zh": "长提示的输入长度为 4000。", "ja": "長いプロンプトの入力長は 4000 です。"}},
	{kind: "concurrency", place: "example-qwen3-8b-l40s/other-cases",
		wrong: [][2]string{{"en", "The long workload runs at a concurrency of 32."}, {"zh", "长提示负载的并发数为 32。"}, {"ja", "長いプロンプトのワークロードは同時実行数 32 で動かします。"}},
		right: map[string]string{"en": "The long workload runs at a concurrency of 16.", "zh": "长提示负载的并发数为 16。", "ja": "長いプロンプトのワークロードは同時実行数 16 で動かします。"}},
	{kind: "comparative between runs", place: "example-qwen3-8b-l40s/quantization",
		wrong: [][2]string{{"en", "vLLM BF16 is faster than vLLM FP8."}, {"en", "vLLM FP8 has a higher mean TTFT than vLLM BF16."},
			{"zh", "vLLM BF16 比 vLLM FP8 快。"}, {"ja", "vLLM BF16 は vLLM FP8 より速いです。"}, {"ja", "vLLM BF16 の TTFT は vLLM FP8 より短いです。"}},
		right: map[string]string{"en": "vLLM FP8 is faster than vLLM BF16, and its mean TTFT is lower.", "zh": "vLLM FP8 比 vLLM BF16 快，平均 TTFT 也更低。", "ja": "vLLM FP8 は vLLM BF16 より速く、平均 TTFT も短いです。"}},
	{kind: "ordered list with figures", place: "qwen3-32b-a100/engine",
		wrong: [][2]string{{"en", "SGLang (1,398.38 tok/s) > vLLM (1,730.98 tok/s)."}, {"zh", "SGLang（1,398.38 tok/s）> vLLM（1,730.98 tok/s）。"}},
		right: map[string]string{"en": "TensorRT-LLM (2,054.21 tok/s) > vLLM (1,730.98 tok/s) > SGLang (1,398.38 tok/s).", "zh": "TensorRT-LLM（2,054.21 tok/s）> vLLM（1,730.98 tok/s）> SGLang（1,398.38 tok/s）。", "ja": "TensorRT-LLM（2,054.21 tok/s）> vLLM（1,730.98 tok/s）> SGLang（1,398.38 tok/s）です。"}},
	{kind: "duration in the wrong unit", place: "qwen3-32b-a100/engine",
		wrong: [][2]string{{"en", "The SGLang benchmark took 299.51 ms."}, {"zh", "SGLang 的测试耗时 299.51 毫秒。"}},
		right: map[string]string{"en": "The SGLang benchmark took 299.51 s and sent 217,393 input tokens.", "zh": "SGLang 的测试耗时 299.51 s，共发送 217,393 input tokens。", "ja": "SGLang のベンチマークは 299.51 s かかり、217,393 input tokens を送りました。"}},
	{kind: "prompt count of the workload named", place: "qwen3-32b-a100/other-cases",
		wrong: [][2]string{{"en", "ShareGPT sends 500 prompts."}, {"ja", "ShareGPT では 500 件のリクエストを送ります。"}},
		right: map[string]string{"en": "ShareGPT sends 1,000 prompts, the long prompts 500.", "zh": "ShareGPT 负载发送 1000 条请求，长提示 500 条。", "ja": "ShareGPT では 1000 件、長いプロンプトでは 500 件のリクエストを送ります。"}},
	{kind: "GPUs written with their model", place: "qwen3-235b-a22b-a100/engine",
		wrong: [][2]string{{"en", "Both engines run on 4 × A100."}, {"zh", "两个引擎都运行在 4 × A100 上。"}},
		right: map[string]string{"en": "Both engines run on 8 × A100.", "zh": "两个引擎都运行在 8 × A100 上。", "ja": "どちらのエンジンも 8 × A100 で動かします。"}},
	{kind: "superlative among a step's own runs", place: "qwen3-32b-a100/quantization",
		wrong: [][2]string{{"en", "vLLM FP8 is the fastest of the quantized runs."}, {"zh", "vLLM FP8 是量化运行中最快的。"}, {"ja", "量子化した実行では vLLM FP8 が最も速いです。"}},
		right: map[string]string{"en": "vLLM AWQ is the fastest of the quantized runs.", "zh": "vLLM AWQ 是量化运行中最快的。", "ja": "量子化した実行では vLLM AWQ が最も速いです。"}},
	{kind: "factor between two engines", place: "qwen3-235b-a22b-a100/engine",
		wrong: [][2]string{{"en", "SGLang is 1.32x as fast as vLLM."}, {"zh", "SGLang 的吞吐量是 vLLM 的 1.32 倍。"}, {"ja", "SGLang のスループットは vLLM の 1.32 倍です。"}},
		right: map[string]string{"en": "SGLang is 1.22x as fast as vLLM.", "zh": "SGLang 的吞吐量是 vLLM 的 1.22 倍。", "ja": "SGLang のスループットは vLLM の 1.22 倍です。"}},
	{kind: "seconds written as ms", place: "qwen3-235b-a22b-a100/engine",
		wrong: [][2]string{{"en", "vLLM's mean TTFT is 38.07 ms."}, {"zh", "vLLM 的平均 TTFT 为 38.07 ms。"}, {"ja", "vLLM の平均 TTFT は 38.07 ミリ秒です。"}},
		right: map[string]string{"en": "vLLM's mean TTFT is 38.07 s.", "zh": "vLLM 的平均 TTFT 为 38.07 s。", "ja": "vLLM の平均 TTFT は 38.07 秒です。"}},
	{kind: "shortest latency", place: "qwen3-235b-a22b-a100/engine",
		wrong: [][2]string{{"en", "vLLM has the shortest time to first token."}, {"zh", "vLLM 的首 token 时间最短。"}, {"ja", "最初のトークンまでの時間は vLLM が最も短いです。"}},
		right: map[string]string{"en": "SGLang has the shortest time to first token.", "zh": "SGLang 的首 token 时间最短。", "ja": "最初のトークンまでの時間は SGLang が最も短いです。"}},
	{kind: "engines ordered outside a step", place: "qwen3-235b-a22b-a100/other-cases",
		wrong: [][2]string{{"en", "With default settings, vLLM (3,792.50 tok/s) > SGLang (4,635.31 tok/s)."}, {"zh", "默认配置下 vLLM > SGLang。"}, {"ja", "既定の設定では vLLM > SGLang です。"}},
		right: map[string]string{"en": "With default settings, SGLang (4,635.31 tok/s) > vLLM (3,792.50 tok/s).", "zh": "默认配置下 SGLang（4,635.31 tok/s）> vLLM（3,792.50 tok/s）。", "ja": "既定の設定では SGLang（4,635.31 tok/s）> vLLM（3,792.50 tok/s）です。"}},
	{kind: "factor in other words", place: "qwen3-235b-a22b-a100/engine",
		wrong: [][2]string{{"zh", "SGLang 的吞吐量是 vLLM 的两倍。"}, {"en", "SGLang's throughput is two times vLLM's."}, {"ja", "SGLang のスループットは vLLM の二倍です。"}},
		right: map[string]string{"en": "SGLang's throughput is 1.2 times vLLM's.", "zh": "SGLang 的吞吐量是 vLLM 的 1.2 倍。", "ja": "SGLang のスループットは vLLM の 1.2 倍です。"}},
	{kind: "superlative with words between", place: "qwen3-235b-a22b-a100/engine",
		wrong: [][2]string{{"ja", "最もスループットが高いのは vLLM です。"}, {"zh", "吞吐量最高的是 vLLM。"}, {"en", "The highest total token throughput is vLLM's."}},
		right: map[string]string{"en": "The highest total token throughput is SGLang's.", "zh": "吞吐量最高的是 SGLang。", "ja": "最もスループットが高いのは SGLang です。"}},
	{kind: "workload settings in other words", place: "qwen3-32b-a100/other-cases",
		wrong: [][2]string{{"ja", "プロンプト数は 2000 です。"}, {"en", "The benchmark sends 2,000 ShareGPT prompts."}, {"en", "The long workload uses prompts of 8000 tokens."}},
		right: map[string]string{"en": "The benchmark sends 1,000 ShareGPT prompts and 500 random prompts of 4000 tokens.", "zh": "测试发送 1000 条 ShareGPT 请求，以及 500 条 4000 token 的随机提示。", "ja": "ベンチマークは ShareGPT のリクエストを 1000 件、4000 トークンのランダムなプロンプトを 500 件送ります。"}},
	{kind: "concurrency written as a flag", place: "example-qwen3-8b-l40s/other-cases",
		wrong: [][2]string{{"en", "The long workload runs with concurrency=32."}},
		right: map[string]string{"en": "The long workload runs with concurrency=16.", "zh": "长提示负载的并发数为 16。", "ja": "長いプロンプトのワークロードは同時実行数 16 で動かします。"}},
	// Right only: statements a contributor writes that hold.
	{kind: "sizes and GPUs of the step", place: "qwen3-235b-a22b-a100/parallelism",
		right: map[string]string{"en": "The model fits on half of the node, so each replica uses 4 GPUs with TP4, or TP4 EP4.", "zh": "模型只需半个节点，每个副本使用 4 块 GPU，TP4 或 TP4 EP4。", "ja": "モデルはノードの半分に収まり、各レプリカは GPU 4 基を TP4、または TP4 EP4 で使います。"}},
	{kind: "expert parallel of the step", place: "qwen3-235b-a22b-a100/quantization",
		right: map[string]string{"en": "The run uses TP8 with EP8.", "zh": "该运行使用 TP8 与 EP8。", "ja": "この実行は TP8 と EP8 を使います。"}},
	{kind: "factor between two named engines", place: "qwen3-32b-a100/engine",
		right: map[string]string{"en": "TensorRT-LLM is 1.19x as fast as vLLM.", "zh": "TensorRT-LLM 的速度是 vLLM 的 1.19 倍。", "ja": "TensorRT-LLM は vLLM の 1.19 倍の速さです。"}},
	{kind: "latencies in seconds", place: "qwen3-235b-a22b-a100/engine",
		right: map[string]string{"en": "SGLang's mean TTFT, 21.13 s, is lower than vLLM's 38.07 s.", "zh": "SGLang 的平均 TTFT 为 21.13 s，低于 vLLM 的 38.07 s。", "ja": "SGLang の平均 TTFT は 21.13 s で、vLLM の 38.07 s より短いです。"}},
	{kind: "settings of a workload", place: "qwen3-32b-a100/other-cases",
		right: map[string]string{"en": "The long prompts have 4000 input tokens and 200 output tokens.", "zh": "长提示的输入长度为 4000，输出长度为 200。", "ja": "長いプロンプトの入力長は 4000、出力長は 200 です。"}},
	{kind: "prompts and concurrency of a workload", place: "example-qwen3-8b-l40s/other-cases",
		right: map[string]string{"en": "The long workload sends 200 prompts at a concurrency of 16.", "zh": "长提示负载发送 200 条请求，并发数为 16。", "ja": "長いプロンプトのワークロードは 200 件のリクエストを同時実行数 16 で送ります。"}},
	{kind: "a version of the engine's history", place: "example-qwen3-8b-l40s/quantization",
		right: map[string]string{"en": "The history also shows vLLM v0.10.1.", "zh": "历史记录中还有 vLLM v0.10.1。", "ja": "履歴には vLLM v0.10.1 もあります。"}},
	{kind: "latency budget", place: "example-qwen3-8b-l40s/other-cases",
		right: map[string]string{"en": "Each run is held to a p99 TTFT budget of 3000 ms and a TPOT of 60 ms.", "zh": "每次运行都要满足 p99 TTFT 不超过 3000 ms、TPOT 不超过 60 ms 的预算。", "ja": "各実行は p99 TTFT 3000 ms、TPOT 60 ms の予算に収める必要があります。"}},
	{kind: "a size not run, as a hypothesis", place: "qwen3-235b-a22b-a100/parallelism",
		right: map[string]string{"en": "TP16 would need two nodes.", "zh": "如果使用 TP16，则需要两个节点。", "ja": "TP16 を使う場合は二つのノードが必要です。"}},
	{kind: "superlative within one engine", place: "qwen3-32b-a100/other-cases",
		right: map[string]string{"en": "The best vLLM configuration reaches 1,767.21 tok/s.", "zh": "vLLM 中最快的配置达到 1,767.21 tok/s。", "ja": "vLLM の中で最も速い構成は 1,767.21 tok/s です。"}},
	{kind: "part of the requests", place: "qwen3-32b-a100/other-cases",
		right: map[string]string{"en": "The first 100 requests warm the server up.", "zh": "前 100 个请求用于预热。", "ja": "最初の 100 件のリクエストはウォームアップです。"}},
	{kind: "a factor in words, about", place: "qwen3-235b-a22b-a100/engine",
		right: map[string]string{"en": "SGLang's mean TTFT is about half of vLLM's.", "zh": "SGLang 的平均 TTFT 约为 vLLM 的一半。", "ja": "SGLang の平均 TTFT は vLLM の約半分です。"}},
	{kind: "a projected figure", place: "qwen3-235b-a22b-a100/parallelism",
		right: map[string]string{"en": "Each replica serves 3,019.19 tok/s, 6,038.38 tok/s for the node.", "zh": "每个副本为 3,019.19 tok/s，整机为 6,038.38 tok/s。", "ja": "各レプリカは 3,019.19 tok/s、ノード全体では 6,038.38 tok/s です。"}},
	{kind: "first place in words", place: "qwen3-235b-a22b-a100/engine",
		right: map[string]string{"en": "SGLang comes first in this step.", "zh": "SGLang 在这一步排名第一。", "ja": "このステップでは SGLang がトップです。"}},
	{kind: "another GPU set against the study's", place: "qwen3-235b-a22b-a100/engine",
		right: map[string]string{"en": "Unlike the H100, the A100 has no FP8 units.", "zh": "与 H100 不同，A100 没有 FP8 计算单元。", "ja": "H100 とは異なり、A100 には FP8 の演算器がありません。"}},
}

// proseMutations turns the kinds into planted mistakes (one sentence
// each) and controls (the right sentence in every language at once).
func proseMutations(t *testing.T) (wrong []mutation, kinds []string, right []mutation) {
	for _, k := range proseKinds {
		id, _, _ := strings.Cut(k.place, "/")
		anchors := proseAnchors[k.place]
		if anchors == nil {
			t.Fatalf("%s: no anchors at %s", k.kind, k.place)
		}
		file := func(lang string) string { return "content/" + lang + "/" + id + ".md" }
		glue := func(lang string) string {
			if lang == "en" {
				return " "
			}
			return ""
		}
		rule := k.rule
		if rule == "" {
			rule = RuleProseFact
		}
		for _, w := range k.wrong {
			wrong = append(wrong, mutation{name: k.kind + " (" + w[0] + "): " + w[1], file: file(w[0]), old: anchors[w[0]],
				new: anchors[w[0]] + glue(w[0]) + w[1], rule: rule, at: w[1]})
			kinds = append(kinds, k.kind)
		}
		c := mutation{name: k.kind + " stated right", file: file("en"), old: anchors["en"], new: anchors["en"] + " " + k.right["en"]}
		for _, lang := range []string{"zh", "ja"} {
			c.also = append(c.also, mutation{file: file(lang), old: anchors[lang], new: anchors[lang] + k.right[lang]})
		}
		right = append(right, c)
	}
	return wrong, kinds, right
}

// TestProseFacts plants each wrong sentence into a copy of its study and
// expects an error on its line; the right sentences, in every language,
// must add no error. It logs the counts the docs give.
func TestProseFacts(t *testing.T) {
	wrong, kinds, right := proseMutations(t)
	caught := 0
	byKind := map[string][2]int{}
	for i, m := range wrong {
		got := checkCopy(t, m)
		want := wantAt(t, m)
		n := byKind[kinds[i]]
		n[1]++
		if got[want] {
			caught++
			n[0]++
		} else {
			t.Errorf("%s: no error %s; errors: %v", m.name, want, keys(got))
		}
		byKind[kinds[i]] = n
	}
	for _, k := range proseKinds {
		t.Logf("%-40s caught %d of %d", k.kind, byKind[k.kind][0], byKind[k.kind][1])
	}
	falseAlarms := 0
	base := map[string]map[string]bool{}
	for _, m := range right {
		id := studyOf(m.file)
		if base[id] == nil {
			base[id] = checkCopy(t, mutation{file: m.file})
		}
		for e := range checkCopy(t, m) {
			if !base[id][e] {
				falseAlarms++
				t.Errorf("control %q raised %s", m.name, e)
			}
		}
	}
	t.Logf("caught %d of %d planted mistakes; %d false alarms on %d controls (each in en, zh and ja)", caught, len(wrong), falseAlarms, len(right))
}

// newRules are the rules of the fact model and of the run evidence: each
// has its row and section in docs/checks.md and its message in every
// locale.
var newRules = []string{RuleProseFact, RuleRepeatCopy, RuleLogModel, RuleRunName}

func TestNewRulesDocumented(t *testing.T) {
	docs, err := os.ReadFile("../../docs/checks.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range newRules {
		if !strings.Contains(string(docs), "| [`"+id+"`](#"+id+") |") || !strings.Contains(string(docs), "\n### "+id+"\n") {
			t.Errorf("docs/checks.md lacks the row or the section of %s", id)
		}
		for _, lang := range study.Languages {
			data, err := os.ReadFile("../../locales/" + lang + ".yaml")
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(data), "\nrule."+id+": ") {
				t.Errorf("locales/%s.yaml has no rule.%s", lang, id)
			}
		}
	}
}

// runEvidence are mistakes in a run's logs and name, each with the error
// expected at its place.
var runEvidence = []mutation{
	{name: "chat repeat copied", file: "example-qwen3-8b-l40s/runs/sglang/chat.run-2.log", copyFrom: "example-qwen3-8b-l40s/runs/sglang/chat.run-1.log", rule: RuleRepeatCopy, at: "====="},
	{name: "last chat repeat copied", file: "example-qwen3-8b-l40s/runs/vllm/chat.run-3.log", copyFrom: "example-qwen3-8b-l40s/runs/vllm/chat.run-1.log", rule: RuleRepeatCopy, at: "====="},
	{name: "sweep repeat copied", file: "example-qwen3-8b-l40s/runs/sglang/sweep.c16.run-3.log", copyFrom: "example-qwen3-8b-l40s/runs/sglang/sweep.c16.run-2.log", rule: RuleRepeatCopy, at: "====="},
	{name: "repeat copied with a header", file: "example-qwen3-8b-l40s/runs/vllm-fp8/chat.run-2.log", copyFrom: "example-qwen3-8b-l40s/runs/vllm-fp8/chat.run-1.log",
		old: "=====", new: "# second repeat\n=====", rule: RuleRepeatCopy, at: "====="},
	{name: "echo of another model", file: "qwen3-32b-a100/runs/sglang/sharegpt.log", old: "=====",
		new: "Namespace(backend='sglang', model='Qwen/Qwen3-14B', dataset_name='sharegpt', num_prompts=1000)\n=====", rule: RuleLogModel, at: "Namespace("},
	{name: "echo of another size", file: "qwen3-235b-a22b-a100/runs/vllm-tp8/sharegpt.log", old: "=====",
		new: "Namespace(model='Qwen/Qwen3-30B-A3B-Instruct-2507', dataset_name='sharegpt', num_prompts=1000)\n=====", rule: RuleLogModel, at: "Namespace("},
	{name: "echo of another model, no organisation", file: "example-qwen3-8b-l40s/runs/vllm/long.log", old: "=====",
		new: "Namespace(model='Qwen3-14B', dataset_name='random', num_prompts=200)\n=====", rule: RuleLogModel, at: "Namespace("},
	{name: "SGLang run named vLLM BF16", file: "example-qwen3-8b-l40s/runs/sglang/run.yaml", old: "name: SGLang BF16", new: "name: vLLM BF16", rule: RuleRunName},
	{name: "SGLang run named vLLM", file: "qwen3-235b-a22b-a100/runs/sglang-tp8/run.yaml", old: "name: SGLang", new: "name: vLLM", rule: RuleRunName},
	{name: "vLLM run named TensorRT-LLM", file: "qwen3-32b-a100/runs/vllm-fp8/run.yaml", old: "name: vLLM FP8", new: "name: TensorRT-LLM FP8", rule: RuleRunName},
	{name: "two runs named TP4", file: "qwen3-235b-a22b-a100/runs/vllm-fp8-tp4-ep4/run.yaml", old: "name: TP4 EP4", new: "name: TP4", rule: RuleRunName},
	{name: "two runs named vLLM BF16", file: "example-qwen3-8b-l40s/runs/vllm-fp8/run.yaml", old: "name: vLLM FP8", new: "name: vLLM BF16", rule: RuleRunName},
}

// runEvidenceRight are edits of the same places that are no mistake.
var runEvidenceRight = []mutation{
	{name: "echo of the same model, quantised", file: "qwen3-32b-a100/runs/sglang/sharegpt.log", old: "=====",
		new: "Namespace(backend='sglang', model='Qwen/Qwen3-32B-FP8', dataset_name='sharegpt', num_prompts=1000)\n====="},
	{name: "echo of a served alias", file: "qwen3-32b-a100/runs/sglang/sharegpt.log", old: "=====",
		new: "Namespace(backend='sglang', model='default', dataset_name='sharegpt', num_prompts=1000)\n====="},
	{name: "run renamed", file: "example-qwen3-8b-l40s/runs/sglang/run.yaml", old: "name: SGLang BF16", new: "name: SGLang (BF16)"},
	{name: "run named without an engine", file: "qwen3-235b-a22b-a100/runs/sglang-tp8/run.yaml", old: "name: SGLang", new: "name: TP8 default"},
}

func TestRunEvidence(t *testing.T) {
	for _, m := range runEvidence {
		if got, want := checkCopy(t, m), wantAt(t, m); !got[want] {
			t.Errorf("%s: no error %s; errors: %v", m.name, want, keys(got))
		}
	}
	base := map[string]map[string]bool{}
	for _, m := range runEvidenceRight {
		id := studyOf(m.file)
		if base[id] == nil {
			base[id] = checkCopy(t, mutation{file: m.file})
		}
		for e := range checkCopy(t, m) {
			if !base[id][e] {
				t.Errorf("%q raised %s", m.name, e)
			}
		}
	}
}

// BenchmarkProseFacts times the reading of the repository's prose, in
// every language, against the studies' facts.
func BenchmarkProseFacts(b *testing.B) {
	studies, content := repositoryStudies(b)
	results := assessAll(studies)
	b.ResetTimer()
	for range b.N {
		for _, res := range results {
			for _, lang := range study.Languages {
				c := content[lang][res.Study.ID]
				for _, name := range sortedSections(c) {
					proseFacts(res.Study.ID, "f", name, c.Sections[name], c, res.Figures.Facts)
				}
			}
		}
	}
}

// TestProseAgainstChangedFacts: prose that was right goes wrong when the
// fact it states changes; the error is on the prose.
func TestProseAgainstChangedFacts(t *testing.T) {
	for _, m := range []mutation{
		{name: "hardware.gpu now H100", file: "qwen3-235b-a22b-a100/study.yaml", old: "gpu: NVIDIA A100 SXM 80GB", new: "gpu: NVIDIA H100 SXM 80GB",
			rule: RuleProseFact, atFile: "content/en/qwen3-235b-a22b-a100.md", at: "which SGLang does not offer on the A100."},
		{name: "hardware.gpu now H100, zh", file: "qwen3-235b-a22b-a100/study.yaml", old: "gpu: NVIDIA A100 SXM 80GB", new: "gpu: NVIDIA H100 SXM 80GB",
			rule: RuleProseFact, atFile: "content/zh/qwen3-235b-a22b-a100.md", at: "A100 没有原生的"},
		{name: "hardware.gpu now H200, ja", file: "qwen3-32b-a100/study.yaml", old: "gpu: NVIDIA A100 SXM 80GB", new: "gpu: NVIDIA H200",
			rule: RuleProseFact, atFile: "content/ja/qwen3-32b-a100.md", at: "A100 上では起動できなかった"},
	} {
		if got, want := checkCopy(t, m), wantAt(t, m); !got[want] {
			t.Errorf("%s: no error %s; errors: %v", m.name, want, keys(got))
		}
	}
}
