// Package par runs independent pieces of work on every core.
package par

import (
	"runtime"
	"sync"
)

// Each calls fn(i) for every i in [0, n) on up to GOMAXPROCS goroutines and
// returns when all calls have returned. Callers write results into slots of
// their own slice, so the output order never depends on scheduling.
func Each(n int, fn func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	if workers <= 1 {
		for i := range n {
			fn(i)
		}
		return
	}
	next := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				fn(i)
			}
		}()
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
}
