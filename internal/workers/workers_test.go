package workers

import (
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
)

func TestEachCallsEveryIndexOnce(t *testing.T) {
	for _, n := range []int{0, 1, 2, 7, 1000} {
		seen := make([]int32, n)
		Each(n, func(i int) { atomic.AddInt32(&seen[i], 1) })
		for i, c := range seen {
			if c != 1 {
				t.Fatalf("n=%d: index %d called %d times", n, i, c)
			}
		}
	}
}

// Run reports the lowest failure whatever the scheduling.
func TestRunReportsTheLowestFailure(t *testing.T) {
	for range 20 {
		err := Run(100, func(i int) error {
			if i == 30 || i == 60 {
				return fmt.Errorf("job %d", i)
			}
			return nil
		})
		if err == nil || err.Error() != "job 30" {
			t.Fatalf("err %v, want job 30", err)
		}
	}
}

// InOrder takes turns in order, uses what its turn asks for, holds at most
// its window, and reports the lowest failure whatever the scheduling.
func TestInOrder(t *testing.T) {
	const n, window = 200, 5
	var between, most atomic.Int64
	var turns []int
	used := make([]atomic.Bool, n)
	err := InOrder(n, window,
		func(i int) error {
			if b := between.Add(1); b > most.Load() {
				most.Store(b)
			}
			return nil
		},
		func(i int) bool {
			turns = append(turns, i)
			if i%3 == 0 {
				between.Add(-1)
				return false
			}
			return true
		},
		func(i int) error {
			used[i].Store(true)
			between.Add(-1)
			return nil
		})
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if turns[i] != i {
			t.Fatalf("turn %d came as %d", i, turns[i])
		}
		if used[i].Load() != (i%3 != 0) {
			t.Errorf("use(%d) = %v", i, used[i].Load())
		}
	}
	if most.Load() > window {
		t.Errorf("%d between load and use, over the window of %d", most.Load(), window)
	}
	for range 20 {
		err := InOrder(n, window,
			func(i int) error {
				if i == 150 {
					return errors.New("load 150")
				}
				return nil
			},
			func(int) bool { return true },
			func(i int) error {
				if i == 40 || i == 90 {
					return fmt.Errorf("use %d", i)
				}
				return nil
			})
		if err == nil || err.Error() != "use 40" {
			t.Fatalf("err %v, want use 40", err)
		}
	}
}
