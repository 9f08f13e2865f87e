package benchlog

// Tools give the same names to different measurements (docs/metrics.md,
// "Definitions by tool"): guidellm's time per output token counts the
// first token, vLLM's does not; vLLM's ITL is every gap between streamed
// chunks, guidellm's is a per-request mean. A Family groups the outputs
// whose figures follow one set of definitions, read from each tool's code;
// two blocks of different families compare a figure only where both
// define it alike.

// Family names the definitions a block's figures follow; "" when perflab
// has not compared them with the others (no warning is then given).
type Family string

const (
	FamilyVLLM     Family = "vllm"     // vLLM bench serve and its copies in SGLang and TensorRT-LLM
	FamilyNVIDIA   Family = "nvidia"   // GenAI-Perf and AIPerf
	FamilyGuideLLM Family = "guidellm" // guidellm
	FamilyMLPerf   Family = "mlperf"   // MLPerf Endpoints
)

// Definitions is how a family defines the figures that share names across
// tools; "" for a figure it does not give.
type Definitions struct {
	TPOT   string // time per output token
	ITL    string // inter-token latency
	Window string // the time its throughputs divide by
}

// familyDefinitions are short descriptions, compared for equality and
// shown in check messages.
var familyDefinitions = map[Family]Definitions{
	FamilyVLLM: {TPOT: "(E2EL - TTFT) / (output tokens - 1), mean over requests",
		ITL:    "every gap between streamed chunks, over all requests",
		Window: "first request sent to last response"},
	FamilyNVIDIA: {TPOT: "(E2EL - TTFT) / (output tokens - 1), mean over requests",
		Window: "first request sent to last response"},
	FamilyGuideLLM: {TPOT: "(last token - request start) / output tokens, first token included, token-weighted",
		ITL:    "(last token - first token) / (output tokens - 1), token-weighted",
		Window: "mean of a rate over the run's token timings"},
	FamilyMLPerf: {TPOT: "(completion - first chunk) / tokens after the first chunk, mean over requests",
		Window: "first request sent to last response, or LoadGen's window"},
}

// familyOf maps the formats whose definitions perflab has read.
var familyOf = map[Format]Family{
	FormatVLLM: FamilyVLLM, FormatVLLMHeaderless: FamilyVLLM, FormatVLLMPlain: FamilyVLLM, FormatVLLMJSON: FamilyVLLM,
	FormatVLLMOmni: FamilyVLLM, FormatSGLang: FamilyVLLM, FormatSGLangJSONL: FamilyVLLM,
	FormatTRTLLMServe: FamilyVLLM, FormatTRTLLMJSON: FamilyVLLM,
	FormatGenAIPerf: FamilyNVIDIA, FormatGenAIPerfCSV: FamilyNVIDIA, FormatAIPerf: FamilyNVIDIA,
	FormatAIPerfCSV: FamilyNVIDIA, FormatAIPerfJSON: FamilyNVIDIA, FormatAIPerfAggregate: FamilyNVIDIA,
	FormatGuideLLMConsole: FamilyGuideLLM, FormatGuideLLMJSON: FamilyGuideLLM, FormatGuideLLMYAML: FamilyGuideLLM,
	FormatMLPerfEndpoints: FamilyMLPerf,
}

// FamilyOf returns the family of a block's definitions, and them.
func FamilyOf(b *Block) (Family, Definitions) {
	f := familyOf[b.Format]
	return f, familyDefinitions[f]
}
