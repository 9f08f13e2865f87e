package benchlog

import (
	"encoding/json"
	"strconv"
)

// blockJSON is the JSON shape of a Block (perflab parse).
type blockJSON struct {
	File        string                 `json:"file"`
	Line        int                    `json:"line"`
	Format      Format                 `json:"format"`
	Tool        string                 `json:"tool,omitempty"`
	Version     string                 `json:"version,omitempty"`
	Definition  Definition             `json:"definition,omitempty"`
	Definitions map[string]Definition  `json:"definitions,omitempty"`
	Truncated   bool                   `json:"truncated,omitempty"`
	Failure     *failureJSON           `json:"failure,omitempty"`
	Metrics     map[string]json.Number `json:"metrics"`
	Requests    *requestsJSON          `json:"requests,omitempty"`
	Intervals   map[string]Interval    `json:"intervals,omitempty"`
	Labels      []labelJSON            `json:"labels"`
}

type failureJSON struct {
	Kind    string `json:"kind"`
	Message string `json:"message"`
}

// requestsJSON summarises Block.Requests (the samples are not written).
type requestsJSON struct {
	Count  int `json:"count"`
	Failed int `json:"failed"`
	TTFT   int `json:"ttft_samples"`
	TPOT   int `json:"tpot_samples"`
	E2EL   int `json:"e2el_samples"`
	ITL    int `json:"itl_samples"`
}

type labelJSON struct {
	Label string `json:"label"`
	Value string `json:"value"`
}

// MarshalJSON writes a block as
//
//	{"file", "line", "format", "tool", "version", "definition",
//	 "definitions": {key: definition} (metrics with another definition),
//	 "truncated" (only if true), "failure": {"kind", "message"} (failed runs),
//	 "metrics": {key: number, ...},
//	 "requests": {"count", "failed", "ttft_samples", ...} (per-request data),
//	 "intervals": {key: {"low", "high", "level", "runs", "line"}} (a tool's own),
//	 "labels": [{"label", "value"}, ...]}
//
// with metric keys sorted and values as plain JSON numbers (no exponent);
// empty fields are left out.
func (b Block) MarshalJSON() ([]byte, error) {
	out := blockJSON{
		File:        b.File,
		Line:        b.Line,
		Format:      b.Format,
		Tool:        b.Tool,
		Version:     b.Version,
		Definition:  b.Definition,
		Definitions: b.Definitions,
		Truncated:   b.Truncated,
		Intervals:   b.Intervals,
		Metrics:     make(map[string]json.Number, len(b.Metrics)),
		Labels:      make([]labelJSON, len(b.Labels)),
	}
	if f := b.Failure; f != nil {
		out.Failure = &failureJSON{Kind: f.Kind, Message: f.Message}
	}
	if r := b.Requests; r != nil {
		out.Requests = &requestsJSON{Count: r.Count, Failed: r.Failed, TTFT: len(r.TTFT), TPOT: len(r.TPOT), E2EL: len(r.E2EL), ITL: r.ITLs}
	}
	for k, m := range b.Metrics {
		out.Metrics[k] = json.Number(strconv.FormatFloat(m.Value, 'f', -1, 64))
	}
	for i, l := range b.Labels {
		out.Labels[i] = labelJSON{Label: l.Label, Value: l.Value}
	}
	return json.Marshal(out)
}
