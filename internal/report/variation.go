package report

import (
	"strconv"
	"strings"
)

// The run-to-run variation assumed for a metric: what a comparison with a
// single run on a side, or between repeats that do not vary at all, is
// tested against (docs/statistics.md, "One run a side"). It is the
// study's own repeats of the metric when they give enough degrees of
// freedom to be trusted, and otherwise a default for the metric's class,
// set from published repeat measurements of serving benchmarks.

// MinMeasuredDF is the fewest degrees of freedom (repeats less one, over
// every set of repeats) from which a measured variation replaces the
// default: with fewer, a spread of a few runs could be small by chance.
const MinMeasuredDF = 4

// Metric classes, each with a default variation.
const (
	ClassThroughput = "throughput"   // tokens or requests per second
	ClassLatency    = "latency"      // a mean or median latency
	ClassTail       = "tail-latency" // a high percentile, a maximum or a spread of latencies
)

// DefaultVariation is the run-to-run variation of one measurement, in
// percent of its value, assumed for each class when the study's repeats
// do not measure it.
var DefaultVariation = map[string]float64{
	ClassThroughput: 2.5,
	ClassLatency:    4,
	ClassTail:       8,
}

// MetricClass is the class of a metric key: throughputs, central
// latencies, and the tails, which move most from run to run.
func MetricClass(key string) string {
	if strings.Contains(key, "throughput") || strings.Contains(key, "per_s") {
		return ClassThroughput
	}
	head, _, _ := strings.Cut(key, "_")
	switch {
	case head == "max" || head == "std":
		return ClassTail
	case len(head) > 1 && head[0] == 'p':
		if pct, err := strconv.ParseFloat(head[1:], 64); err == nil && pct >= 90 {
			return ClassTail
		}
	}
	return ClassLatency
}

// assume fills in the variation a band's tests without repeats use:
// the measured coefficient of variation (never below BandFloor) with its
// degrees of freedom when there are MinMeasuredDF or more, the class's
// default otherwise, or the measured one if it is larger (tested as
// known: the default has no degrees of freedom).
func (b *Band) assume() {
	b.Class = MetricClass(b.Metric)
	if b.DF >= MinMeasuredDF {
		b.Sigma, b.SigmaDF = max(b.CV, BandFloor), b.DF
		return
	}
	b.Sigma, b.SigmaDF, b.SigmaDefault = DefaultVariation[b.Class], 0, true
	if b.CV > b.Sigma {
		b.Sigma, b.SigmaDefault = b.CV, false
	}
}

// FloorBand is the band of a metric that no repeat measures: the floor,
// and the class's default variation.
func FloorBand(key string) Band {
	b := Band{Metric: key, Percent: BandFloor}
	b.assume()
	return b
}
