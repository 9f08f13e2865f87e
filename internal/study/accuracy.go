package study

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// AccuracyFile, in a run folder, holds the run's accuracy results as
// lm-evaluation-harness writes them (lm_eval --output_path): a "results"
// map of tasks, each a map of metrics such as "acc,none". Reports show the
// scores beside the run's throughput, so that a quantised configuration's
// gain is read with what it costs in accuracy.
const AccuracyFile = "accuracy.json"

// Score is one metric of one task of an accuracy file.
type Score struct {
	Task, Metric string // "mmlu", "acc,none"
	Value        float64
	Raw          string // as written
	// StdErr is the standard error lm-eval writes beside the score
	// ("acc_stderr,none"); 0 when it writes none or "N/A".
	StdErr    float64
	StdErrRaw string
	File      string
	Line      int
}

// parseAccuracy reads the scores of an accuracy file, by task and metric
// name, each with its standard error; aliases are left out.
func parseAccuracy(file string, raw []byte) ([]Score, error) {
	var doc struct {
		Results map[string]map[string]json.RawMessage `json:"results"`
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("not the results JSON of lm-evaluation-harness: %v", err)
	}
	if len(doc.Results) == 0 {
		return nil, fmt.Errorf(`no "results" map of tasks: write the file lm_eval --output_path writes`)
	}
	var out []Score
	at := bytes.Index(raw, []byte(`"results"`))
	for task, metrics := range doc.Results {
		for metric, v := range metrics {
			if strings.Contains(metric, "_stderr") || metric == "alias" || metric == "samples" {
				continue
			}
			text := strings.TrimSpace(string(v))
			f, err := strconv.ParseFloat(text, 64)
			if err != nil {
				continue // a name or a null: not a score
			}
			sc := Score{Task: task, Metric: metric, Value: f, Raw: text, File: file, Line: lineOf(raw, at, task, metric)}
			sc.StdErr, sc.StdErrRaw = stdErrOf(metrics, metric)
			out = append(out, sc)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Task != out[j].Task {
			return out[i].Task < out[j].Task
		}
		return out[i].Metric < out[j].Metric
	})
	return out, nil
}

// lineOf is the line of a task's metric after the "results" key: where the
// task's name is quoted, then the metric's.
func lineOf(raw []byte, from int, task, metric string) int {
	if from < 0 {
		from = 0
	}
	t := bytes.Index(raw[from:], []byte(strconv.Quote(task)))
	if t < 0 {
		return 1
	}
	t += from
	m := bytes.Index(raw[t:], []byte(strconv.Quote(metric)))
	if m < 0 {
		return bytes.Count(raw[:t], []byte("\n")) + 1
	}
	return bytes.Count(raw[:t+m], []byte("\n")) + 1
}

// stdErrOf is the standard error lm-eval writes for a metric: "acc,none"
// has "acc_stderr,none"; none when absent, not a number or not positive.
func stdErrOf(metrics map[string]json.RawMessage, metric string) (float64, string) {
	name, filter, hasFilter := strings.Cut(metric, ",")
	key := name + "_stderr"
	if hasFilter {
		key += "," + filter
	}
	text := strings.TrimSpace(string(metrics[key]))
	se, err := strconv.ParseFloat(text, 64)
	if err != nil || !(se > 0) || math.IsInf(se, 0) {
		return 0, ""
	}
	return se, text
}
