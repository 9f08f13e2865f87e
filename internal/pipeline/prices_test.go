package pipeline

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/check"
)

// results/prices.yaml prices both seed studies' A100s: each report gets a
// cost section that names the file and line of its price, and a cached
// build after the price changes gives the full build's bytes.
func TestSharedPricesBuilt(t *testing.T) {
	t.Parallel()
	d := copyTree(t)
	prices := filepath.Join(d.Results, "prices.yaml")
	write := func(price string) {
		t.Helper()
		data := "prices:\n  - gpu: NVIDIA A100 SXM 80GB\n    gpu_hour: " + price + "\n    currency: USD\n"
		if err := os.WriteFile(prices, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("1.80")
	_, files := buildRepo(t, d)
	for _, id := range []string{"qwen3-235b-a22b-a100", "qwen3-32b-a100"} {
		md := string(files["en/"+id+".md"])
		if !strings.Contains(md, "At 1.80 USD per GPU-hour, the price of an NVIDIA A100 SXM 80GB that the site's shared prices give (`results/prices.yaml:2`)") {
			t.Errorf("%s: no cost section priced from results/prices.yaml:2", id)
		}
	}
	if md := string(files["en/example-qwen3-8b-l40s.md"]); !strings.Contains(md, "At the study's price of 1.00 USD") {
		t.Error("the example study's own price is not the one used")
	}

	out, cache := filepath.Join(t.TempDir(), "site"), filepath.Join(t.TempDir(), "cache")
	if _, err := BuildCached(d, out, cache); err != nil {
		t.Fatal(err)
	}
	write("2.40")
	if _, err := BuildCached(d, out, cache); err != nil {
		t.Fatal(err)
	}
	_, files = buildRepo(t, d)
	sameTree(t, "after the price changed", readTree(t, out), map[string][]byte(files))
	if !strings.Contains(string(files["en/qwen3-32b-a100.md"]), "At 2.40 USD per GPU-hour") {
		t.Error("the new price is not on the page")
	}
}

// A prices file without the A100 warns on each A100 study, at its price's
// line; the example study has a price of its own.
func TestSharedPricesMissingGPU(t *testing.T) {
	t.Parallel()
	d := copyTree(t)
	data := "prices:\n  - gpu: NVIDIA H100 SXM 80GB\n    gpu_hour: 2.50\n    currency: USD\n"
	if err := os.WriteFile(filepath.Join(d.Results, "prices.yaml"), []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := loadHeld(d)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, res := range p.Results {
		for _, dg := range res.Diagnostics {
			if dg.Rule == check.RulePrice {
				got = append(got, res.Study.ID+" "+filepath.Base(dg.File)+":"+strconv.Itoa(dg.Line))
			}
		}
	}
	if want := "qwen3-235b-a22b-a100 prices.yaml:2|qwen3-32b-a100 prices.yaml:2"; strings.Join(got, "|") != want {
		t.Errorf("price warnings %q, want %q", got, want)
	}
}
