package report

import "math"

// Interval is a range of true values. A printed number stands for the
// Interval its last printed digit allows: [v - half a unit, v + half a unit].
type Interval struct{ Lo, Hi float64 }

// HalfUnit is half of one unit in the last of decimals printed digits.
func HalfUnit(decimals int) float64 { return 0.5 * math.Pow10(-decimals) }

// PrintedInterval is the range of true values a number printed with
// decimals digits after the point stands for.
func PrintedInterval(v float64, decimals int) Interval {
	h := HalfUnit(decimals)
	return Interval{v - h, v + h}
}

// Sub is a - b.
func (a Interval) Sub(b Interval) Interval { return Interval{a.Lo - b.Hi, a.Hi - b.Lo} }

// Abs is |a|.
func (a Interval) Abs() Interval {
	if a.Lo >= 0 {
		return a
	}
	if a.Hi <= 0 {
		return Interval{-a.Hi, -a.Lo}
	}
	return Interval{0, math.Max(-a.Lo, a.Hi)}
}

// Div is a / b; unbounded when b reaches zero or below.
func (a Interval) Div(b Interval) Interval {
	if b.Lo <= 0 {
		return Interval{math.Inf(-1), math.Inf(1)}
	}
	q := []float64{a.Lo / b.Lo, a.Lo / b.Hi, a.Hi / b.Lo, a.Hi / b.Hi}
	lo, hi := q[0], q[0]
	for _, x := range q[1:] {
		lo, hi = math.Min(lo, x), math.Max(hi, x)
	}
	return Interval{lo, hi}
}

// Inverse is 1 / a for a positive a.
func (a Interval) Inverse() Interval { return Interval{1 / a.Hi, 1 / a.Lo} }

// Scale is a x k.
func (a Interval) Scale(k float64) Interval { return Interval{a.Lo * k, a.Hi * k} }

// Mid is the middle of a.
func (a Interval) Mid() float64 { return (a.Lo + a.Hi) / 2 }

// Overlaps reports whether a and b share a value.
func (a Interval) Overlaps(b Interval) bool { return a.Lo <= b.Hi && b.Lo <= a.Hi }

// Holds reports whether a printed number (its value and decimals) can be
// a rounding of a value in a.
func (a Interval) Holds(v float64, decimals int) bool {
	const eps = 1e-9
	p := PrintedInterval(v, decimals)
	return p.Lo <= a.Hi+eps*math.Max(1, math.Abs(a.Hi)) && a.Lo <= p.Hi+eps*math.Max(1, math.Abs(a.Lo))
}
