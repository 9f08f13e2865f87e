package study

import "sort"

// Run returns the run with the given id, or nil. Runs are sorted by id,
// so the search is binary: a study may hold thousands of runs.
func (s *Study) Run(id string) *Run {
	i := sort.Search(len(s.Runs), func(i int) bool { return s.Runs[i].ID >= id })
	if i < len(s.Runs) && s.Runs[i].ID == id {
		return s.Runs[i]
	}
	return nil
}

// Workload returns the workload with the given id, or nil.
func (s *Study) Workload(id string) *Workload {
	return first(s.Workloads, func(w *Workload) bool { return w.ID == id })
}

// MainWorkload returns the workload steps are compared on.
func (s *Study) MainWorkload() *Workload {
	return first(s.Workloads, func(w *Workload) bool { return w.Main })
}

// Engine returns the engine with the given id, or nil.
func (s *Study) Engine(id string) *Engine {
	return first(s.Engines, func(e *Engine) bool { return e.ID == id })
}

// Step returns the step with the given id, or nil.
func (s *Study) Step(id string) *Step {
	return first(s.Steps, func(st *Step) bool { return st.ID == id })
}

// LargestLog returns the study's largest log, or nil without logs.
func (s *Study) LargestLog() *Log {
	var largest *Log
	for _, r := range s.Runs {
		for i := range r.Logs {
			if lg := &r.Logs[i]; largest == nil || len(lg.Raw) > len(largest.Raw) {
				largest = lg
			}
		}
	}
	return largest
}

// first returns a pointer into items to the first item that matches, or nil.
func first[T any](items []T, match func(*T) bool) *T {
	for i := range items {
		if match(&items[i]) {
			return &items[i]
		}
	}
	return nil
}
