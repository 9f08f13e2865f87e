package render

import (
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/report"
)

// TestLandingComparesMatchedOnly: the landing page sets studies side by
// side only on the same GPU model, workload and load, by their figure per
// GPU; a study on another GPU or at another load is left out of the group.
func TestLandingComparesMatchedOnly(t *testing.T) {
	r, err := chartRenderer()
	if err != nil {
		t.Fatal(err)
	}
	fig := func(run string, perGPU float64, load string) *report.MainFigure {
		return &report.MainFigure{Metric: report.TotalThroughput, Figure: perGPU, Decimals: 2, PerGPU: true, Run: run,
			Dataset: "sharegpt", LoadKey: "max_concurrency", Load: load}
	}
	entry := func(id, model, gpu string, m *report.MainFigure) IndexEntry {
		return IndexEntry{Study: id, Model: model, GPU: gpu, GPUs: 8, Objective: "throughput", Titles: map[string]string{}, Main: m}
	}
	entries := []IndexEntry{
		entry("a", "Model-A", "A100", fig("TP4", 754.8, "64")),
		entry("b", "Model-B", "A100", fig("TensorRT-LLM", 2054.21, "64")),
		entry("c", "Model-C", "A100", fig("SGLang", 999, "32")),
		entry("d", "Model-D", "H100", fig("vLLM", 888, "64")),
	}
	page, err := r.Index(entries, "en", "../")
	if err != nil {
		t.Fatal(err)
	}
	body := string(page)
	body = body[strings.Index(body, `id="matched"`):]
	if h := elements(body, "h3"); len(h) != 1 || !strings.HasPrefix(h[0].inner, "A100 · sharegpt · concurrency 64") {
		t.Fatalf("groups %+v, want one: A100, sharegpt at concurrency 64", h)
	}
	rows := elements(body, "tr")[1:]
	if len(rows) != 2 || !strings.Contains(rows[0].inner, "Model-A") || !strings.Contains(rows[1].inner, "Model-B") {
		t.Fatalf("rows %+v, want Model-A and Model-B", rows)
	}
	if !strings.Contains(rows[0].inner, `<a href="a/index.html#conclusion">754.80</a>`) || !strings.Contains(body, "total token throughput (tok/s), per GPU") {
		t.Errorf("row %q: its figure per GPU, linked to its conclusion", rows[0].inner)
	}
	if strings.Contains(body, "Model-C") || strings.Contains(body, "Model-D") {
		t.Error("a study at another load or on another GPU is compared")
	}
	page, err = r.Index(entries[2:], "en", "../")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), "No two studies have run on the same GPU model and workload yet.") {
		t.Error("no matched studies, and the page does not say so")
	}
}

// TestLandingFiltersMatched: the filters reach the matched groups, each
// row carrying its study's model, GPU and engines as the studies' rows do,
// and each group in an element of its own that the script hides.
func TestLandingFiltersMatched(t *testing.T) {
	r, err := chartRenderer()
	if err != nil {
		t.Fatal(err)
	}
	fig := &report.MainFigure{Metric: report.TotalThroughput, Figure: 1, Decimals: 2, PerGPU: true, Run: "TP4", Dataset: "sharegpt"}
	entries := []IndexEntry{
		{Study: "a", Model: "Model-A", GPU: "A100", GPUs: 8, Objective: "throughput", Titles: map[string]string{}, Main: fig, EngineNames: []string{"vLLM", "SGLang"}},
		{Study: "b", Model: "Model-B", GPU: "A100", GPUs: 8, Objective: "throughput", Titles: map[string]string{}, Main: fig, EngineNames: []string{"TensorRT-LLM"}},
	}
	page, err := r.Index(entries, "en", "../")
	if err != nil {
		t.Fatal(err)
	}
	body := string(page)
	matched := body[strings.Index(body, `id="matched"`):]
	for _, want := range []string{
		`<section class="matched-group"><h3>A100 · sharegpt`,
		`<tr data-model="Model-A" data-gpu="A100" data-engines="vLLM|SGLang">`,
		`<tr data-model="Model-B" data-gpu="A100" data-engines="TensorRT-LLM">`,
		`<p id="matched-filtered" hidden>No group holds a study that these filters keep.</p>`,
	} {
		if !strings.Contains(matched, want) {
			t.Errorf("no %q in the matched section:\n%s", want, matched)
		}
	}
	if !strings.Contains(body, `document.querySelectorAll(".matched-group")`) {
		t.Error("the script does not filter the matched groups")
	}
}
