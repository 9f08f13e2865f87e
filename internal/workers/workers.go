// Package workers is perflab's one worker pool: it runs independent pieces of
// work on every core, by index, so that results land in the caller's own
// slots and never depend on scheduling.
package workers

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Each calls fn(i) for every i in [0, n) on up to GOMAXPROCS goroutines and
// returns when all calls have returned.
func Each(n int, fn func(i int)) {
	Run(n, func(i int) error {
		fn(i)
		return nil
	})
}

// Run calls job(0) ... job(n-1) on up to GOMAXPROCS goroutines and returns
// the error of the lowest-numbered job that failed, so that the error does
// not depend on scheduling. Jobs after a failure may be skipped.
func Run(n int, job func(i int) error) error {
	errs := make([]error, n)
	workers := min(runtime.GOMAXPROCS(0), n)
	if workers <= 1 {
		for i := range n {
			if errs[i] = job(i); errs[i] != nil {
				break
			}
		}
		return firstError(errs)
	}
	var next atomic.Int64
	var failed atomic.Bool
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= n || failed.Load() {
					return
				}
				if errs[i] = job(i); errs[i] != nil {
					failed.Store(true)
				}
			}
		})
	}
	wg.Wait()
	return firstError(errs)
}

// InOrder runs load(i) for i = 0 ... n-1 on every core, taken in order;
// then turn(i) one i at a time, in order, once load(j) has returned for
// every j <= i; then, if turn(i) says so, use(i), on any core. At most
// window i are between load and the end of use. turn runs under a lock
// and must be quick. It returns the error of the lowest i whose load or
// use failed: after a failure no load starts, but every i below it is
// still loaded and used, so that the error does not depend on scheduling.
func InOrder(n, window int, load func(i int) error, turn func(i int) bool, use func(i int) error) error {
	q := &queue{n: n, window: window, load: load, turn: turn, use: use,
		done: make([]bool, n), errs: make([]error, n), first: n}
	q.wake = sync.NewCond(&q.mu)
	var wg sync.WaitGroup
	for range max(runtime.GOMAXPROCS(0), 1) {
		wg.Go(q.work)
	}
	wg.Wait()
	return firstError(q.errs)
}

// queue is the state InOrder's workers share, under mu.
type queue struct {
	n, window int
	load      func(i int) error
	turn      func(i int) bool
	use       func(i int) error

	mu     sync.Mutex
	wake   *sync.Cond
	next   int // the next i to load
	due    int // the next i for turn
	held   int // i between load and the end of use
	done   []bool
	errs   []error
	first  int // the lowest i that failed
	usable []int
}

func (q *queue) fail(i int, err error) {
	q.errs[i] = err
	q.first = min(q.first, i)
}

func (q *queue) work() {
	q.mu.Lock()
	defer q.mu.Unlock()
	for {
		switch {
		case len(q.usable) > 0:
			i := q.usable[0]
			q.usable = q.usable[1:]
			if i < q.first {
				q.mu.Unlock()
				err := q.use(i)
				q.mu.Lock()
				if err != nil {
					q.fail(i, err)
				}
			}
			q.held--
			q.wake.Broadcast()
		case q.next < q.n && q.next < q.first && q.held < q.window:
			i := q.next
			q.next++
			q.held++
			q.mu.Unlock()
			err := q.load(i)
			q.mu.Lock()
			q.done[i] = true
			if err != nil {
				q.fail(i, err)
			}
			q.takeTurns()
			q.wake.Broadcast()
		case q.held == 0 && (q.next == q.n || q.next >= q.first):
			return
		default:
			q.wake.Wait()
		}
	}
}

// takeTurns runs turn for every i loaded in order so far.
func (q *queue) takeTurns() {
	for ; q.due < q.n && q.done[q.due]; q.due++ {
		if q.due < q.first && q.turn(q.due) {
			q.usable = append(q.usable, q.due)
		} else {
			q.held--
		}
	}
}

// firstError is the first error of errs that is not nil, or nil.
func firstError(errs []error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
