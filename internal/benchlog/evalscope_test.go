package benchlog

import (
	"strings"
	"testing"
)

// A "Key | Value" table is EvalScope's summary only when its rows are
// EvalScope's labels: another tool's settings table is not read.
func TestEvalUntitledSummary(t *testing.T) {
	const settings = `+-------------+---------+
| Key         | Value   |
+=============+=========+
| Model       | llama   |
+-------------+---------+
| Concurrency | 4       |
+-------------+---------+
`
	// Parse's error says that nothing was read: no block is the point.
	blocks, _ := Parse("settings.txt", strings.NewReader(settings))
	for _, b := range blocks {
		if b.Format == FormatEvalScope {
			t.Errorf("a settings table read as EvalScope: %+v", b.Metrics)
		}
	}
	summary := settings[:strings.Index(settings, "| Model")] + `| Time taken for tests (s) | 10.5 |
| Succeed requests | 40 |
| Average QPS | 3.81 |
+-------------+---------+
`
	blocks, err := Parse("summary.txt", strings.NewReader(summary))
	if err != nil {
		t.Fatal(err)
	}
	if len(blocks) != 1 || blocks[0].Format != FormatEvalScope || blocks[0].Metrics["completed"].Value != 40 {
		t.Fatalf("untitled summary: got %+v", blocks)
	}
}
