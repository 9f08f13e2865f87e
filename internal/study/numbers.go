package study

import (
	"fmt"
	"math"
)

// Bounds on the numbers of study.yaml and run.yaml. A count past them is
// no real measurement, and products of counts (GPUs per node x nodes)
// must not overflow: an overflowed count printed "2 x A100" and doubled
// every figure per GPU.
const (
	// MaxGPUs bounds the GPUs of a node, the nodes, their product and
	// the GPUs of a run.
	MaxGPUs = 1 << 16
	// MaxCount bounds every other whole number: prompts, tokens, the
	// concurrency, a latency budget in milliseconds.
	MaxCount = 1_000_000_000
	// MaxGPUHourPrice bounds the price of one GPU-hour, in any currency:
	// a price past it is a typo, and its cost per token would not be
	// finite.
	MaxGPUHourPrice = 1e6
)

// gpuCount reads a GPU count: positive, at most MaxGPUs.
func (m *mapping) gpuCount(key, what string) int {
	p := m.integer(key, what, true)
	switch {
	case p == nil:
		return 0
	case *p <= 0:
		m.l.problem(m.pos(key), "%s: field %q must be greater than zero", what, key)
		return 0
	case *p > MaxGPUs:
		m.l.problem(m.pos(key), "%s: field %q is %d; the limit is %d", what, key, *p, MaxGPUs)
		return 0
	}
	return *p
}

// gpuProduct checks the GPUs of the hardware, once read: both counts are
// at most MaxGPUs, so their product does not overflow.
func (l *loader) gpuProduct(h *Hardware) {
	if n := h.GPUsPerNode * h.Nodes; n > MaxGPUs {
		l.problem(h.Pos, "hardware: gpus_per_node x nodes is %d x %d = %d GPUs; the limit is %d", h.GPUsPerNode, h.Nodes, n, MaxGPUs)
		h.GPUsPerNode, h.Nodes = 0, 0
	}
}

// priceProblem says why a GPU-hour price cannot be used, or "".
func priceProblem(raw string, v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) || v <= 0 {
		return fmt.Sprintf("price: gpu_hour %q must be a positive number, the cost of one GPU for one hour", raw)
	}
	if v > MaxGPUHourPrice {
		return fmt.Sprintf("price: gpu_hour %q is more than %g, no price of a GPU-hour in any currency: check it", raw, MaxGPUHourPrice)
	}
	return ""
}
