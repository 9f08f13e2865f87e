package importer

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/check"
)

// importText imports one page written to a temporary file and checks it.
func importText(t *testing.T, name, src string) (*Study, []check.Diagnostic) {
	t.Helper()
	file := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	studies, diags := importAll(t, file)
	return studies[0], diags
}

// A wrong figure a page derives, in a table or a sentence, is an error
// naming the page's line; the right ones around it raise nothing.
func TestDerivedFiguresWrong(t *testing.T) {
	src, err := os.ReadFile("testdata/dcp_recipe.md")
	if err != nil {
		t.Fatal(err)
	}
	page := strings.NewReplacer(
		"| +21.9% |", "| +22.9% |", // the TTFT drop, printed as a gain
		"| 118.9 | -", "| 119.9 | -", // 118905.20 ms printed as 119.9 s
		"20.3% higher request throughput", "23.0% higher request throughput",
		"8 times as many tokens", "7 times as many tokens",
	).Replace(string(src))
	_, diags := importText(t, "dcp.md", page)
	lines := strings.Split(page, "\n")
	want := map[string]bool{}
	for i, l := range lines {
		for _, bad := range []string{"+22.9%", "119.9", "23.0%", "7 times"} {
			if strings.Contains(l, bad) {
				want[bad+"@dcp.md:"+strconv.Itoa(i+1)] = true
			}
		}
	}
	got := map[string]bool{}
	for _, d := range diags {
		if d.Severity != check.Error {
			continue
		}
		if d.Rule != check.RuleClaim {
			t.Errorf("unexpected error: %s", d)
			continue
		}
		for k := range want {
			bad, at, _ := strings.Cut(k, "@")
			if strings.Contains(d.Message, "published "+bad) && strings.Contains(d.Message, at+")") {
				got[k] = true
			}
		}
	}
	for k := range want {
		if !got[k] {
			t.Errorf("no error for %s; diagnostics: %v", k, diags)
		}
	}
	if len(want) != 4 {
		t.Errorf("the page's mistakes are on %d lines, want 4: %v", len(want), want)
	}
}

// Shares of a link's bandwidth, with the link's figure in a column or in
// the header, hold and raise nothing; a wrong one is an error; a share of
// a whole the page does not print is left unchecked, never guessed.
func TestDerivedShares(t *testing.T) {
	page := `# Transfer engine bandwidth

Measured between two nodes with 8 RDMA NICs each.

| Setup | Link bandwidth | Measured (GB/s) | Utilisation |
|---|---|---|---|
| 1 NIC | 200 Gbps | 23.1 | 92.4% |
| 2 NICs | 400 Gbps | 45.8 | 91.6% |
| 4 NICs | 800 Gbps | 87.6 | 87.6% |

| Block size | Throughput (GB/s) | Share of 800 Gbps |
|---|---|---|
| 64 KB | 61.0 | 61.0% |
| 1 MB | 88.2 | 88.2% |
| 4 MB | 90.5 | 95.0% |

| NICs | Throughput (GB/s) | Utilisation |
|---|---|---|
| 8 | 160.3 | 80% |

| Network | Engine (RDMA) | TCP | Speedup | Utilisation |
|---|---|---|---|---|
| 4×200 Gbps RoCE | 87.0 GB/s | ~36 GB/s | 2.4x | 87.0% |
| 8×400 Gbps RoCE | 190 GB/s | 41 GB/s | 4.6x | 47.5% |
`
	s, diags := importText(t, "bandwidth.md", page)
	var errs []string
	for _, d := range diags {
		if d.Severity == check.Error {
			errs = append(errs, d.Message)
		}
	}
	// 88.2% of 100 GB/s is 88.2%; 90.5 GB/s is 90.5%, not 95.0%.
	if len(errs) != 1 || !strings.Contains(errs[0], "published 95.0%") {
		t.Errorf("errors %q, want only the 95.0%% share", errs)
	}
	shares, unchecked := 0, 0
	for _, c := range s.Claims {
		switch {
		case c.Compare == "share":
			shares++
		case c.Kind == "unchecked":
			unchecked++
		}
	}
	// The third table names no whole; "~36" is no figure to divide by.
	if shares != 8 || unchecked != 2 {
		t.Errorf("%d shares and %d unchecked, want 8 and 2", shares, unchecked)
	}
}

// Two models on one page: each table compares its own columns, and a
// sentence naming a metric binds to that metric's figures.
func TestDerivedTwoModels(t *testing.T) {
	page := `# Two models on one node

- **Model**: Example-A

Model A and model B, each served on 4x H100.

## Model A

| Metric | Baseline | Tuned | Speedup |
|---|---|---|---|
| Output throughput (tok/s) | 2,000.0 | 2,600.0 | 1.30x |
| Mean TPOT (ms) | 40.0 | 32.0 | 1.25x |

## Model B

| Metric | Before | After | vs Before |
|---|---|---|---|
| Output throughput (k tok/s) | 1.20 | 1.50 | +25.0% |
| Mean TTFT (ms) | 790.18 | 470.60 | -40.5% |

For model B, tuning reduced TTFT by 40.4 %.

| Metric | A | B | C | B vs A | C vs A |
|---|---|---|---|---|---|
| Mean TPOT (ms) | 50.0 | 40.0 | 25.0 | -20.0% | -50.0% |
`
	s, diags := importText(t, "two.md", page)
	var errs []string
	for _, d := range diags {
		if d.Severity == check.Error {
			errs = append(errs, d.Message)
		}
	}
	if len(errs) != 1 || !strings.Contains(errs[0], "published -40.5%") || !strings.Contains(errs[0], "two.md:19") {
		t.Errorf("errors %q, want only the -40.5%% at two.md:19", errs)
	}
	checked := 0
	for _, c := range s.Claims {
		if c.Kind == "table" {
			checked++
		}
	}
	if checked != 7 {
		t.Errorf("%d table claims, want 7: %+v", checked, s.Claims)
	}
}

// Two serving commands printed together, then blocks under headings that
// name their parallel sizes: each block is the run of the command its
// heading names, not both of the nearest.
func TestHeadingPicksServingCommand(t *testing.T) {
	src, err := os.ReadFile("testdata/dcp_recipe.md")
	if err != nil {
		t.Fatal(err)
	}
	var blocks []string
	for _, part := range strings.Split(string(src), "```text\n")[1:] {
		blocks = append(blocks, "```text\n"+part[:strings.Index(part, "```")+3])
	}
	page := "# Two ways to serve\n\n```bash\nvllm serve org/M --tensor-parallel-size 8\n```\n\n" +
		"```bash\nvllm serve org/M --tensor-parallel-size 8 --decode-context-parallel-size 8\n```\n\n" +
		"```bash\nvllm bench serve --model org/M --dataset-name random --random-input 6000 --random-output 1500 --num-prompt 500\n```\n\n" +
		"#### TP8+DCP8 output\n\n" + blocks[1] + "\n\n#### TP8 output\n\n" + blocks[0] + "\n"
	s, err := Import("two.md", []byte(page))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, r := range s.Runs {
		for _, lg := range r.Logs {
			got[r.Command] += strings.Fields(lg.Text[strings.Index(lg.Text, "Output token throughput"):])[4]
		}
	}
	if len(s.Runs) != 2 || got["vllm serve org/M --tensor-parallel-size 8"] != "1775.00" ||
		got["vllm serve org/M --tensor-parallel-size 8 --decode-context-parallel-size 8"] != "2134.29" {
		t.Errorf("runs by command %v, want TP8's block (1775.00 tok/s) and TP8+DCP8's (2134.29)", got)
	}
}

// A figure per GPU is the figure beside it over the row's GPUs: a column
// of counts, or the count its label names; per-GPU rows of a table of
// runs are each run's block over its GPUs.
func TestDerivedPerGPU(t *testing.T) {
	page := `# Per GPU

- **Model**: Example-B

| Config | GPUs | Output (tok/s) | Output per GPU (tok/s) |
|---|---|---|---|
| TP4 | 4 | 2,000.0 | 500.0 |
| TP8 on 8x H100 | | 3,000.0 | 380.0 |
| TP2 | | 900.0 | 450.0 |
`
	s, diags := importText(t, "pergpu.md", page)
	var errs []string
	for _, d := range diags {
		if d.Severity == check.Error {
			errs = append(errs, d.Message)
		}
	}
	if len(errs) != 1 || !strings.Contains(errs[0], "published 380.0") || !strings.Contains(errs[0], "pergpu.md:8") {
		t.Errorf("errors %q, want only 380.0 per GPU (3,000.0 / 8 = 375.0) at pergpu.md:8", errs)
	}
	kinds := ""
	for _, c := range s.Claims {
		kinds += c.Kind + "/" + c.Compare + " "
	}
	if kinds != "table/quotient table/quotient unchecked/ " {
		t.Errorf("claims %q: the third row names no GPU count", kinds)
	}
}
