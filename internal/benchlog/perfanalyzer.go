package benchlog

import (
	"bytes"
	"fmt"
	"strings"
)

// Triton's perf_analyzer (triton-inference-server/perf_analyzer,
// src/report_writer.cc and inference_profiler.cc) prints, for each load it
// measures,
//
//	Request concurrency: 1              (or "Request Rate: 10 inference requests per seconds")
//	  Client:
//	    Request count: 1361
//	    Throughput: 75.6 infer/sec
//	    Avg latency: 13201 usec (standard deviation 412 usec)
//	    p50 latency: 13150 usec
//	    ...
//	    Avg HTTP time: 13187 usec (send/recv 61 usec + response wait 13126 usec)
//	  Server:
//	    Inference count: 1361
//	    ...
//
// An inference is one request of --batch-size inputs: it is neither a
// request nor a token unless the output says so, so "infer/sec" goes to a
// key of its own, inferences_per_s, and never to a request or token
// throughput. Latencies are printed in usec; a line in another unit is not
// read and says so.

// paReader reads one measured load.
type paReader struct {
	b      *Block
	server bool // after "Server:"
}

// paLatencies maps the client latency labels to their stat.
var paLatencies = map[string]string{"avg latency": "mean", "p50 latency": "p50", "p90 latency": "p90",
	"p95 latency": "p95", "p99 latency": "p99"}

// paStart opens a block at "Request concurrency: N" or "Request Rate: R".
func paStart(s *Scanner, text []byte) lineReader {
	if text[0] != 'R' || !bytes.HasPrefix(text, []byte("Request concurrency:")) && !bytes.HasPrefix(text, []byte("Request Rate:")) {
		return nil
	}
	return &paReader{b: &Block{File: s.name, Line: s.line, EndLine: s.line, Format: FormatPerfAnalyzer, Tool: ToolPerfAnalyzer,
		Version: "perf_analyzer", Definition: CountOverDuration, Metrics: map[string]Metric{}}}
}

func (r *paReader) line(s *Scanner, text []byte) bool {
	b := r.b
	label, value, ok := splitLabel(text)
	if !ok {
		s.lrEnd()
		return false
	}
	lab, val := string(label), string(value)
	norm := normLabel(label)
	switch norm {
	case "client":
		r.server = false
		b.EndLine = s.line
		return true
	case "server":
		r.server = true
		b.EndLine = s.line
		return true
	case "request concurrency", "request rate":
		if s.line != b.Line {
			s.lrEnd() // the next load
			return false
		}
	case "request count", "throughput", "avg latency", "p50 latency", "p90 latency", "p95 latency", "p99 latency",
		"avg http time", "avg grpc time", "inference count", "execution count", "successful request count",
		"avg request latency", "sequence count", "delayed request count", "response throughput", "send request rate":
	default:
		s.lrEnd()
		return false
	}
	b.EndLine = s.line
	b.Labels = append(b.Labels, Label{Label: lab, Value: val, Line: s.line})
	if r.server {
		return true // the server's own counts and latencies: labels
	}
	r.value(s, norm, lab, val)
	return true
}

// value files one client line.
func (r *paReader) value(s *Scanner, norm, label, value string) {
	b := r.b
	f := strings.Fields(value)
	if len(f) == 0 {
		return
	}
	unit := ""
	if len(f) > 1 {
		unit = f[1]
	}
	switch norm {
	case "request concurrency":
		addKeys(b, []string{"max_concurrency"}, keySpec{}, label, f[0], s.line)
	case "request rate":
		if strings.HasPrefix(strings.Join(f[1:], " "), "inference requests per second") {
			addKeys(b, []string{"request_rate"}, keySpec{}, label, f[0], s.line)
		}
	case "request count":
		addKeys(b, []string{"completed"}, keySpec{}, label, f[0], s.line)
	case "throughput":
		if unit != "infer/sec" {
			r.badUnit(s, label, unit, "infer/sec")
			return
		}
		addKeys(b, []string{"inferences_per_s"}, keySpec{}, label, f[0], s.line)
	default:
		stat, ok := paLatencies[norm]
		if !ok {
			return // transport times, response throughput: labels
		}
		if unit != "usec" {
			r.badUnit(s, label, unit, "usec")
			return
		}
		keys := []string{stat + "_e2el_ms"}
		if stat == "p50" {
			keys = append(keys, "median_e2el_ms")
		}
		spec := keySpec{unit: "ms", from: "us"}
		addKeys(b, keys, spec, label, f[0], s.line)
		// "(standard deviation 412 usec)"
		if i := strings.Index(value, "(standard deviation "); stat == "mean" && i >= 0 {
			sd := strings.Fields(value[i+len("(standard deviation "):])
			if len(sd) >= 2 && strings.TrimSuffix(sd[1], ")") == "usec" {
				addKeys(b, []string{"std_e2el_ms"}, spec, label, sd[0], s.line)
			}
		}
	}
}

func (r *paReader) badUnit(s *Scanner, label, unit, want string) {
	r.b.Problems = append(r.b.Problems, &SyntaxError{File: s.name, Line: s.line,
		Msg: fmt.Sprintf("perf_analyzer %s: unit %q is not the %s perf_analyzer prints; not read, since its unit cannot be told", label, unit, want)})
}

// end queues the load if it has a client measurement.
func (r *paReader) end(s *Scanner) {
	b := r.b
	_, thr := b.Metrics["inferences_per_s"]
	_, lat := b.Metrics["mean_e2el_ms"]
	if !thr && !lat && len(b.Problems) == 0 {
		return
	}
	s.emit(b)
}
