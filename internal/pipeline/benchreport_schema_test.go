package pipeline

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strings"
)

// brCheck checks a document against the structure of llm-d's Benchmark
// Report v0.2.1 as its pydantic models declare it (written here from the
// models, not copied): required members, their types, the members each
// object may have (the schema forbids others, except under observability)
// and the units each statistic allows. It returns every violation, by
// JSON path.
type brCheck struct{ errs []string }

func (c *brCheck) fail(path, format string, args ...any) {
	c.errs = append(c.errs, path+": "+fmt.Sprintf(format, args...))
}

// checkBenchReport decodes data and checks it.
func checkBenchReport(data []byte) []string {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return []string{"not JSON: " + err.Error()}
	}
	c := &brCheck{}
	root := c.object("$", doc, []string{"version", "run", "scenario", "results"}, "run", "results")
	if root == nil {
		return c.errs
	}
	if v, ok := root["version"].(string); !ok || v != "0.2.1" {
		c.fail("$.version", "%v, want the string 0.2.1", root["version"])
	}
	if run := c.object("$.run", root["run"], []string{"uid", "eid", "cid", "pid", "time", "user", "description", "keywords"}, "uid"); run != nil {
		for _, k := range []string{"uid", "eid", "cid", "pid", "user", "description"} {
			c.optString("$.run."+k, run, k)
		}
		if t, ok := run["time"]; ok {
			tm := c.object("$.run.time", t, []string{"start", "end", "duration"})
			for _, k := range []string{"start", "end", "duration"} {
				c.optString("$.run.time."+k, tm, k)
			}
		}
	}
	if sc, ok := root["scenario"]; ok {
		if scen := c.object("$.scenario", sc, []string{"stack", "load"}); scen != nil && scen["load"] != nil {
			c.load(scen["load"])
		}
	}
	if res := c.object("$.results", root["results"], []string{"request_performance", "session_performance", "observability", "profiling", "component_health"}); res != nil {
		if rp, ok := res["request_performance"]; ok {
			if perf := c.object("$.results.request_performance", rp, []string{"aggregate", "time_series"}); perf != nil && perf["aggregate"] != nil {
				c.aggregate(perf["aggregate"])
			}
		}
		if ob, ok := res["observability"]; ok {
			c.object("$.results.observability", ob, nil) // open to any member
		}
	}
	return c.errs
}

// object checks that v is an object with the required members and no
// member outside allowed (nil: any member).
func (c *brCheck) object(path string, v any, allowed []string, required ...string) map[string]any {
	m, ok := v.(map[string]any)
	if !ok {
		c.fail(path, "%T, want an object", v)
		return nil
	}
	for _, r := range required {
		if _, ok := m[r]; !ok {
			c.fail(path, "required member %q missing", r)
		}
	}
	if allowed != nil {
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if !contains(allowed, k) {
				c.fail(path, "member %q is not in the schema", k)
			}
		}
	}
	return m
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func (c *brCheck) optString(path string, m map[string]any, k string) {
	if v, ok := m[k]; ok {
		if _, ok := v.(string); !ok {
			c.fail(path, "%T, want a string", v)
		}
	}
}

// number checks a JSON number, whole when integer is set, and at least
// min.
func (c *brCheck) number(path string, v any, integer bool, min float64) {
	n, ok := v.(json.Number)
	if !ok {
		c.fail(path, "%T, want a number", v)
		return
	}
	f, err := n.Float64()
	if err != nil || math.IsNaN(f) {
		c.fail(path, "%q is not a number", n)
		return
	}
	if integer && strings.ContainsAny(string(n), ".eE") {
		c.fail(path, "%s, want an integer", n)
	}
	if f < min {
		c.fail(path, "%s, want at least %v", n, min)
	}
}

// seqLen checks a SequenceLength.
func (c *brCheck) seqLen(path string, v any) {
	m := c.object(path, v, []string{"distribution", "value", "std_dev", "min", "max"}, "distribution", "value")
	if m == nil {
		return
	}
	if d, _ := m["distribution"].(string); !contains([]string{"fixed", "gaussian", "uniform", "other"}, d) {
		c.fail(path+".distribution", "%v is not a distribution of the schema", m["distribution"])
	}
	c.number(path+".value", m["value"], false, 0)
}

// load checks scenario.load.
func (c *brCheck) load(v any) {
	l := c.object("$.scenario.load", v, []string{"metadata", "standardized", "native"}, "metadata", "standardized", "native")
	if l == nil {
		return
	}
	c.object("$.scenario.load.metadata", l["metadata"], []string{"schema_version", "cfg_id", "description"})
	c.object("$.scenario.load.native", l["native"], []string{"args", "envars", "config"})
	p := "$.scenario.load.standardized"
	s := c.object(p, l["standardized"], []string{"tool", "tool_version", "parallelism", "source", "stage", "input_seq_len",
		"output_seq_len", "prefix", "multi_turn", "rate_qps", "concurrency"}, "tool", "tool_version", "source", "input_seq_len")
	if s == nil {
		return
	}
	c.optString(p+".tool", s, "tool")
	c.optString(p+".tool_version", s, "tool_version")
	if src, _ := s["source"].(string); !contains([]string{"random", "sampled", "unknown"}, src) {
		c.fail(p+".source", "%v is not a source of the schema", s["source"])
	}
	c.seqLen(p+".input_seq_len", s["input_seq_len"])
	if o, ok := s["output_seq_len"]; ok {
		c.seqLen(p+".output_seq_len", o)
	}
	if r, ok := s["rate_qps"]; ok {
		c.number(p+".rate_qps", r, false, math.SmallestNonzeroFloat64)
	}
	if cc, ok := s["concurrency"]; ok {
		c.number(p+".concurrency", cc, true, 1)
	}
}

// Units the schema allows, by kind of statistic.
var (
	unitsTime       = []string{"ms", "s"}
	unitsGenLatency = []string{"ms/token", "s/token"}
	unitsTokenRate  = []string{"tokens/s"}
	unitsQueryRate  = []string{"queries/s"}
	unitsQuantity   = []string{"count", "pixels"}
)

// aggregate checks results.request_performance.aggregate.
func (c *brCheck) aggregate(v any) {
	p := "$.results.request_performance.aggregate"
	a := c.object(p, v, []string{"requests", "latency", "throughput"})
	if a == nil {
		return
	}
	if l, ok := a["latency"]; ok {
		lat := c.object(p+".latency", l, []string{"time_to_first_token", "normalized_time_per_output_token",
			"time_per_output_token", "inter_token_latency", "request_latency"})
		units := map[string][]string{"time_to_first_token": unitsTime, "request_latency": unitsTime,
			"normalized_time_per_output_token": unitsGenLatency, "time_per_output_token": unitsGenLatency, "inter_token_latency": unitsGenLatency}
		for k, s := range lat {
			c.statistics(p+".latency."+k, s, units[k])
		}
	}
	if t, ok := a["throughput"]; ok {
		tp := c.object(p+".throughput", t, []string{"input_token_rate", "output_token_rate", "total_token_rate", "request_rate",
			"image_rate", "video_rate", "audio_rate"})
		for k, s := range tp {
			u := unitsTokenRate
			if k == "request_rate" {
				u = unitsQueryRate
			}
			c.statistics(p+".throughput."+k, s, u)
		}
	}
	if r, ok := a["requests"]; ok {
		req := c.object(p+".requests", r, []string{"total", "failures", "incomplete", "input_length", "output_length",
			"request_size", "multimodal"}, "total")
		for _, k := range []string{"total", "failures", "incomplete"} {
			if n, ok := req[k]; ok {
				c.number(p+".requests."+k, n, true, 0)
			}
		}
		for _, k := range []string{"input_length", "output_length"} {
			if s, ok := req[k]; ok {
				c.statistics(p+".requests."+k, s, unitsQuantity)
			}
		}
	}
}

// statistics checks a Statistics object whose units must be one of units.
func (c *brCheck) statistics(path string, v any, units []string) {
	s := c.object(path, v, []string{"units", "mean", "mode", "stddev", "min", "p0p1", "p1", "p5", "p10", "p25", "p50",
		"p75", "p90", "p95", "p99", "p99p9", "max"}, "units", "mean")
	if s == nil {
		return
	}
	if u, _ := s["units"].(string); !contains(units, u) {
		c.fail(path+".units", "%v, want one of %s", s["units"], strings.Join(units, ", "))
	}
	for k, x := range s {
		if k == "units" {
			continue
		}
		min := math.Inf(-1)
		if k == "stddev" {
			min = 0
		}
		c.number(path+"."+k, x, false, min)
	}
}
