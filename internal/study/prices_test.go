package study_test

import (
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/study"
)

// results/prices.yaml prices the GPU of every study without a price of its
// own; a study's own price wins, and a bad file says where and why.
func TestSharedPrices(t *testing.T) {
	files := map[string]string{}
	for name, data := range validFiles() {
		files["x/"+name] = data
		files["y/"+name] = data
	}
	gpu := "NVIDIA H100 SXM 80GB"
	if !strings.Contains(files["x/study.yaml"], "gpu: "+gpu) {
		t.Fatalf("the test study's GPU is not %s", gpu)
	}
	files["y/study.yaml"] = strings.Replace(files["y/study.yaml"], "engines:", "price:\n  gpu_hour: 3.00\n  currency: EUR\nengines:", 1)
	files["prices.yaml"] = "prices:\n  - gpu: " + gpu + "\n    gpu_hour: 1.80\n    currency: USD\n  - gpu: NVIDIA A100 SXM 80GB\n    gpu_hour: 1.20\n    currency: USD\n"
	studies, problems, err := study.LoadAll(mapFS(files), "results")
	if err != nil || len(problems) != 0 {
		t.Fatalf("problems %v, err %v", problems, err)
	}
	byID := map[string]*study.Study{}
	for _, s := range studies {
		byID[s.ID] = s
	}
	if p := byID["x"].Price; p == nil || p.PerGPUHour != 1.80 || p.Currency != "USD" || !p.Shared || p.Pos != (study.Pos{File: "results/prices.yaml", Line: 2}) {
		t.Errorf("x: price %+v, want 1.80 USD shared, from results/prices.yaml:2", p)
	}
	if p := byID["y"].Price; p == nil || p.PerGPUHour != 3.00 || p.Shared {
		t.Errorf("y: price %+v, want its own 3.00 EUR", p)
	}
	if byID["x"].Unpriced != nil || byID["y"].Unpriced != nil {
		t.Error("a priced study is marked unpriced")
	}
	// A file that prices other GPUs leaves the study unpriced, at its
	// first price; a study with its own price is not.
	files["prices.yaml"] = "prices:\n  - gpu: NVIDIA B200\n    gpu_hour: 5\n    currency: USD\n  - gpu: NVIDIA A100 SXM 80GB\n    gpu_hour: 1.20\n    currency: USD\n"
	studies, _, _ = study.LoadAll(mapFS(files), "results")
	for _, s := range studies {
		switch u := s.Unpriced; {
		case s.ID == "x" && (s.Price != nil || u == nil || *u != (study.Pos{File: "results/prices.yaml", Line: 2})):
			t.Errorf("x: price %+v, unpriced at %v; want none, results/prices.yaml:2", s.Price, u)
		case s.ID == "y" && u != nil:
			t.Errorf("y has its own price, marked unpriced at %v", u)
		}
	}

	for _, c := range []struct{ name, file, want string }{
		{"twice", "prices:\n  - gpu: A\n    gpu_hour: 1\n    currency: USD\n  - gpu: A\n    gpu_hour: 2\n    currency: USD\n",
			`results/prices.yaml:5: price: GPU "A" is priced twice (line 2)`},
		{"not a number", "prices:\n  - gpu: A\n    gpu_hour: cheap\n    currency: USD\n", `results/prices.yaml:3: price: gpu_hour "cheap" must be a positive number`},
		{"unknown key", "prices:\n  - gpu: A\n    gpu_hour: 1\n    currency: USD\n    vendor: x\n", `results/prices.yaml:5:`},
		{"not YAML", "prices: [", `results/prices.yaml:`},
	} {
		files["prices.yaml"] = c.file
		_, problems, err := study.LoadAll(mapFS(files), "results")
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, p := range problems {
			got = append(got, p.Error())
		}
		if len(got) == 0 || !strings.HasPrefix(got[0], c.want) {
			t.Errorf("%s: problems %q, want one starting %q", c.name, got, c.want)
		}
	}
}
