package report

// Budget verdicts: a run keeps a latency budget (yes) when the mean of each
// latency keeps its limit; it is borderline when, for some limit, the 95 %
// interval of the mean or any one repeat lies on the other side of the
// limit than the mean: the logs cannot tell on which side the run is.

// Borderline reports whether a value is too close to a limit to judge.
func Borderline(v *Value, limit float64) bool {
	if v == nil || limit <= 0 {
		return false
	}
	keeps := v.Effective() <= limit
	lo, hi := v.Interval()
	if v.Repeated() && (lo <= limit) != (hi <= limit) {
		return true
	}
	for _, s := range v.Samples {
		if (s.Measured*float64(v.Replicas) <= limit) != keeps {
			return true
		}
	}
	return false
}

// tiedWithBest are the runs that keep the budget and that the verdict
// cannot tell from the best one, in ranking order: each is as good a
// choice as the best, within noise. The comparisons with the best are one
// family (family.go).
func (r *Report) tiedWithBest(res *SLOResult) []*SLORun {
	if res.Best == nil {
		return nil
	}
	var cands []*SLORun
	vals := []Value{*res.Best.Headline}
	for i := range res.Runs {
		sr := &res.Runs[i]
		if sr == res.Best || !sr.Meets {
			continue
		}
		cands = append(cands, sr)
		vals = append(vals, *sr.Headline)
	}
	var tied []*SLORun
	for i, d := range distinctFromFirst(r.BandOf(r.Headline.Key), vals)[1:] {
		if !d {
			tied = append(tied, cands[i])
		}
	}
	return tied
}
