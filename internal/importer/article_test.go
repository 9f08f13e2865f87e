package importer

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An article with tables but no logs is imported as a study of kind
// article: each printed change becomes a table claim with the two figures
// it compares, and check redoes the arithmetic.
func TestArticleTables(t *testing.T) {
	src := `# What Quantization Does to Throughput

## Setup

- **Model**: Example-8B
- **Hardware**: NVIDIA H100 80GB

## Results

| Method | Throughput (tok/s) | Mean TTFT (ms) |
|---|---|---|
| FP8 | 16452.52 (+26.7%) | 4116.87 (-20.4%) |
| BF16 (Baseline) | 13305.38 | 5172.78 |
| AWQ | 5653.4 (+46.1%) | N/A |

| Metric | Without cache | With cache | Change |
|---|---|---|---|
| Total TPS | 5212.32 | 5046.72 | -3.2% |
| Mean TTFT (ms) | 8886.36 | 9242.72 | +4.0% |
`
	file := filepath.Join(t.TempDir(), "article.md")
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	studies, diags := importAll(t, file)
	s := studies[0]
	if s.Kind != "article" || s.Model != "Example-8B" || len(s.Runs) != 0 {
		t.Fatalf("kind %q, model %q, %d runs", s.Kind, s.Model, len(s.Runs))
	}
	var got []string
	for _, c := range s.Claims {
		got = append(got, c.From+" -> "+c.To+" "+c.Printed)
	}
	want := "13305.38 -> 16452.52 +26.7%; 5172.78 -> 4116.87 -20.4%; 13305.38 -> 5653.4 +46.1%; 5212.32 -> 5046.72 -3.2%; 8886.36 -> 9242.72 +4.0%"
	if strings.Join(got, "; ") != want {
		t.Errorf("claims\n%s\nwant\n%s", strings.Join(got, "; "), want)
	}
	// +26.7% is wrong (the figures give +23.7 %); +46.1% is wrong too
	// (5653.4 against 13305.38); the others hold.
	errs := errorTexts(diags)
	if len(errs) != 2 || !strings.Contains(errs[0]+errs[1], "+23.7 %") || !strings.Contains(errs[0]+errs[1], "article.md:12") {
		t.Errorf("want two errors, one at article.md:12 giving +23.7 %%: %v", errs)
	}
}
