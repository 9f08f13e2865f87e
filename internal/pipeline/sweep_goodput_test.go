package pipeline

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/check"
)

// goodputDirs is a study swept at 2, 4 and 8 req/s whose results were saved
// as vLLM JSON with every request (testdata/goodput, made up), under a
// budget of p99 TTFT 200 ms and TPOT 40 ms. Requests that keep it, of 20:
//
//	vLLM TP1 (1 GPU):   20, 17 (85 %), 12
//	vLLM TP2 (2 GPUs):  20, 20, 19 (95 %)
//	vLLM summary only:  no per-request arrays
//
// Goodput: TP1 2 req/s per GPU (at 2 req/s, 100 %), TP2 4 req/s per GPU
// (at 8 req/s, 95 %); nothing for the run without arrays. Twenty requests
// a load decide nothing firmly: both are borderline.
var goodputDirs = Dirs{Results: "testdata/goodput/results", Content: "testdata/goodput/content",
	Locales: "../../locales", Templates: "../../templates"}

func TestSweepGoodputStudy(t *testing.T) {
	t.Parallel()
	p, files := buildRepo(t, goodputDirs)
	for _, d := range p.Diagnostics() {
		if d.Severity == check.Error && !d.Acknowledged() {
			t.Errorf("check: %s", d.String())
		}
	}
	const id = "example-8b-goodput"
	want := map[string][]string{
		"en": {"- vLLM TP1: up to 2.0 req/s, 2 req/s per GPU; at that load 20 of 20 requests (100.0 %, 95 % interval 83.9–100.0 %) kept every limit. Borderline:",
			"- vLLM TP2: up to 8.0 req/s, 4 req/s per GPU; at that load 19 of 20 requests (95.0 %, 95 % interval 76.4–99.1 %) kept every limit. Borderline:"},
		"zh": {"- vLLM TP2：最高到 8.0 req/s，即每 GPU 4 req/s；在该负载下，20 个请求中有 19 个"},
		"ja": {"- vLLM TP2：8.0 req/s まで、GPU あたり 4 req/s です。この負荷では 20 件中 19 件"},
	}
	for lang, lines := range want {
		md := string(files[lang+"/"+id+".md"])
		for _, w := range lines {
			if !strings.Contains(md, w) {
				t.Errorf("%s: the sweep lacks %q", lang, w)
			}
		}
		if strings.Contains(md, "- vLLM summary only") {
			t.Errorf("%s: a goodput for the run without per-request arrays", lang)
		}
	}
	var a struct {
		Sweeps []struct {
			Goodput []struct {
				Run        string   `json:"run"`
				LoadPerGPU *float64 `json:"load_per_gpu"`
				Attainment *float64 `json:"attainment"`
			} `json:"goodput"`
		} `json:"sweeps"`
	}
	if err := json.Unmarshal(files["data/analysis/"+id+".json"], &a); err != nil {
		t.Fatal(err)
	}
	if len(a.Sweeps) != 1 || len(a.Sweeps[0].Goodput) != 2 {
		t.Fatalf("analysis sweeps %+v", a.Sweeps)
	}
	if g := a.Sweeps[0].Goodput[1]; g.Run != "vllm-tp2" || *g.LoadPerGPU != 4 || *g.Attainment != 0.95 {
		t.Errorf("analysis goodput of vllm-tp2: %+v", g)
	}
}
