package report

import (
	"reflect"
	"testing"

	"github.com/perflab/perflab/internal/study"
)

// TestPairLikenesses: a pair of all-runs columns measured at two loads on
// one workload is not comparable on that workload's rows alone; a pair
// a caveat on one workload caveats the pair; a pair measured alike is left
// out.
func TestPairLikenesses(t *testing.T) {
	a := testRun("a", "A", 8, "sharegpt", "1000.00", "random-32k", "500.00")
	b := testRun("b", "B", 8, "sharegpt", "1100.00", "random-32k", "520.00")
	c := testRun("c", "C", 8, "sharegpt", "1050.00")
	setMetric(a, "sharegpt", "max_concurrency", "64", 3)
	setMetric(b, "sharegpt", "max_concurrency", "32", 3)
	setMetric(c, "sharegpt", "max_concurrency", "64", 3)
	d := testRun("d", "D", 8, "sharegpt", "990.00")
	setMetric(d, "sharegpt", "max_concurrency", "32", 3)
	c.Logs[0].Blocks[0].Version = "v0.13"
	a.Logs[0].Blocks[0].Version = "v0.11"
	r := Build(testStudy(study.Throughput, 8, a, b, c, d), nil)
	tab := r.AllRuns()
	got := r.PairLikenesses(tab)
	if len(got) != 5 {
		t.Fatalf("%d pairs judged unlike, want all but b-d: %+v", len(got), got)
	}
	ab, ac := got[0], got[1]
	if ab.A != 0 || ab.B != 1 || ab.Likeness.Verdict != NotComparable || !reflect.DeepEqual(ab.Rows, []int{0}) {
		t.Errorf("a-b: %d-%d %s rows %v, want 0-1 not comparable on row 0 (sharegpt)", ab.A, ab.B, ab.Likeness.Verdict, ab.Rows)
	}
	if ac.A != 0 || ac.B != 2 || ac.Likeness.Verdict != Caveated || len(ac.Rows) != 0 || codes(ac.Likeness)[0] != ReasonToolVersion {
		t.Errorf("a-c: %d-%d %s %v rows %v, want 0-2 caveated by the tool version", ac.A, ac.B, ac.Likeness.Verdict, codes(ac.Likeness), ac.Rows)
	}
	for _, p := range got {
		if p.A == 1 && p.B == 3 {
			t.Errorf("b-d measured alike, judged %s %v", p.Likeness.Verdict, codes(p.Likeness))
		}
	}
}

// TestPairLikenessesBounded: a table whose pairs times rows pass
// maxPairRows is not judged (a pull request sets the number of runs);
// one within it is, as before.
func TestPairLikenessesBounded(t *testing.T) {
	defer func(n int64) { maxPairRows = n }(maxPairRows)
	a := testRun("a", "A", 8, "sharegpt", "1000.00", "random-32k", "500.00")
	b := testRun("b", "B", 8, "sharegpt", "1100.00", "random-32k", "520.00")
	c := testRun("c", "C", 8, "sharegpt", "1050.00")
	setMetric(a, "sharegpt", "max_concurrency", "64", 3)
	setMetric(b, "sharegpt", "max_concurrency", "32", 3)
	s := testStudy(study.Throughput, 8, a, b, c)
	tab := Build(s, nil).AllRuns()
	if !tab.Judged || tab.pairRows() != 3*int64(len(tab.Rows)) {
		t.Fatalf("judged %v, %d pair rows, want 3 pairs of %d rows judged", tab.Judged, tab.pairRows(), len(tab.Rows))
	}
	maxPairRows = tab.pairRows() - 1
	r := Build(s, nil)
	if tab := r.AllRuns(); tab.Judged || r.PairLikenesses(tab) != nil {
		t.Errorf("over the bound: judged %v, %d likenesses", tab.Judged, len(r.PairLikenesses(tab)))
	}
}
