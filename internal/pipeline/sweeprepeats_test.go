package pipeline

import (
	"fmt"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/downloads"
	"github.com/perflab/perflab/internal/safefs"
	"github.com/perflab/perflab/internal/study"
)

// The example study measured SGLang three times at each load of its sweep
// (sweep.c16.run-1.log ...): every repeat's row has its load, the count of
// that load's repeats, and the mean of the load's headline, not of the
// whole sweep.
func TestRecordsOfSweepRepeats(t *testing.T) {
	t.Parallel()
	const id = "example-qwen3-8b-l40s"
	dir := "../../results/" + id
	s, problems, err := study.Load(safefs.New(dir, "results/"+id), "results/"+id, id)
	if err != nil || len(problems) > 0 {
		t.Fatal(err, problems)
	}
	var got []string
	for _, r := range downloads.Records(s, "results", nil) {
		if r.Run == "sglang" && strings.Contains(r.LogFile, "/sweep.c16.") {
			got = append(got, fmt.Sprintf("%s repeat %s of %d, %s %s, mean %s ± %s", r.LogFile[strings.LastIndex(r.LogFile, "/")+1:],
				r.Repeat, r.Repeats, r.SweepKey, r.SweepLoad, r.HeadlineMean, r.HeadlineHalfWidth))
		}
	}
	if len(got) != 3 {
		t.Fatalf("rows of sglang at c16: %v", got)
	}
	for i, row := range got {
		want := fmt.Sprintf("sweep.c16.run-%d.log repeat %d of 3, max_concurrency 16, mean ", i+1, i+1)
		if !strings.HasPrefix(row, want) || strings.HasSuffix(row, "mean  ± ") {
			t.Errorf("row %d: %s\nwant %s<mean> ± <half-width>", i, row, want)
		}
	}
	if got[0][strings.Index(got[0], "mean"):] != got[2][strings.Index(got[2], "mean"):] {
		t.Errorf("the repeats of one load have different means: %v", got)
	}
}
