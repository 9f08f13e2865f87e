package benchlog

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func labelOf(b *Block, name string) (string, bool) {
	for _, l := range b.Labels {
		if l.Label == name {
			return l.Value, true
		}
	}
	return "", false
}

func parseFile(t *testing.T, name string) []Block {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	blocks, err := Parse(name, f)
	if err != nil {
		t.Fatal(err)
	}
	return blocks
}

// The testdata llama_bench_{md,csv,json,jsonl,sql} files are one run printed
// in every output mode: each mode gives the same results, the markdown
// table's t/s rounded to 2 decimals.
func TestLlamaBenchModes(t *testing.T) {
	want := parseFile(t, "llama_bench_json.json")
	if len(want) != 6 {
		t.Fatalf("%d blocks in the JSON, want 6", len(want))
	}
	for _, c := range []struct {
		file   string
		format Format
	}{
		{"llama_bench_md.txt", FormatLlamaBench},
		{"llama_bench_csv.csv", FormatLlamaBenchCSV},
		{"llama_bench_jsonl.jsonl", FormatLlamaBenchJSONL},
		{"llama_bench_sql.txt", FormatLlamaBenchSQL},
	} {
		got := parseFile(t, c.file)
		if len(got) != len(want) {
			t.Errorf("%s: %d blocks, want %d", c.file, len(got), len(want))
			continue
		}
		for i := range got {
			g, w := &got[i], &want[i]
			if g.Format != c.format || g.Tool != ToolLlamaBench || g.Definition != PerRepetitionMean || g.Version != w.Version {
				t.Errorf("%s block %d: %s %s %s %q, want %s %s %s %q", c.file, i, g.Format, g.Tool, g.Definition, g.Version,
					c.format, ToolLlamaBench, PerRepetitionMean, w.Version)
			}
			if len(g.Metrics) != len(w.Metrics) {
				t.Errorf("%s block %d: metrics %v, want %v", c.file, i, g.Metrics, w.Metrics)
			}
			for k, wm := range w.Metrics {
				gm, ok := g.Metrics[k]
				if !ok || math.Abs(gm.Value-wm.Value) > 0.5*math.Pow10(-gm.Decimals)+1e-9 {
					t.Errorf("%s block %d: %s = %v, want %v", c.file, i, k, gm.Value, wm.Value)
				}
			}
			for _, l := range []string{"model", "size", "params", "backend", "ngl", "test", "n_prompt", "n_gen"} {
				gv, ok1 := labelOf(g, l)
				wv, ok2 := labelOf(w, l)
				if !ok1 || !ok2 || gv != wv {
					t.Errorf("%s block %d: label %s = %q, want %q", c.file, i, l, gv, wv)
				}
			}
		}
	}
}

func TestLlamaBenchFormats(t *testing.T) {
	for _, c := range []struct {
		file      string
		block     int
		line, end int
		metrics   []want
		labels    map[string]string
		version   string
	}{
		{file: "llama_bench_md.txt", block: 2, line: 5, end: 5, version: "build 6512 (3f4a2c1d)",
			metrics: []want{{"pg_tokens_per_s", 791.46, 2, 5}, {"std_pg_tokens_per_s", 4.71, 2, 5}},
			labels:  map[string]string{"test": "pp512+tg128", "t/s": "791.46 ± 4.71", "n_prompt": "512", "n_gen": "128"}},
		{file: "llama_bench_json.json", block: 1, line: 46, end: 89, version: "build 6512 (3f4a2c1d)",
			metrics: []want{{"tg_tokens_per_s", 172.358936, 6, 85}, {"std_tg_tokens_per_s", 0.382742, 6, 86}},
			labels:  map[string]string{"test": "tg128", "size": "4.58 GiB", "params": "8.03 B", "samples_ts": "[5 values]"}},
		{file: "llama_bench_progress.txt", block: 3, line: 32, end: 32, version: "build 6620 (b1e7f3a0)",
			metrics: []want{{"tg_tokens_per_s", 56.98, 2, 32}},
			labels:  map[string]string{"test": "tg128 @ d512", "n_depth": "512", "threads": "8", "fa": "1", "size": "726.87 MiB"}},
		{file: "llama_bench_progress.txt", block: 4, line: 38, end: 38, version: "build 6620 (b1e7f3a0)",
			labels: map[string]string{"params": "494.03 M"}},
		{file: "llama_bench_2023.txt", block: 1, line: 4, end: 4, version: "build 1060 (d0cee0d)",
			metrics: []want{{"tg_tokens_per_s", 41.78, 2, 4}, {"std_tg_tokens_per_s", 0.08, 2, 4}},
			labels:  map[string]string{"test": "tg 128", "n_gen": "128", "model": "llama 7B mostly Q4_0"}},
		{file: "llama_bench_report.md", block: 0, line: 14, end: 14,
			metrics: []want{{"pp_tokens_per_s", 11805.46, 2, 14}}},
	} {
		t.Run(fmt.Sprint(c.file, c.block), func(t *testing.T) {
			b := parseFile(t, c.file)[c.block]
			if b.Line != c.line || b.EndLine != c.end || b.Version != c.version {
				t.Errorf("lines %d-%d version %q, want %d-%d %q", b.Line, b.EndLine, b.Version, c.line, c.end, c.version)
			}
			for _, w := range c.metrics {
				m, ok := b.Metrics[w.key]
				if !ok || m.Value != w.value || m.Decimals != w.decimals || m.Line != w.line {
					t.Errorf("%s = %+v (%v), want %v (%d decimals, line %d)", w.key, m, ok, w.value, w.decimals, w.line)
				}
			}
			for l, v := range c.labels {
				if got, _ := labelOf(&b, l); got != v {
					t.Errorf("label %s = %q, want %q", l, got, v)
				}
			}
		})
	}
}

// Tables and lines that are not llama-bench's give no llama-bench block.
func TestLlamaBenchLookalikes(t *testing.T) {
	for name, in := range map[string]string{
		"other markdown table":          "| Model | Throughput (tok/s) |\n| --- | ---: |\n| llama 8B | 172.36 ± 0.38 |\n",
		"model test t/s, other rows":    "| model | test | t/s |\n| --- | --- | --- |\n| ours | pp512 | faster |\n| ours | mmlu | 12.3 ± 0.1 |\n",
		"no ± in t/s":                   "| model | size | test | t/s |\n| --- | ---: | ---: | ---: |\n| llama 8B | 4.58 GiB | pp512 | 11805.46 |\n",
		"row without header":            "| llama 8B Q4_K - Medium | 4.58 GiB | 8.03 B | CUDA | 99 | pp512 | 11805.46 ± 72.68 |\n",
		"header of other columns":       "| model | size | params | backend | t/s | test |\n| - | - | - | - | - | - |\n| m | 1 | 2 | CPU | 5.00 ± 0.10 | pp512 |\n",
		"test names that are not tests": "| model | test | t/s |\n|---|---|---|\n| m | pp | 1.00 ± 0.00 |\n| m | tg-128 | 1.00 ± 0.00 |\n| m | pp0 | 1.00 ± 0.00 |\n| m | pp512 @ dx | 1.00 ± 0.00 |\n",
		"csv of another tool":           "build_commit,build_number,score\n\"abc\",\"1\",\"0.5\"\n",
		"csv row of other width":        "build_commit,n_prompt,n_gen,avg_ts\n\"abc\",\"512\",\"0\"\n",
		"sql of another table":          "INSERT INTO results (model, score) VALUES ('m', '0.5');\n",
		"json without test sizes":       `{"model_type": "llama 8B", "avg_ts": 172.3, "stddev_ts": 0.4}` + "\n",
		"log lines":                     "INFO 05-12 10:00:00 build: 3f4a2c1d (6512)\nbuild_commit: 3f4a2c1d\nINSERT INTO\n",
	} {
		blocks, err := Parse(name, strings.NewReader(in))
		if err == nil || len(blocks) != 0 {
			t.Errorf("%s: %d blocks, err %v", name, len(blocks), err)
		}
	}
}

// A log line between rows of a table hands out the rows above it (without
// the build of the footer below); the rows after it are still read. The
// blocks of other tools in the same log come in order.
func TestLlamaBenchInterleaved(t *testing.T) {
	in := "| model | size | params | backend | ngl | test | t/s |\n" +
		"| --- | ---: | ---: | --- | --: | ---: | ---: |\n" +
		"| llama 8B Q4_K - Medium | 4.58 GiB | 8.03 B | CUDA | 99 | pp512 | 11805.46 ± 72.68 |\n" +
		"ggml_cuda_init: found 1 CUDA devices:\n" +
		"| llama 8B Q4_K - Medium | 4.58 GiB | 8.03 B | CUDA | 99 | tg128 | 172.36 ± 0.38 |\n" +
		"\n" +
		"build: 3f4a2c1d (6512)\n" +
		"============ Serving Benchmark Result ============\n" +
		"Successful requests:                     10\n" +
		"Benchmark duration (s):                  2.00\n" +
		"Request throughput (req/s):              5.00\n" +
		"==================================================\n" +
		"INSERT INTO test (build_commit, build_number, cuda, metal, model_type, model_size, model_n_params, n_threads, n_gpu_layers, n_prompt, n_gen, avg_ns, stddev_ns, avg_ts, stddev_ts) " +
		"VALUES ('d0cee0d', '1060', '0', '1', 'llama 7B mostly Q4_0', '3825065984', '6738415616', '4', '1', '0', '128', '3063553000', '5863000', '41.781215', '0.079964');\n"
	blocks, err := Parse("mixed.log", strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, b := range blocks {
		got = append(got, fmt.Sprintf("%d %s %q %v", b.Line, b.Format, b.Version, len(b.Metrics)))
	}
	want := []string{
		`3 llama-bench "" 2`,
		`5 llama-bench "build 6512 (3f4a2c1d)" 2`,
		`8 vllm "v0.4.0+" 3`,
		`13 llama-bench-sql "build 1060 (d0cee0d)" 2`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("blocks:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	sql := blocks[3]
	if v, _ := labelOf(&sql, "size"); v != "3.56 GiB" {
		t.Errorf("size = %q", v)
	}
	if _, ok := labelOf(&sql, "backend"); ok {
		t.Error("a backend label without a backends field")
	}
	if m := sql.Metrics["tg_tokens_per_s"]; m.Value != 41.781215 || m.Decimals != 6 || m.Raw != "41.781215" {
		t.Errorf("tg_tokens_per_s = %+v", m)
	}
}

func TestParseLlamaTest(t *testing.T) {
	for in, want := range map[string]string{
		"pp512":              "512 0 0 false true",
		"tg128":              "0 128 0 false true",
		"pp512+tg128":        "512 128 0 false true",
		"pp512 @ d4096":      "512 0 4096 false true",
		"pp2048+tg32 @ d512": "2048 32 512 false true",
		"pp 512":             "512 0 0 true true",
		"tg 128":             "0 128 0 true true",
		"tg0":                "0 0 0 false false",
		"pp+tg1":             "0 1 0 false false",
		"tg128+pp512":        "0 0 0 false false",
		"pp-1":               "0 0 0 false false",
		"pp512 @ d":          "0 0 0 false false",
		"":                   "0 0 0 false false",
	} {
		np, ng, nd, spaced, ok := parseLlamaTest(in)
		if ok {
			if got := fmt.Sprint(np, ng, nd, spaced, ok); got != want {
				t.Errorf("parseLlamaTest(%q) = %s, want %s", in, got, want)
			}
		} else if !strings.HasSuffix(want, "false") {
			t.Errorf("parseLlamaTest(%q) failed, want %s", in, want)
		}
	}
}

func TestSplitCSVLine(t *testing.T) {
	for in, want := range map[string]string{
		`"a","b, c","say ""hi"""`: `[a b, c say "hi"] true`,
		`a,,"c"`:                  `[a  c] true`,
		`"a",`:                    `[a ] true`,
		`"a`:                      `[] false`,
		`"a"b`:                    `[] false`,
		`a"b,c`:                   `[] false`,
		`a,b,c,d`:                 `[] false`, // more than 3 fields
	} {
		v, ok := splitCSVLine([]byte(in), 3)
		if got := fmt.Sprint(v, ok); got != want {
			t.Errorf("splitCSVLine(%s) = %s, want %s", in, got, want)
		}
	}
}

// BenchmarkParseLlamaBench reads a markdown table of 6000 rows and a JSON
// array of 6000 objects.
func BenchmarkParseLlamaBench(b *testing.B) {
	for _, c := range []struct{ name, file string }{{"md", "llama_bench_md.txt"}, {"json", "llama_bench_json.json"}} {
		data, err := readTestdata(c.file)
		if err != nil {
			b.Fatal(err)
		}
		var in []byte
		switch c.name {
		case "md":
			lines := strings.SplitAfter(string(data), "\n")
			in = []byte(lines[0] + lines[1] + strings.Repeat(strings.Join(lines[2:8], ""), 1000))
		case "json":
			body := strings.TrimSuffix(strings.TrimPrefix(string(data), "[\n"), "\n]\n")
			in = []byte("[\n" + strings.Repeat(body+",\n", 999) + body + "\n]\n")
		}
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			b.ReportAllocs()
			for b.Loop() {
				blocks, err := Parse(c.file, strings.NewReader(string(in)))
				if err != nil || len(blocks) != 6000 {
					b.Fatalf("%d blocks, err %v", len(blocks), err)
				}
			}
		})
	}
}

// A standard deviation printed as -nan (every repetition took the same
// time) is a problem, in every mode; the mean is read. C's bare -nan in
// -o json and jsonl is read as the string it means.
func TestLlamaBenchNotFinite(t *testing.T) {
	for name, in := range map[string]string{
		"jsonl": `{"build_commit": "b1e7f3a0", "build_number": 6620, "n_prompt": 0, "n_gen": 128, "avg_ts": 96.968672, "stddev_ts": -nan, "samples_ns": [ 1320013958, 1320013958, 1320013958 ],"samples_ts": [ 96.9687, 96.9687, 96.9687 ]}` + "\n",
		"csv":   "build_commit,build_number,n_prompt,n_gen,avg_ts,stddev_ts\n\"b1e7f3a0\",\"6620\",\"0\",\"128\",\"96.968672\",\"-nan\"\n",
		"sql":   "INSERT INTO llama_bench (build_commit, build_number, n_prompt, n_gen, avg_ts, stddev_ts) VALUES ('b1e7f3a0', '6620', '0', '128', '96.968672', '-nan');\n",
	} {
		blocks, err := Parse(name, strings.NewReader(in))
		if err != nil || len(blocks) != 1 {
			t.Fatalf("%s: %d blocks, err %v", name, len(blocks), err)
		}
		b := blocks[0]
		if m, ok := b.Metrics["tg_tokens_per_s"]; !ok || m.Value != 96.968672 {
			t.Errorf("%s: tg_tokens_per_s = %+v", name, m)
		}
		if _, ok := b.Metrics["std_tg_tokens_per_s"]; ok || len(b.Problems) != 1 || !b.Problems[0].Suspect {
			t.Errorf("%s: metrics %v, problems %v", name, b.Metrics, b.Problems)
		}
	}
}
