package downloads

import "encoding/json"

// The parts of a Benchmark Report perflab writes. Below the top level,
// each type lists its members in the order of their keys, as the reports
// have always been written.

// benchReportDoc is a Benchmark Report with its members in the schema's
// order.
type benchReportDoc struct {
	Version  string      `json:"version"`
	Run      brRunDoc    `json:"run"`
	Scenario *brScenario `json:"scenario,omitempty"`
	Results  brResults   `json:"results"`
}

type brRunDoc struct {
	Description string  `json:"description"`
	EID         string  `json:"eid"`
	Time        *brTime `json:"time,omitempty"`
	UID         string  `json:"uid"`
}

type brTime struct {
	Duration string `json:"duration"`
}

type brScenario struct {
	Load *brLoadDoc `json:"load"`
}

// brLoadDoc is scenario.load; native is {} without a command.
type brLoadDoc struct {
	Metadata     brDescription  `json:"metadata"`
	Native       brNative       `json:"native"`
	Standardized brStandardized `json:"standardized"`
}

type brDescription struct {
	Description string `json:"description"`
}

type brNative struct {
	Args *brArgs `json:"args,omitempty"`
}

type brArgs struct {
	Command string `json:"command"`
}

type brStandardized struct {
	Concurrency  *int64   `json:"concurrency,omitempty"`
	InputSeqLen  *brSeq   `json:"input_seq_len"`
	OutputSeqLen *brSeq   `json:"output_seq_len,omitempty"`
	RateQPS      *float64 `json:"rate_qps,omitempty"`
	Source       string   `json:"source"`
	Tool         string   `json:"tool"`
	ToolVersion  string   `json:"tool_version"`
}

// brSeq is a sequence length, always of distribution "other".
type brSeq struct {
	Distribution string  `json:"distribution"`
	Value        float64 `json:"value"`
}

type brResults struct {
	Observability      brObservability `json:"observability"`
	RequestPerformance *brPerformance  `json:"request_performance,omitempty"`
}

type brObservability struct {
	Metadata brMeta `json:"metadata"`
}

type brPerformance struct {
	Aggregate *brAggregateDoc `json:"aggregate"`
}

type brAggregateDoc struct {
	Latency    *brLatency     `json:"latency,omitempty"`
	Requests   *brRequestsDoc `json:"requests,omitempty"`
	Throughput *brThroughput  `json:"throughput,omitempty"`
}

type brLatency struct {
	InterTokenLatency  *brStat `json:"inter_token_latency,omitempty"`
	RequestLatency     *brStat `json:"request_latency,omitempty"`
	TimePerOutputToken *brStat `json:"time_per_output_token,omitempty"`
	TimeToFirstToken   *brStat `json:"time_to_first_token,omitempty"`
}

type brThroughput struct {
	InputTokenRate  *brStat `json:"input_token_rate,omitempty"`
	OutputTokenRate *brStat `json:"output_token_rate,omitempty"`
	RequestRate     *brStat `json:"request_rate,omitempty"`
	TotalTokenRate  *brStat `json:"total_token_rate,omitempty"`
}

type brRequestsDoc struct {
	Failures     *int64  `json:"failures,omitempty"`
	InputLength  *brStat `json:"input_length,omitempty"`
	OutputLength *brStat `json:"output_length,omitempty"`
	Total        int64   `json:"total"`
}

// brMeta is perflab's part of a report, under
// results.observability.metadata.
type brMeta struct {
	Checks        []brCheckEntry        `json:"checks"`
	Claims        []brClaim             `json:"claims"`
	Command       string                `json:"command"`
	Definition    string                `json:"definition"`
	Definitions   map[string]string     `json:"definitions,omitempty"`
	Engine        string                `json:"engine"`
	EngineVersion *string               `json:"engine_version,omitempty"`
	ExcludedBy    string                `json:"excluded_by,omitempty"`
	Format        string                `json:"format"`
	Generator     string                `json:"generator"`
	GPU           string                `json:"gpu"`
	GPUs          int                   `json:"gpus"`
	Intervals     map[string]brInterval `json:"intervals,omitempty"`
	Load          *brLoadPoint          `json:"load,omitempty"`
	Metrics       map[string]brFigure   `json:"metrics"`
	Model         string                `json:"model"`
	Repeat        int                   `json:"repeat,omitempty"`
	Run           string                `json:"run"`
	RunName       string                `json:"run_name"`
	Source        brSource              `json:"source"`
	Study         string                `json:"study"`
	Tool          string                `json:"tool"`
	ToolVersion   string                `json:"tool_version"`
	Workload      string                `json:"workload"`
}

type brSource struct {
	EndLine int    `json:"end_line"`
	File    string `json:"file"`
	Line    int    `json:"line"`
}

// brLoadPoint is the load of a sweep's log.
type brLoadPoint struct {
	Key   string      `json:"key"`
	Value json.Number `json:"value"`
}

// brInterval is a 95 % interval of a block: perflab's, over the run's
// repeats (mean and half width), or the tool's own (low and high, at a
// line of the log).
type brInterval struct {
	By        string       `json:"by"`
	HalfWidth *json.Number `json:"half_width,omitempty"`
	High      *float64     `json:"high,omitempty"`
	Level     float64      `json:"level"`
	Line      *int         `json:"line,omitempty"`
	Low       *float64     `json:"low,omitempty"`
	Mean      *json.Number `json:"mean,omitempty"`
	Repeats   int          `json:"repeats"`
}
