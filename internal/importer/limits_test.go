package importer

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// withSteps inserts n more step sections, all with one title, into a
// report of the test corpus, and returns it with the line of the first.
func withSteps(t *testing.T, n int) (string, int) {
	t.Helper()
	src, err := os.ReadFile("testdata/handwritten_throughput.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(src)
	i := strings.Index(s, "### Summary of Optimization Options")
	if i < 0 {
		t.Fatal("the report has no summary heading")
	}
	var b strings.Builder
	for k := range n {
		fmt.Fprintf(&b, "### %d. Same step\n\nSome text.\n\n", k+5)
	}
	return s[:i] + b.String() + s[i:], strings.Count(s[:i], "\n") + 1
}

// TestImportStepsLinear: importing twice as many steps allocates about
// twice as much. Giving each step a unique id by trying every earlier one
// (and compiling a pattern each try) allocated with the square.
func TestImportStepsLinear(t *testing.T) {
	allocs := func(n int) float64 {
		src, _ := withSteps(t, n)
		return testing.AllocsPerRun(2, func() {
			if _, err := Import("r.md", []byte(src)); err != nil {
				t.Fatal(err)
			}
		})
	}
	base := allocs(0)
	small, large := allocs(100)-base, allocs(200)-base
	if large > 2.2*small {
		t.Errorf("allocations for the steps: %.0f for 100, %.0f for 200: not linear", small, large)
	}
}

// TestImportTooManySteps: past MaxSteps, the import stops on the first
// heading too many, and writes nothing.
func TestImportTooManySteps(t *testing.T) {
	src, first := withSteps(t, MaxSteps)
	_, err := Import("r.md", []byte(src))
	// Four steps before: the heading of step MaxSteps+1 is number MaxSteps-4.
	want := fmt.Sprintf("r.md:%d: more than %d optimisation steps", first+4*(MaxSteps-4), MaxSteps)
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("error %v, want one starting %q", err, want)
	}
}
