package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
)

// engineModel is how fast a simulated server is: the time per output token
// of a lone request, how much each other request in the batch adds to it,
// and how fast it reads a prompt.
type engineModel struct {
	decodeMs   float64 // TPOT of one request alone, ms
	slopeMs    float64 // TPOT added per concurrent request, ms
	prefillTPS float64 // prompt tokens per second
	maxBatch   int     // requests served at once; the rest wait
}

// load is one benchmark run of the client against a server.
type load struct {
	prompts, inputLen, outputLen int
	concurrency                  int // 0: no limit (all requests at once)
	// goodput: the client was given --goodput ttft:<ms> tpot:<ms> with
	// these limits, and prints the requests per second that met both.
	goodputTTFT, goodputTPOT float64
}

// result is what vllm bench serve measures, before printing.
type result struct {
	load
	duration                   float64 // s, printed with 2 decimals
	inputTokens, outputTokens  int
	peakOutput, peakConcurrent float64
	ttft, tpot, itl, e2el      stats   // ms
	goodput                    float64 // req/s; 0: not measured
}

type stats struct{ mean, median, p99 float64 }

// simulate runs a load against a model. jitter (a fraction, e.g. 0.008)
// moves the server's speed the way a repeat on the same machine does.
func simulate(m engineModel, l load, rng *rand.Rand, jitter float64) result {
	speed := 1 + jitter*(2*rng.Float64()-1)
	batch := l.concurrency
	if batch == 0 || batch > l.prompts {
		batch = l.prompts
	}
	running := min(batch, m.maxBatch)
	tpot := (m.decodeMs + m.slopeMs*float64(running)) / speed
	prefill := float64(l.inputLen) / m.prefillTPS * 1000 / speed
	// Requests beyond the running batch wait for a slot: on average half a
	// request's time per full batch ahead of them.
	service := prefill*(1+0.02*float64(running)) + tpot*float64(l.outputLen-1)
	waves := math.Ceil(float64(batch) / float64(running))
	queue := (waves - 1) / 2 * service
	ttft := prefill*(1+0.02*float64(running)) + queue
	e2el := ttft + tpot*float64(l.outputLen-1)
	// The client keeps batch requests in flight; the run lasts as long as
	// prompts/batch rounds of one request's latency.
	duration := round2(float64(l.prompts) / float64(batch) * (service * waves) / 1000)
	r := result{load: l, duration: duration,
		inputTokens: l.prompts * l.inputLen, outputTokens: l.prompts * l.outputLen,
		peakConcurrent: float64(batch),
		ttft:           spread(ttft, 0.97, 1.6+0.4*rng.Float64()),
		tpot:           spread(tpot, 0.99, 1.08+0.04*rng.Float64()),
		itl:            spread(tpot*0.98, 0.96, 1.9+0.3*rng.Float64()),
		e2el:           spread(e2el, 0.98, 1.3+0.2*rng.Float64()),
	}
	r.peakOutput = math.Round(float64(running) * 1000 / tpot * (1.15 + 0.1*rng.Float64()))
	if l.goodputTTFT > 0 {
		good := float64(l.prompts) * share(r.ttft, l.goodputTTFT) * share(r.tpot, l.goodputTPOT)
		r.goodput = good / r.duration
	}
	return r
}

// share is the part of requests whose latency keeps a limit, read off a
// distribution known by its mean and 99th percentile: about all of them
// past the p99, half at the mean, a straight line between.
func share(s stats, limit float64) float64 {
	switch {
	case limit >= s.p99:
		return 0.995
	case limit <= s.mean:
		return 0.5 * limit / s.mean
	}
	return 0.5 + 0.49*(limit-s.mean)/(s.p99-s.mean)
}

func spread(mean, median, p99 float64) stats {
	return stats{round2(mean), round2(mean * median), round2(mean * p99)}
}

func round2(x float64) float64 { return math.Round(x*100) / 100 }

// vllmBlock prints a result as vllm bench serve v0.11 does
// (vllm/benchmarks/serve.py): "{:<40} {:<10}" lines, 2-decimal floats,
// and the E2EL section of --percentile-metrics ttft,tpot,itl,e2el.
func vllmBlock(r result) string {
	var b strings.Builder
	line := func(label string, value any) {
		v := fmt.Sprint(value)
		if f, ok := value.(float64); ok {
			v = fmt.Sprintf("%.2f", f)
		}
		fmt.Fprintf(&b, "%-40s %-10s\n", label, v)
	}
	section := func(title, short string, s stats) {
		fmt.Fprintf(&b, "%s\n", center(title, '-'))
		line("Mean "+short+" (ms):", s.mean)
		line("Median "+short+" (ms):", s.median)
		line("P99 "+short+" (ms):", s.p99)
	}
	b.WriteString(center(" Serving Benchmark Result ", '=') + "\n")
	line("Successful requests:", r.prompts)
	if r.concurrency > 0 {
		line("Maximum request concurrency:", r.concurrency)
	}
	line("Benchmark duration (s):", r.duration)
	line("Total input tokens:", r.inputTokens)
	line("Total generated tokens:", r.outputTokens)
	line("Request throughput (req/s):", float64(r.prompts)/r.duration)
	if r.goodput > 0 {
		line("Request goodput (req/s):", r.goodput)
	}
	line("Output token throughput (tok/s):", float64(r.outputTokens)/r.duration)
	line("Peak output token throughput (tok/s):", r.peakOutput)
	line("Peak concurrent requests:", r.peakConcurrent)
	line("Total Token throughput (tok/s):", float64(r.inputTokens+r.outputTokens)/r.duration)
	section("Time to First Token", "TTFT", r.ttft)
	section("Time per Output Token (excl. 1st token)", "TPOT", r.tpot)
	section("Inter-token Latency", "ITL", r.itl)
	section("End-to-end Latency", "E2EL", r.e2el)
	b.WriteString(strings.Repeat("=", 50) + "\n")
	return b.String()
}

// center is Python's "{:c^50}": the text centred, the odd fill on the right.
func center(s string, fill byte) string {
	pad := 50 - len(s)
	left := pad / 2
	return strings.Repeat(string(fill), left) + s + strings.Repeat(string(fill), pad-left)
}
