package site

import (
	"path/filepath"
	"sync"
)

// faults run before each step a Writer takes on disk: writing or linking a
// file, and each step of Commit. The error is the step's error.
var (
	faultMu sync.Mutex
	faults  = map[string]func(op, name string) error{} // by destination
)

// SetFault makes every later step on disk of a Writer whose destination
// is dir (op "write" or "link" and the file's site path, then "stamp",
// "swap" and "remove old" in Commit) first call f and fail with its error:
// tests stop a build at each of its steps, as a kill or a full disk would.
// f may be called from several goroutines at once. restore removes it.
func SetFault(dir string, f func(op, name string) error) (restore func()) {
	dir = filepath.Clean(dir)
	faultMu.Lock()
	defer faultMu.Unlock()
	faults[dir] = f
	return func() {
		faultMu.Lock()
		defer faultMu.Unlock()
		delete(faults, dir)
	}
}

// step runs the fault of the Writer's destination, if any, before a step.
func (w *Writer) step(op, name string) error {
	faultMu.Lock()
	f := faults[w.dir]
	faultMu.Unlock()
	if f == nil {
		return nil
	}
	return f(op, name)
}
