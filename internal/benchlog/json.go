package benchlog

import (
	"encoding/json"
	"strconv"
)

// blockJSON is the JSON shape of a Block (perflab parse).
type blockJSON struct {
	File       string                 `json:"file"`
	Line       int                    `json:"line"`
	Format     Format                 `json:"format"`
	Definition Definition             `json:"definition,omitempty"`
	Truncated  bool                   `json:"truncated,omitempty"`
	Metrics    map[string]json.Number `json:"metrics"`
	Labels     []labelJSON            `json:"labels"`
}

type labelJSON struct {
	Label string `json:"label"`
	Value string `json:"value"`
}

// MarshalJSON writes a block as
//
//	{"file", "line", "format", "definition", "truncated" (only if true),
//	 "metrics": {key: number, ...}, "labels": [{"label", "value"}, ...]}
//
// with metric keys sorted and values as plain JSON numbers (no exponent).
func (b Block) MarshalJSON() ([]byte, error) {
	out := blockJSON{
		File:       b.File,
		Line:       b.Line,
		Format:     b.Format,
		Definition: b.Definition,
		Truncated:  b.Truncated,
		Metrics:    make(map[string]json.Number, len(b.Metrics)),
		Labels:     make([]labelJSON, len(b.Labels)),
	}
	for k, m := range b.Metrics {
		out.Metrics[k] = json.Number(strconv.FormatFloat(m.Value, 'f', -1, 64))
	}
	for i, l := range b.Labels {
		out.Labels[i] = labelJSON{Label: l.Label, Value: l.Value}
	}
	return json.Marshal(out)
}
