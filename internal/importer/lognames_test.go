package importer

import (
	"testing"

	"github.com/perflab/perflab/internal/study"
)

// A workload id made from a report's label never reads as a repeat or a
// load of a sweep once it is a log's name (<id>.log): ids have no dots,
// so "random 1K.run-2" cannot become workload "random-1k" at repeat 2.
func TestSlugsAreNotLogSuffixes(t *testing.T) {
	for _, label := range []string{"random 1K.run-2", "ShareGPT .c16", "chat.rps0.5", "BS=4", "random-1k.c16.run-3"} {
		id := slug(label)
		w, prefix, load, repeat := study.SplitLogName(id, func(string) bool { return false })
		if w != id || prefix != "" || load != "" || repeat != 0 {
			t.Errorf("%q -> id %q reads as workload %q, load %q%q, repeat %d", label, id, w, prefix, load, repeat)
		}
	}
}
